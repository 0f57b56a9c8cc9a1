"""Ingest, the poll's first step: read the forum's listing once and keep every new post version
of a thread the bot runs in the store's inbox, in the same transaction as the cursor that moved
past it. Any worker may ingest; the worker that holds a thread's lease takes its versions from
the inbox, so what one worker read is never lost to another.

A thread is read whole only when the store cannot account for its posts: a thread seen for the
first time holds more posts than the listing showed (the forum's ``survey`` says how many, in
batches), or the listing could not reach back to its cursor (a gap) and the survey finds posts
the store never saw. A restart, a new process or a lease changing hands is not a gap.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from pbp.engine.commands import may_close
from pbp.engine.reload import carry_over
from pbp.errors import ConfigError, ForumError
from pbp.forums.base import ForumPost, Listing, ThreadSurvey
from pbp.services.history import save_start
from pbp.services.polling import LISTING_SCOPE, PollReport
from pbp.services.rereads import RIDE_ALONG, Candidate, OpenRound, plan_batch
from pbp.store.database import StoreError
from pbp.store.inbox import Inbox, RereadRow, StoredThread
from pbp.store.leases import HeldThread, Leases, Seen
from pbp.store.repository import Repository
from pbp.values import frozen_value

if TYPE_CHECKING:
    from pbp.services.poll_context import PollContext

log = logging.getLogger(__name__)
_CAMPAIGN_LINE = re.compile(r"^\s*!campaign\s+(\S.*?)\s*$", re.IGNORECASE | re.MULTILINE)


def campaign_named_in(body: str) -> str | None:
    """The NAME of a ``!campaign NAME`` line in a post, if it has one."""
    found = _CAMPAIGN_LINE.search(body)
    return found.group(1) if found else None


@frozen_value
class _Read:
    """What the forum said in this poll: the listing (None if it failed), the surveys, and
    the posts read again (by thread id) with each such thread's next re-read."""

    listing: Listing | None
    surveys: dict[str, ThreadSurvey]
    reread: dict[int, tuple[ForumPost, ...]] = field(default_factory=dict)
    moved: dict[int, OpenRound] = field(default_factory=dict)


class InPlace(Protocol):
    """A held thread's cycle run inside the ingest's unit of work, with the posts the listing
    showed of it in hand (``Bot``); what is to be done once that unit of work commits."""

    def __call__(
        self,
        leases: Leases,
        held: HeldThread,
        posts: Sequence[ForumPost],
        *,
        now: datetime,
        report: PollReport,
    ) -> Callable[[], None]: ...


class InPlaceFailed(Exception):
    """A cycle run in place failed: none of the ingest's unit of work is kept, and the poll
    ingests again the usual way (the thread's cycle then runs, and fails, on its own)."""


