"""One poll of the forum: fetch, check, store, reply, resolve what is due (SPEC §4).

``Bot.poll_once(now)`` is the whole cycle, and the only thing ``pbp poll --once``, ``pbp run``,
``pbp replay`` and ``pbp demo`` call. Each thread is handled in its own unit of work under its
lease: the post versions seen, the events the engine took, the processed-post records, the
replies owed (the outbox), the seeds and the snapshot commit together, so a crash at any point
loses nothing and repeats nothing. Replies are posted after the commit (``outbox.deliver``).
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from pbp.campaign.model import Campaign
from pbp.engine.reload import carry_over
from pbp.engine.state import EngineState
from pbp.engine.step import initial_state
from pbp.errors import ConfigError, ForumError
from pbp.forums.base import Forum, ForumPost
from pbp.render.environment import shared_environment
from pbp.render.replies import Replies
from pbp.rules.dice.seal import new_seed
from pbp.rules.dice.seeded import SeededDice
from pbp.services.cycle import ThreadCycle
from pbp.services.files import load_campaign
from pbp.services.history import Cached, load_state, save_snapshot
from pbp.services.outbox import deliver
from pbp.services.polling import BotOptions, PollReport, WatchedThread
from pbp.store.database import Store
from pbp.store.repository import Repository
from pbp.store.schema import ThreadRow

log = logging.getLogger(__name__)
__all__ = ["Bot", "BotOptions", "PollReport", "WatchedThread", "campaign_named_in"]
LISTING_SCOPE = "all"


@dataclass(frozen=True, slots=True)
class _Loaded:
    file_hash: str
    campaign: Campaign


_CAMPAIGN_LINE = re.compile(r"^\s*!campaign\s+(\S.*?)\s*$", re.IGNORECASE | re.MULTILINE)


def campaign_named_in(body: str) -> str | None:
    """The NAME of a ``!campaign NAME`` line in a post, if it has one."""
    found = _CAMPAIGN_LINE.search(body)
    return found.group(1) if found else None


class Bot:
    """The bot: a store, a forum and the threads it runs."""

    def __init__(
        self,
        *,
        store: Store,
        forum: Forum,
        threads: Sequence[WatchedThread],
        options: BotOptions,
        seed_maker: Callable[[str, int], str] | None = None,
        campaigns: Sequence[Path] = (),
    ) -> None:
        self._store = store
        self._forum = forum
        self._configured = tuple(threads)
        self._threads = tuple(threads)  # the configured ones and those bound by `!campaign`
        self._bindable = tuple(dict.fromkeys((*(t.campaign for t in threads), *campaigns)))
        self.options = options
        self.seed_maker = seed_maker or (lambda _thread, _number: new_seed())
        self._cache: dict[int, Cached] = {}
        self._campaigns: dict[Path, _Loaded] = {}
        self._stopping = False
        self._looked_at: set[str] = set()  # unwatched threads whose opening post was read
        self._catch_up: set[str] = set()  # threads that failed: read whole when they next work

    @property
    def store(self) -> Store:
        """The bot's database."""
        return self._store

    @property
    def forum(self) -> Forum:
        """The forum the bot reads."""
        return self._forum

    @property
    def stopping(self) -> bool:
        """Whether a stop was asked for (the poll ends after the post in hand)."""
        return self._stopping

    def request_stop(self) -> None:
        """Finish the post in hand, commit, and poll no further."""
        self._stopping = True

    def next_due(self) -> datetime | None:
        """The earliest moment time alone changes one of this bot's threads."""
        with self._store.session() as s:
            return Repository(s).next_due(self._forum.kind, [t.key for t in self._threads])

    def release_leases(self) -> None:
        """Give up this worker's threads (on a clean stop)."""
        with self._store.session() as s:
            repo = Repository(s)
            for watched in self._threads:
                row = repo.thread(self._forum.kind, watched.key)
                if row is not None:
                    repo.release_lease(row.id, owner=self.options.owner)

    # -- the cycle ----------------------------------------------------------------------------

    def poll_once(self, now: datetime) -> PollReport:
        """Read the forum once, handle what is new, resolve what is due, post the replies."""
        report = PollReport()
        kind = self._forum.kind
        with self._store.session() as s:
            repo = Repository(s)
            cursor = repo.cursor(kind, LISTING_SCOPE)
            self._threads = self._watch_list(repo)
        try:
            listing = self._forum.listing([t.key for t in self._threads], cursor=cursor)
        except ForumError as exc:
            report.errors.append(f"the forum's listing failed: {exc}")
            log.warning("the forum's listing failed: %s", exc)
            listing = None
        if listing is not None and listing.others:
            self._bind(listing.others, now, report)
        posts: dict[str, list[ForumPost]] = {t.key: [] for t in self._threads}
        for post in listing.posts if listing else ():
            if post.thread in posts:
                posts[post.thread].append(post)
        for watched in self._threads:
            if self._stopping:
                self._catch_up.add(watched.key)
                continue
            try:
                report.events += self._poll_thread(watched, posts[watched.key], now, report)
            except (ConfigError, ForumError) as exc:
                self._catch_up.add(watched.key)
                report.errors.append(f"thread {watched.key}: {exc}")
                log.error("thread %s: %s", watched.key, exc)
            except Exception as exc:  # one broken thread never stops the others
                self._catch_up.add(watched.key)
                report.errors.append(f"thread {watched.key}: {type(exc).__name__}: {exc}")
                log.exception("thread %s failed", watched.key)
        # the cursor moves on even past a thread that failed: that thread reads itself whole
        # when it next works (so one broken thread never makes every listing longer)
        if listing is not None:
            with self._store.session() as s:
                Repository(s).save_cursor(kind, LISTING_SCOPE, listing.cursor, at=now)
        for watched in self._threads:
            if not self._stopping:
                self._deliver(watched, now, report)
        log.info("poll at %s: %d post versions read, %d replies sent, %d errors",
                 now.isoformat(timespec="seconds"), report.events,
                 sum(len(d) for d in report.delivered.values()), len(report.errors))
        return report

    def _watch_list(self, repo: Repository) -> tuple[WatchedThread, ...]:
        configured = {t.key for t in self._configured}
        bound = [
            WatchedThread(key=key, campaign=Path(path))
            for key, path in repo.bound_threads(self._forum.kind)
            if key not in configured
        ]
        return (*self._configured, *bound)

    def _bind(self, posts: Sequence[ForumPost], now: datetime, report: PollReport) -> None:
        """SPEC §2.5: ``!campaign NAME`` by that campaign's GM in a thread not watched yet
        binds the thread to the campaign; its characters come along from their last thread."""
        watched = {t.key for t in self._threads}
        for post in [*self._openings(posts, watched), *posts]:
            name = campaign_named_in(post.body)
            if name is None or post.thread in watched:
                continue
            path = self._bindable_named(name)
            if path is None:
                known = ", ".join(self.campaign(p).campaign.name for p in self._bindable)
                report.errors.append(f"thread {post.thread}: {post.author} asked for campaign "
                                     f"{name!r}, which this bot does not run (it runs: {known})")
                continue
            campaign = self.campaign(path).campaign
            if not campaign.is_gm(post.author):
                report.errors.append(f"thread {post.thread}: {post.author} is not a GM of "
                                     f"{campaign.name!r} and cannot bind a thread to it")
                continue
            with self._store.session() as s:
                self._bind_thread(Repository(s), post, path, now)
            watched.add(post.thread)
            self._threads = (*self._threads, WatchedThread(key=post.thread, campaign=path))
            log.info("thread %s bound to campaign %s by %s", post.thread, campaign.name,
                     post.author)

    def _openings(self, posts: Sequence[ForumPost], watched: set[str]) -> list[ForumPost]:
        """The opening posts (a Reddit submission's text) of threads seen for the first time
        among ``posts``: the GM may have written ``!campaign NAME`` there. Each is read once."""
        fresh = [t for t in dict.fromkeys(p.thread for p in posts)
                 if t not in watched and t not in self._looked_at]
        self._looked_at.update(fresh)
        found: list[ForumPost] = []
        for thread in fresh:
            try:
                found += [p for p in self._forum.reread(thread, [thread]) if not p.deleted]
            except ForumError as exc:
                self._looked_at.discard(thread)  # try again next poll
                log.warning("thread %s: its opening post could not be read: %s", thread, exc)
        return found

    def _bindable_named(self, name: str) -> Path | None:
        wanted = name.strip().casefold()
        for path in self._bindable:
            try:
                loaded = self.campaign(path).campaign
            except ConfigError:
                continue
            if wanted in (loaded.name.casefold(), path.stem.casefold()):
                return path
        return None

    def _bind_thread(self, repo: Repository, post: ForumPost, path: Path, now: datetime) -> None:
        loaded = self.campaign(path)
        row = repo.save_campaign(path=str(path.resolve()), name=loaded.campaign.name,
                                 file_hash=loaded.file_hash, at=now)
        thread = repo.add_thread(forum=self._forum.kind, key=post.thread, campaign_id=row.id,
                                 campaign_hash=loaded.file_hash, at=now, bound_by=post.author)
        previous = repo.latest_thread_of(row.id, besides=thread.id)
        if previous is not None:  # the characters come along, as they stand there
            old = self.state(repo, previous, loaded.campaign)
            start = carry_over(old, campaign=loaded.campaign, bot=self.options.username,
                               ack=self.options.ack)
            save_snapshot(thread, start)

    def _deliver(self, watched: WatchedThread, now: datetime, report: PollReport) -> None:
        with self._store.session() as s:
            thread = Repository(s).thread(self._forum.kind, watched.key)
            if thread is None or thread.lease_owner != self.options.owner:
                return
            thread_id = thread.id
        delivery = deliver(self._store, self._forum, thread_id=thread_id, thread=watched.key,
                           now=now)
        if delivery.sent:
            report.delivered.setdefault(watched.key, []).extend(delivery.sent)
        report.errors += [f"thread {watched.key}: {line}" for line in delivery.refused]
        if delivery.waiting:
            report.waiting.append(f"thread {watched.key}: {delivery.waiting}")

    def _poll_thread(
        self, watched: WatchedThread, posts: list[ForumPost], now: datetime, report: PollReport
    ) -> int:
        with self._store.session() as s:
            repo = Repository(s)
            thread, backfill = self._thread(repo, watched, now)
            holder = repo.lease_owner(thread.id)
            dead = holder if holder and not self.options.owner_alive(holder) else None
            ours, before = repo.take_lease(thread.id, owner=self.options.owner, now=now,
                                           ttl=self.options.lease, dead=dead)
            if not ours:
                report.skipped.append(f"{watched.key} (run by {before})")
                return 0
            if before != self.options.owner or watched.key in self._catch_up:
                # a new thread is read from its start (SPEC §4); a thread taken over from
                # another worker, from this bot before a restart, or that failed last time, is
                # read again in full: whatever the listing moved past meanwhile is caught up
                posts = [*self._forum.backfill(watched.key), *posts]
            cycle = ThreadCycle(bot=self, repo=repo, thread=thread, watched=watched, now=now,
                           silent=backfill)
            count = cycle.run(posts, report)
        self._cache[cycle.thread_id] = Cached(seq=cycle.last_seq, state=cycle.state)
        self._catch_up.discard(watched.key)
        return count

    def _thread(self, repo: Repository, watched: WatchedThread, now: datetime,
                ) -> tuple[ThreadRow, bool]:
        thread = repo.thread(self._forum.kind, watched.key)
        if thread is not None:
            return thread, thread.last_seq == 0 and thread.bound_by is not None
        loaded = self.campaign(watched.campaign)
        row = repo.save_campaign(path=str(watched.campaign.resolve()),
                                 name=loaded.campaign.name, file_hash=loaded.file_hash, at=now)
        thread = repo.add_thread(forum=self._forum.kind, key=watched.key, campaign_id=row.id,
                                 campaign_hash=loaded.file_hash, at=now)
        return thread, True

    # -- campaigns ----------------------------------------------------------------------------

    def campaign(self, path: Path) -> _Loaded:
        """The campaign file as it is now (parsed again only when its bytes change)."""
        data = path.read_bytes() if path.is_file() else b""
        digest = hashlib.sha256(data).hexdigest()
        cached = self._campaigns.get(path)
        if cached is not None and cached.file_hash == digest:
            return cached
        loaded = _Loaded(file_hash=digest, campaign=load_campaign(path))
        self._campaigns[path] = loaded
        return loaded

    def campaign_of(self, repo: Repository, thread: ThreadRow) -> Campaign:
        """The campaign a stored thread runs (from the config, else the file it started with)."""
        path = next((t.campaign for t in self._threads if t.key == thread.key), None)
        if path is None:
            row = repo.campaign_by_id(thread.campaign_id)
            path = Path(row.path)
        try:
            return self.campaign(path).campaign
        except ConfigError:
            older = self.last_good_campaign(path)
            if older is None:
                raise
            return older

    def last_good_campaign(self, path: Path) -> Campaign | None:
        """The last version of a campaign file that loaded, if any did in this process."""
        loaded = self._campaigns.get(path)
        return loaded.campaign if loaded is not None else None

    def state(self, repo: Repository, thread: ThreadRow, campaign: Campaign) -> EngineState:
        """A thread's engine state (from memory, or the snapshot and the log)."""
        return load_state(
            repo, thread, cached=self._cache.get(thread.id),
            fresh=lambda: initial_state(campaign, bot=self.options.username,
                                        ack=self.options.ack),
            dice=lambda number: SeededDice(self._stored_seed(repo, thread, number)),
        )

    @staticmethod
    def _stored_seed(repo: Repository, thread: ThreadRow, number: int) -> str:
        """A round's seed as stored: replaying the log rolls exactly the dice rolled then."""
        seed = repo.seed(thread.id, number)
        if seed is None:
            raise LookupError(f"thread {thread.key}: round {number} rolled dice but its seed "
                              "is not in the database")
        return seed

    def replies_for(self, campaign: Campaign, seed_for: Callable[[int], str | None]) -> Replies:
        """The renderer of a campaign's replies (its template overrides included)."""
        templates = Path(campaign.templates) if campaign.templates else None
        return Replies(env=shared_environment(templates), seed_for=seed_for)
