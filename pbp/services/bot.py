"""One poll of the forum, in three steps through the store (SPEC §4, §9):

1. **Ingest** (``services/ingest.py``): one listing per poll; every new post version of a thread
   the bot runs goes into the inbox with the cursor that moved past it. Any worker may do it.
2. **Process**: this worker takes the leases of threads with work (inbox versions, replies to
   deliver, a whole read, a deadline, reminder or re-read due), up to its fair share of the
   threads among the live workers, and runs each one's cycle (``services/cycle.py``) in one
   unit of work: the versions taken from the inbox, the events, the processed-post records,
   the replies owed (the outbox), the seeds and the snapshot commit together.
3. **Deliver** (``services/outbox.py``): the replies owed in the threads it holds.

So a crash at any point loses nothing and repeats nothing, whichever worker read the listing;
``Bot.poll_once(now)`` is all that ``pbp poll --once``, ``pbp run``, ``pbp replay`` and
``pbp demo`` call.
"""

from __future__ import annotations

import hashlib
import logging
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from pbp.campaign.model import Campaign
from pbp.engine.effects import SummaryContent
from pbp.engine.state import EngineState
from pbp.engine.step import initial_state
from pbp.errors import ConfigError, ForumError
from pbp.forums.base import Forum
from pbp.render.environment import shared_environment
from pbp.render.replies import Replies
from pbp.rules.dice.seal import new_seed
from pbp.rules.dice.seeded import SeededDice
from pbp.services.cycle import ThreadCycle
from pbp.services.files import load_campaign
from pbp.services.history import Cached, load_state, save_snapshot
from pbp.services.ingest import Ingest, campaign_named_in
from pbp.services.outbox import Owed, deliver, owed_replies
from pbp.services.polling import BotOptions, PollReport, WatchedThread
from pbp.store.database import Store, StoreError, StoreGone
from pbp.store.inbox import Inbox, StoredThread
from pbp.store.leases import Leases, ThreadWork
from pbp.store.repository import Repository
from pbp.store.schema import CampaignRow, ThreadRow

log = logging.getLogger(__name__)
__all__ = ["Bot", "BotOptions", "PollReport", "WatchedThread", "campaign_named_in"]