class Ingest:
    """One worker's ingest in one poll.

    On a forum kept in the bot's database, a thread this worker holds with nothing to do but
    the posts the listing shows of it has its cycle run ``in_place``, in the ingest's unit of
    work, those posts in hand: they never go through the inbox, and its row and the versions
    known of them come with what the claims decide from (``Leases.seen``). The cursor is
    then kept at the worker's beat, or when anything goes into the inbox: a listing from an
    older cursor shows posts again, which the cycles take as unchanged."""

    def __init__(
        self,
        context: PollContext,
        *,
        now: datetime,
        report: PollReport,
        in_place: InPlace | None = None,
    ) -> None:
        self.context, self.now, self.report = context, now, report
        self.forum = context.forum
        self.kind = context.forum.kind
        together = self.forum.in_bot_database and self.forum.lists_changes
        self.in_place = in_place if together else None
        self._saved: str | None = None  # the cursor this ingest kept, if it kept one
        self._committed: list[Callable[[], None]] = []  # to do once the ingest commits

    def run(self) -> Seen:
        """Read the listing (and the surveys it calls for) and keep what it showed; what the
        claims decide from, read in the same transaction as what was kept. On a forum kept
        in the bot's database all of it is one transaction (the forum's reads are the
        store's)."""
        claims = self.context.claims
        beat = claims.beat_due(self.now)
        together = self.forum.in_bot_database
        report, self.report = self.report, PollReport()  # merged once committed
        try:
            with self.context.store.session(shared=True) if together else nullcontext():
                seen, cursor, unsurveyed = self._run(beat=beat)
        except InPlaceFailed as failed:  # none of it kept: ingest again, the usual way
            log.info("a cycle run in place failed (%s): ingesting again", failed.__cause__)
            self.in_place, self.report = None, PollReport()
            self._saved, self._committed = None, []
            with self.context.store.session(shared=True) if together else nullcontext():
                seen, cursor, unsurveyed = self._run(beat=beat)
        finally:
            report.merge(self.report)
            self.report = report
        # committed: what this process holds of the store's threads and cursor
        if beat:
            claims.beaten(self.now)
        listed = self.context.listed
        listed.cursor, listed.known = cursor, True
        if self._saved is not None:
            listed.saved = self._saved
        self.context.threads.unsurveyed = unsurveyed
        for done in self._committed:
            done()
        return seen

    def _run(self, *, beat: bool) -> tuple[Seen, str | None, bool]:
        """What ``run`` reads and keeps, what the claims decide from, the cursor kept and
        whether a thread still waits for a survey."""
        listed = self.context.listed
        fresh: dict[str, int] = {}
        cursor = listed.cursor
        if beat or not listed.known or self.context.threads.unsurveyed:
            with self.context.store.session() as s:
                if beat:
                    self.context.claims.beat(Leases(s), now=self.now)
                stored, unsurveyed = Inbox(s).listing_start(self.kind, LISTING_SCOPE)
                if not listed.known or stored != listed.saved:  # another worker moved it
                    cursor = listed.saved = stored
                fresh = self._run_here(unsurveyed)
        # surveyed before the listing: a post made in between shows in the listing too, so a
        # thread is never taken for accounted while a post of it went unseen
        surveys = self._survey(fresh)
        listing = self._listing(cursor)
        if listing is not None:
            bound = self._bind(listing.posts)
            if bound:  # threads made in this unit of work: none runs in place (a retry
                self.in_place = None  # would find them gone)
            surveys.update(self._survey(bound))
            fresh.update(bound)
        reread, moved = self._reread(listing.posts if listing is not None else ())
        seen = self._keep(
            _Read(listing=listing, surveys=surveys, reread=reread, moved=moved),
            fresh=fresh,
            cursor=cursor,
            beat=beat,
        )
        kept = listing.cursor if listing is not None else cursor
        return seen, kept, any(key not in surveys for key in fresh)

    def _run_here(self, threads: Iterable[StoredThread]) -> dict[str, int]:
        """The threads this bot runs among ``threads`` (key -> id): those the config lists
        and those a GM bound; a thread taken out of the config is left alone."""
        return {t.key: t.id for t in threads if t.bound or self.context.campaigns.configures(t.key)}

    # -- reading the forum ----------------------------------------------------------------------

    def _listing(self, cursor: str | None) -> Listing | None:
        try:
            return self.forum.listing(cursor=cursor)
        except ForumError as exc:
            self.report.errors.append(f"the forum's listing failed: {exc}")
            log.info("the forum's listing failed: %s", exc)  # the poll's report says it (once)
            return None

    def _survey(self, threads: Mapping[str, int]) -> dict[str, ThreadSurvey]:
        """What the forum says of new threads; one it does not know stays new (asked again
        next poll) and is reported."""
        if not threads:
            return {}
        try:
            surveys = self.forum.survey(list(threads))
        except ForumError as exc:  # the threads stay unsurveyed: asked again next poll
            self.report.errors.append(
                f"the forum could not say what {len(threads)} new thread(s) hold: {exc}"
            )
            log.info(
                "survey of %d threads failed: %s", len(threads), exc
            )  # the poll's report says it (once)
            return {}
        for key in threads:
            if key not in surveys:
                self.report.errors.append(
                    f"thread {key}: the forum has no such thread (is "
                    "its id under [[threads]] right?)"
                )
        return surveys

    def _reread(
        self, listed: Sequence[ForumPost]
    ) -> tuple[dict[int, tuple[ForumPost, ...]], dict[int, OpenRound]]:
        """The open rounds' posts that fall due to be read again, for every thread at once
        (``services.rereads``): the posts read (by thread id) and what each thread read keeps
        (its schedules moved on)."""
        if self.forum.lists_changes:
            return {}, {}
        hinted = {p.thread for p in listed if "!" in p.body}  # a closing line, maybe
        with self.context.store.session() as s:
            rows = Inbox(s).reread_rows(
                self.kind, now=self.now, soon=self.now + RIDE_ALONG, keys=hinted
            )
        rows = [r for r in rows if r.bound or self.context.campaigns.configures(r.key)]
        by_thread = _by_thread(listed)
        candidates = []
        for row in rows:
            open_round = OpenRound.decode(row.open_round)
            if open_round is None:
                continue
            closing = row.key in hinted and self._closes(row, by_thread.get(row.key, ()))
            candidates.append(
                Candidate(thread_id=row.id, key=row.key, round=open_round, closing=closing)
            )
        batch = plan_batch(
            candidates,
            now=self.now,
            first=self.context.options.reread_after,
            per_request=self.forum.reread_batch,
        )
        shown = {p.id for p in listed}  # the listing shows these as they are now
        wanted = {
            key: kept
            for key, ids in batch.wanted.items()
            if (kept := [i for i in ids if i not in shown])
        }
        if not wanted:
            return {}, batch.moved
        try:
            read = self.forum.reread_many(wanted)
        except ForumError as exc:  # read again next poll (a close's cycle reads its own)
            count = sum(len(ids) for ids in wanted.values())
            self.report.errors.append(f"the forum could not read {count} posts again: {exc}")
            log.info(
                "re-reading %d posts failed: %s", count, exc
            )  # the poll's report says it (once)
            return {}, {}
        ids = {row.key: row.id for row in rows}
        return {ids[key]: posts for key, posts in read.items() if key in ids}, batch.moved

    def _closes(self, row: RereadRow, posts: Iterable[ForumPost]) -> bool:
        """Whether one of ``posts`` may close the thread's round (a GM's closing line)."""
        campaign = self.context.campaigns.campaign_at(row.key, Path(row.campaign_path))
        return campaign is not None and any(
            may_close(p.body, author=p.author, campaign=campaign) for p in posts
        )

    # -- keeping it -----------------------------------------------------------------------------

    def _keep(
        self, read: _Read, *, fresh: Mapping[str, int], cursor: str | None, beat: bool
    ) -> Seen:
        """One transaction: the inbox, what the surveys decided, and the cursor; and what the
        claims decide from, as it stands then; and the cycles run in place."""
        listing = read.listing
        listed = _by_thread(listing.posts if listing else ())
        bot = self.context.options.username.casefold()
        with self.context.store.session() as s:
            inbox = Inbox(s)
            watched = self._run_here(self.context.threads.stored(inbox, listed))
            news = {
                key: new
                for key, thread_id in watched.items()
                if (new := [p for p in listed[key] if p.author.casefold() != bot])
            }
            mine = self.context.claims.mine
            held = (
                {k: watched[k] for k in news if watched[k] in mine}
                if self.in_place is not None and not self.context.stopping()
                else {}
            )
            kept = 0
            for key, new in news.items():
                if key not in held:
                    kept += inbox.put(watched[key], new, at=self.now)
            for thread_id, again in read.reread.items():  # after the listing: as new
                kept += inbox.put(
                    thread_id, (p for p in again if p.author.casefold() != bot), at=self.now
                )
            for thread_id, moved in read.moved.items():
                inbox.reread_next(thread_id, open_round=moved.encode(), at=moved.reread_at)
            for key, thread_id in fresh.items():
                survey = read.surveys.get(key)
                if survey is None:
                    continue  # not surveyed (or not on the forum): asked again next poll
                if survey.opening is not None and survey.opening.author.casefold() != bot:
                    kept += inbox.put(thread_id, [survey.opening], at=self.now)
                inbox.found_replies(thread_id, _replies_of(listed.get(key, ()), bot))
            unaccounted = self._unaccounted(inbox, read, fresh=fresh, listed=listed)
            for key, thread_id in fresh.items():
                if key in read.surveys:
                    inbox.surveyed(thread_id, read_whole=key in unaccounted)
            inbox.read_whole(
                thread_id for key, thread_id in unaccounted.items() if key not in fresh
            )
            leases = Leases(s)
            seen = self.context.claims.seen(
                leases,
                now=self.now,
                mine=list(held.values()),
                posts=[p.id for key in held for p in news[key]],
            )
            busy = {w.id for w in seen.work}
            for key, thread_id in held.items():
                here = seen.threads.get(thread_id)
                if here is None or thread_id in busy or self.context.stopping():
                    # not ours, more to do, or a stop asked for: the usual way (next poll's)
                    if here is None:
                        mine.discard(thread_id)
                    kept += inbox.put(thread_id, news[key], at=self.now)
                    continue
                self._run_in_place(leases, here, news[key])
            moved_on = listing is not None and listing.cursor != cursor
            if moved_on and (self.in_place is None or beat or kept or fresh or unaccounted):
                assert listing is not None
                Repository(s).save_cursor(self.kind, LISTING_SCOPE, listing.cursor, at=self.now)
                self._saved = listing.cursor
        if kept:
            log.info("ingest: %d post versions kept for their threads", kept)
        return seen

    def _run_in_place(self, leases: Leases, held: HeldThread, posts: Sequence[ForumPost]) -> None:
        """The thread's cycle in this unit of work (``InPlace``); if it fails, none of the
        unit of work is kept (``InPlaceFailed``), but for the database's own trouble."""
        assert self.in_place is not None
        try:
            done = self.in_place(leases, held, posts, now=self.now, report=self.report)
        except StoreError:
            raise
        except Exception as exc:
            raise InPlaceFailed(f"thread {held.thread.key}") from exc
        self._committed.append(done)

    def _unaccounted(
        self,
        inbox: Inbox,
        read: _Read,
        *,
        fresh: Mapping[str, int],
        listed: Mapping[str, list[ForumPost]],
    ) -> dict[str, int]:
        """The threads holding posts the store cannot account for: fresh ones with more posts
        than the store and the listing know, and after a gap any thread the same is true of."""
        threads = {k: i for k, i in fresh.items() if k in read.surveys}
        if read.listing is not None and not read.listing.complete:
            gap = self._gap_surveys(inbox)
            read.surveys.update(gap)
            threads.update(self._run_here(self.context.threads.stored(inbox, gap)))
        known = inbox.known_posts(threads.values())
        out: dict[str, int] = {}
        for key, thread_id in threads.items():
            live = {p.id for p in listed.get(key, ()) if not p.deleted and p.id != key}
            held = len((known[thread_id] - {key}) | live)
            if read.surveys[key].posts > held:
                out[key] = thread_id
        return out

    def _gap_surveys(self, inbox: Inbox) -> dict[str, ThreadSurvey]:
        """The listing did not reach back to its cursor: ask about every thread run here."""
        keys = list(self._run_here(inbox.all_keys(self.kind)))
        log.warning(
            "the listing did not reach back to the last post seen: asking the forum "
            "what %d threads hold",
            len(keys),
        )
        try:
            return self.forum.survey(keys)
        except ForumError as exc:
            self.report.errors.append(
                f"after a gap in the listing, the forum could not say what the threads hold: {exc}"
            )
            return {}

    # -- binding new threads --------------------------------------------------------------------

    def _bind(self, posts: Sequence[ForumPost]) -> dict[str, int]:
        """SPEC §2.5: ``!campaign NAME`` by that campaign's GM in a thread not run yet binds
        the thread to the campaign; its characters come along from their last thread."""
        threads = list(dict.fromkeys(p.thread for p in posts))
        if self.context.threads.knows(threads):  # every post is of a thread run already
            return {}
        with self.context.store.session() as s:
            watched = {t.key for t in self.context.threads.stored(Inbox(s), threads)}
        unwatched = [p for p in posts if p.thread not in watched and p.reply_key is None]
        bound: dict[str, int] = {}
        for post in [*self._openings(unwatched), *unwatched]:
            name = campaign_named_in(post.body)
            if name is None or post.thread in bound:
                continue
            path = self._campaign_for(post, name)
            if path is not None:
                bound[post.thread] = self._bind_thread(post, path)
        return bound

    def _openings(self, posts: Iterable[ForumPost]) -> list[ForumPost]:
        """The opening posts (a Reddit submission's text) of unwatched threads seen for the
        first time in this process: the GM may have written ``!campaign NAME`` there."""
        looked_at = self.context.looked_at
        new = [t for t in dict.fromkeys(p.thread for p in posts) if t not in looked_at]
        if not new:
            return []
        try:
            surveys = self.forum.survey(new)
        except ForumError as exc:
            log.warning("the opening posts of %d threads could not be read: %s", len(new), exc)
            return []
        looked_at.update(new)
        return [
            s.opening for s in surveys.values() if s.opening is not None and not s.opening.deleted
        ]

    def _campaign_for(self, post: ForumPost, name: str) -> Path | None:
        path = self.context.campaigns.bindable_named(name)
        if path is None:
            files = self.context.campaigns
            known = ", ".join(files.load(p).campaign.name for p in files.bindable)
            self.report.errors.append(
                f"thread {post.thread}: {post.author} asked for campaign "
                f"{name!r}, which this bot does not run (it runs: {known})"
            )
            return None
        campaign = self.context.campaigns.load(path).campaign
        if not campaign.is_gm(post.author):
            self.report.errors.append(
                f"thread {post.thread}: {post.author} is not a GM of "
                f"{campaign.name!r} and cannot bind a thread to it"
            )
            return None
        return path

    def _bind_thread(self, post: ForumPost, path: Path) -> int:
        loaded = self.context.campaigns.load(path)
        with self.context.store.session() as s:
            repo = Repository(s)
            row = self.context.campaigns.register(repo, path, now=self.now)
            thread = repo.add_thread(
                forum=self.kind,
                key=post.thread,
                campaign_id=row.id,
                campaign_hash=loaded.file_hash,
                at=self.now,
                bound_by=post.author,
            )
            # the campaign's latest state: the thread where the table posted last (with two
            # threads running at once, one story's state is taken whole, never a mix of both)
            previous = repo.latest_thread_of(row.id, besides=thread.id)
            if thread.last_seq or thread.snapshot is not None:
                previous = None  # another worker bound it a moment ago: it has its start
            if previous is not None:  # the characters come along, as they stand there
                try:
                    old = self.context.states.state(repo, previous, loaded.campaign)
                except ConfigError:
                    old = None
                if old is not None:
                    save_start(
                        repo,
                        thread,
                        carry_over(
                            old,
                            campaign=loaded.campaign,
                            bot=self.context.options.username,
                            ack=self.context.options.ack,
                            came_from=previous.key,
                        ),
                    )
                # a campaign runs in one thread at a time (SPEC §1): the old one is told
                repo.move_campaign(previous.id, to=post.thread, at=self.now)
            thread_id = thread.id
        log.info(
            "thread %s bound to campaign %s by %s", post.thread, loaded.campaign.name, post.author
        )
        return thread_id


def _by_thread(posts: Iterable[ForumPost]) -> dict[str, list[ForumPost]]:
    out: dict[str, list[ForumPost]] = {}
    for post in posts:
        out.setdefault(post.thread, []).append(post)
    return out


def _replies_of(posts: Iterable[ForumPost], bot: str) -> dict[str, str]:
    """The bot's replies among ``posts``: key on the forum -> post id."""
    return {
        p.reply_key: p.id
        for p in posts
        if p.reply_key is not None and p.author.casefold() == bot and not p.deleted
    }