@dataclass(frozen=True, slots=True)
class _Loaded:
    file_hash: str
    campaign: Campaign


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
        self._configured = {t.key: t.campaign for t in threads}
        self.bindable = tuple(dict.fromkeys((*(t.campaign for t in threads), *campaigns)))
        self.options = options
        self.seed_maker = seed_maker or (lambda _thread, _number: new_seed())
        self._cache: dict[int, Cached] = {}
        self._seeds: dict[int, dict[int, str]] = {}  # thread id -> round -> seed, as stored
        self._campaigns: dict[Path, _Loaded] = {}
        self._stopping = False
        self._registered: set[str] = set()  # configured threads known to be in the store
        self._stored: dict[str, StoredThread] = {}  # threads seen in the store, by key
        self._owed: dict[int, list[Owed]] = {}  # thread id -> what its cycle left to deliver
        self.looked_at: set[str] = set()  # unwatched threads whose opening post was read

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
        """The earliest moment time alone changes one of the forum's threads."""
        with self._store.session() as s:
            return Repository(s).next_due(self._forum.kind)

    def release_leases(self) -> None:
        """Give up this worker's threads and leave the workers' list (on a clean stop)."""
        try:
            self._store.check_present()
        except StoreGone:
            return  # nothing to give up in a database that is gone (and none to make anew)
        with self._store.session() as s:
            Leases(s).leave(name=self.options.owner)

    # -- the poll -----------------------------------------------------------------------------

    def poll_once(self, now: datetime) -> PollReport:
        """Ingest the listing, process the threads with work this worker holds, deliver."""
        report = PollReport()
        self._owed.clear()  # only what this poll's cycles read is delivered without a read
        self._store.check_present()
        self._register(now, report)
        Ingest(self, now=now, report=report).run()
        share, held, work = self._claim(now, report)
        for item in work:
            if self._stopping:
                break
            self._process(item, now, report)
        for item in work:  # every thread with replies owed has work, so it is among these
            if self._stopping:
                break
            self._deliver(item, now, report)
        if held > share:
            self._shed(share, keep={w.id for w in work})
        log.info("poll at %s: %d post versions read, %d replies sent, %d errors",
                 now.isoformat(timespec="seconds"), report.events,
                 sum(len(d) for d in report.delivered.values()), len(report.errors))
        return report

    def _register(self, now: datetime, report: PollReport) -> None:
        """The configured threads, in the store once (a concurrent first poll included)."""
        missing = [key for key in self._configured if key not in self._registered]
        if not missing:
            return
        with self._store.session() as s:
            known = {t.key for t in Inbox(s).watched(self._forum.kind, missing)}
        ready: dict[str, _Loaded] = {}
        for key in missing:
            if key in known:
                self._registered.add(key)
                continue
            try:
                ready[key] = self.campaign(self._configured[key])
            except ConfigError as exc:  # this thread waits until its campaign file loads
                report.errors.append(f"thread {key}: {exc}")
                log.error("thread %s: %s", key, exc)
        if not ready:
            return
        with self._store.session() as s:  # every new thread in one transaction
            repo = Repository(s)
            rows: dict[Path, CampaignRow] = {}  # a campaign file's row, once per file
            for key, loaded in ready.items():
                path = self._configured[key]
                if path not in rows:
                    rows[path] = self.register_campaign(repo, path, now=now)
                repo.add_thread(forum=self._forum.kind, key=key, campaign_id=rows[path].id,
                                campaign_hash=loaded.file_hash, at=now)
        self._registered.update(ready)

    def stored_threads(self, inbox: Inbox, keys: Iterable[str]) -> list[StoredThread]:
        """The threads with these keys the store has, in the order they were added. A thread's
        row never changes its id, key or binding once made (nor goes away), so a thread seen
        once is not asked for again; only keys not seen yet are looked up."""
        wanted = list(dict.fromkeys(keys))
        missing = [key for key in wanted if key not in self._stored]
        if missing:
            self._stored.update((t.key, t) for t in inbox.watched(self._forum.kind, missing))
        found = [self._stored[key] for key in wanted if key in self._stored]
        return sorted(found, key=lambda t: t.id)

    def knows_threads(self, keys: Iterable[str]) -> bool:
        """Whether every thread with these keys was seen in the store already."""
        return all(key in self._stored for key in keys)

    def beat(self, leases: Leases, *, now: datetime) -> None:
        """This worker is alive: its leases last another ``lease`` (the ingest's first step)."""
        leases.beat(name=self.options.owner, forum=self._forum.kind, now=now,
                    until=now + self.options.lease)

    def _claim(self, now: datetime, report: PollReport) -> tuple[int, int, list[ThreadWork]]:
        """This worker's share of the threads, how many it holds, and the threads with work it
        holds now (taking free ones, expired ones and dead workers' ones under its share)."""
        me, alive = self.options.owner, self.options.owner_alive
        with self._store.session() as s:
            leases = Leases(s)
            work = leases.with_work(self._forum.kind, now=now)
            live = [w for w in leases.workers(self._forum.kind,
                                              seen_since=now - self.options.lease)
                    if w == me or alive(w)]
            total, held = leases.counts(self._forum.kind, owner=me)
        share = math.ceil(total / max(1, len(live)))
        mine: list[ThreadWork] = []
        for item in work:
            if not (item.bound or self.configures(item.key)):
                continue  # taken out of the config: left alone
            if item.owner == me:
                mine.append(item)
                continue
            dead = item.owner is not None and (item.owner not in live or not alive(item.owner))
            expired = item.expires is not None and item.expires < now
            if item.owner is not None and not dead and not expired:
                report.skipped.append(f"{item.key} (run by {item.owner})")
                continue
            if held >= share:
                continue  # a worker with room takes it
            with self._store.session() as s:
                taken = Leases(s).claim(item.id, owner=me, now=now,
                                        until=now + self.options.lease,
                                        dead=[item.owner] if dead and item.owner else [])
            if taken:
                held += 1
                mine.append(item)
        return share, held, mine

    def _shed(self, share: int, *, keep: set[int]) -> None:
        """Hold no more than the share: give up idle threads first (a new worker takes them)."""
        with self._store.session() as s:
            leases = Leases(s)
            held = leases.held(self._forum.kind, owner=self.options.owner)
            extra = len(held) - share
            if extra > 0:
                idle = [t for t in held if t not in keep]
                busy = [t for t in held if t in keep]
                leases.release((idle + busy)[:extra], owner=self.options.owner)

    def _process(self, work: ThreadWork, now: datetime, report: PollReport) -> None:
        """One thread's cycle in one unit of work; a failure leaves its inbox for next poll."""
        watched = WatchedThread(key=work.key,
                                campaign=self._configured.get(work.key, Path(work.campaign_path)))
        try:
            with self._store.session() as s:
                leases = Leases(s)
                thread = leases.hold(work.id, owner=self.options.owner)
                if thread is None:  # another worker took it meanwhile
                    report.skipped.append(f"{work.key} (taken over)")
                    return
                repo, inbox = Repository(s), Inbox(s)
                cycle = self._cycle(repo, inbox, thread, watched, now, report)
                leases.keep(thread)
                # what to deliver, read in the same unit of work (it holds the lease)
                owed = owed_replies(repo, inbox, work.id, now=now)
            self._owed[work.id] = owed  # committed: the attempts are counted
            self._cache[cycle.thread_id] = Cached(seq=cycle.last_seq, state=cycle.state)
            self._seeds[cycle.thread_id] = cycle.seeds  # committed: the store holds them
        except StoreError:
            raise  # the database's trouble, not the thread's: the next threads would fail too
        except (ConfigError, ForumError) as exc:
            report.errors.append(f"thread {work.key}: {exc}")
            log.error("thread %s: %s", work.key, exc)
        except Exception as exc:  # one broken thread never stops the others
            report.errors.append(f"thread {work.key}: {type(exc).__name__}: {exc}")
            log.exception("thread %s failed", work.key)

    def _cycle(self, repo: Repository, inbox: Inbox, thread: ThreadRow, watched: WatchedThread,
               now: datetime, report: PollReport) -> ThreadCycle:
        pending = inbox.pending(thread.id, thread.key)
        posts = [p.post for p in pending]  # in the order listed: a later copy is newer
        shown_at = {p.post.id: p.ingested_at for p in pending}
        if thread.needs_read:  # the store cannot account for every post: read it whole
            whole = self._forum.backfill(thread.key)
            bot = self.options.username.casefold()
            inbox.found_replies(thread.id, {
                p.reply_key: p.id for p in whole
                if p.reply_key is not None and p.author.casefold() == bot and not p.deleted
            })
            posts = [*posts, *whole]  # the read is newer than what waited
            shown_at.update((p.id, now) for p in whole)
        # a thread read from its start resolves closed rounds silently (SPEC §4)
        cycle = ThreadCycle(bot=self, repo=repo, thread=thread, watched=watched, now=now,
                            silent=thread.last_seq == 0)
        with repo.deferred():  # the log's rows in one INSERT per table
            report.events += cycle.run(posts, report, shown_at=shown_at)
        inbox.take(p.id for p in pending)
        thread.needs_read = False
        return cycle

    def _deliver(self, work: ThreadWork, now: datetime, report: PollReport) -> None:
        self._store.check_present()  # nothing goes out from a file damaged since it was read
        key = work.key
        delivery = deliver(self._store, self._forum, thread_id=work.id, thread=key, now=now,
                           owner=self.options.owner, owed=self._owed.pop(work.id, None))
        if delivery.sent:
            report.delivered.setdefault(key, []).extend(delivery.sent)
        report.errors += [f"thread {key}: {line}" for line in delivery.refused]
        if delivery.waiting:
            report.waiting.append(f"thread {key}: {delivery.waiting}")

    # -- campaigns ----------------------------------------------------------------------------

    def configures(self, key: str) -> bool:
        """Whether the config lists the thread (a bound one runs without)."""
        return key in self._configured

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

    def register_campaign(self, repo: Repository, path: Path, *, now: datetime) -> CampaignRow:
        """The store's row of a campaign file (made, or brought up to date)."""
        loaded = self.campaign(path)
        return repo.save_campaign(path=str(path.resolve()), name=loaded.campaign.name,
                                  file_hash=loaded.file_hash, at=now)

    def bindable_named(self, name: str) -> Path | None:
        """The campaign file a ``!campaign NAME`` line names (its name or file name)."""
        wanted = name.strip().casefold()
        for path in self.bindable:
            try:
                loaded = self.campaign(path).campaign
            except ConfigError:
                continue
            if wanted in (loaded.name.casefold(), path.stem.casefold()):
                return path
        return None

    def campaign_at(self, key: str, stored: Path) -> Campaign | None:
        """The campaign thread ``key`` runs (the config's file, else ``stored``, the one it
        started with); None if it does not load and never did in this process."""
        path = self._configured.get(key, stored)
        try:
            return self.campaign(path).campaign
        except ConfigError:
            return self.last_good_campaign(path)

    def campaign_of(self, repo: Repository, thread: ThreadRow) -> Campaign:
        """The campaign a stored thread runs (from the config, else the file it started with)."""
        path = self._configured.get(thread.key)
        if path is None:
            path = Path(repo.campaign_by_id(thread.campaign_id).path)
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

    # -- state --------------------------------------------------------------------------------

    def state(self, repo: Repository, thread: ThreadRow, campaign: Campaign,
              closed: list[SummaryContent] | None = None) -> EngineState:
        """A thread's engine state (from memory, or the snapshot and the log; the rounds the
        log closes again are added to ``closed``)."""
        return load_state(
            repo, thread, cached=self._cache.get(thread.id),
            fresh=lambda: initial_state(
                campaign, bot=self.options.username, ack=self.options.ack,
                mentions_per_post=self.forum.limits.mentions_per_post,
            ),
            dice=lambda number: SeededDice(self._stored_seed(repo, thread, number)),
            closed=closed,
        )

    def committed_state(self, thread: ThreadRow) -> EngineState | None:
        """The state this process's last cycle of the thread committed, if the thread's log
        has not moved since (no other worker, and nothing else, wrote to it meanwhile)."""
        cached = self._cache.get(thread.id)
        return cached.state if cached is not None and cached.seq == thread.last_seq else None

    def stored_seeds(self, thread_id: int) -> dict[int, str]:
        """The round seeds of a thread this process saw committed (a seed never changes)."""
        return self._seeds.get(thread_id, {})

    @staticmethod
    def save_start(thread: ThreadRow, state: EngineState) -> None:
        """The state a new thread starts from (the characters carried over)."""
        save_snapshot(thread, state)

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
        return Replies(env=shared_environment(templates, reload=self.options.reload_templates),
                       seed_for=seed_for)
