"""One poll of the forum, in three steps through the store (SPEC §4, §9):

1. **Ingest** (``services/ingest.py``): one listing per poll; every new post version of a thread
   the bot runs goes into the inbox with the cursor that moved past it. Any worker may do it.
2. **Process**: this worker takes the leases of threads with work (inbox versions, replies to
   deliver, a whole read, a deadline, reminder or re-read due), up to its fair share of the
   threads among the live workers, and runs each one's cycle (``services/cycle.py``) in one
   unit of work: the versions taken from the inbox (each with how it was handled), the events,
   the replies owed (the outbox), the seeds and the snapshot commit together.
3. **Deliver** (``services/outbox.py``): the replies owed in the threads it holds.

So a crash at any point loses nothing and repeats nothing, whichever worker read the listing;
``Bot.poll_once(now)`` is all that ``pbp poll --once``, ``pbp run``, ``pbp replay`` and
``pbp demo`` call.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from pathlib import Path

from pbp.errors import ConfigError, ForumError
from pbp.forums.base import Forum, ForumPost
from pbp.rules.dice.seal import new_seed
from pbp.services.campaign_files import CampaignFiles
from pbp.services.cycle import ThreadCycle
from pbp.services.ingest import Ingest, campaign_named_in
from pbp.services.outbox import Delivery, Owed, deliver, owed_replies, post_first
from pbp.services.poll_context import PollContext, Renderers
from pbp.services.polling import BotOptions, PollReport, WatchedThread
from pbp.services.state_cache import NewThreadState, StateCache
from pbp.services.thread_directory import ThreadDirectory
from pbp.services.work_claims import WorkClaims
from pbp.store.database import Store, StoreError
from pbp.store.inbox import Inbox
from pbp.store.leases import HeldThread, Leases, ThreadWork
from pbp.store.records import KnownPost, ThreadRecord
from pbp.store.repository import Repository

log = logging.getLogger(__name__)


class LeaseLost(Exception):
    """Another worker took a thread's lease while its cycle ran in place."""


__all__ = ["Bot", "BotOptions", "PollReport", "WatchedThread", "campaign_named_in"]


class Bot:
    """The bot: a store, a forum and the threads it runs. Its parts, each with one job, are
    ``campaigns`` (the campaign files), ``states`` (the engine states this process
    committed), ``threads`` (the store's threads as seen), ``claims`` (the leases) and
    ``renderers``; ``poll_once`` runs the poll's three steps over them."""

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
        self._stopping = False
        files = CampaignFiles(
            {t.key: t.campaign for t in threads}, (*(t.campaign for t in threads), *campaigns)
        )
        self.context = PollContext(
            store=store,
            forum=forum,
            options=options,
            campaigns=files,
            states=StateCache(
                NewThreadState(
                    bot=options.username,
                    ack=options.ack,
                    mentions_per_post=forum.limits.mentions_per_post,
                )
            ),
            threads=ThreadDirectory(store, forum=forum.kind, campaigns=files),
            claims=WorkClaims(store, forum=forum.kind, options=options, campaigns=files),
            renderers=Renderers(reload=options.reload_templates),
            seed_maker=seed_maker or (lambda _thread, _number: new_seed()),
            stopping=lambda: self._stopping,
        )
        self._owed: dict[int, list[Owed]] = {}  # thread id -> what its cycle left to deliver
        self._delivered: set[int] = set()  # threads whose replies went out with their cycle

    @property
    def store(self) -> Store:
        """The bot's database."""
        return self.context.store

    @property
    def forum(self) -> Forum:
        """The forum the bot reads."""
        return self.context.forum

    @property
    def options(self) -> BotOptions:
        """The bot's settings."""
        return self.context.options

    @property
    def campaigns(self) -> CampaignFiles:
        """The campaign files the bot runs."""
        return self.context.campaigns

    @property
    def states(self) -> StateCache:
        """The engine states this process committed."""
        return self.context.states

    @property
    def renderers(self) -> Renderers:
        """The renderers of the campaigns' replies."""
        return self.context.renderers

    @property
    def stopping(self) -> bool:
        """Whether a stop was asked for (the poll ends after the post in hand)."""
        return self._stopping

    def request_stop(self) -> None:
        """Finish the post in hand, commit, and poll no further."""
        self._stopping = True

    def next_due(self) -> datetime | None:
        """The earliest moment time alone changes one of the forum's threads."""
        with self.store.session() as s:
            return Repository(s).next_due(self.forum.kind)

    def release_leases(self) -> None:
        """Give up this worker's threads and leave the workers' list (on a clean stop)."""
        self.context.claims.release()

    # -- the poll -----------------------------------------------------------------------------

    def poll_once(self, now: datetime) -> PollReport:
        """Ingest the listing, process the threads with work this worker holds, deliver."""
        report = PollReport()
        self._owed.clear()  # only what this poll's cycles read is delivered without a read
        self._delivered.clear()
        self.store.check_present()
        self.context.threads.register(now, report)
        seen = Ingest(self.context, now=now, report=report, in_place=self._in_place).run()
        share, held, work = self.context.claims.claim(now, report, seen)
        for item in work:
            if self._stopping:
                break
            self._process(item, now, report)
        for item in work:  # every thread with replies owed has work, so it is among these
            if self._stopping:
                break
            self._deliver(item, now, report)
        if held > share:
            self.context.claims.shed(share, keep={w.id for w in work})
        log.info(
            "poll at %s: %d post versions read, %d replies sent, %d errors",
            now.isoformat(timespec="seconds"),
            report.events,
            sum(len(d) for d in report.delivered.values()),
            len(report.errors),
        )
        return report

    def _process(self, work: ThreadWork, now: datetime, report: PollReport) -> None:
        """One thread's cycle in one unit of work; a failure leaves its inbox for next poll.
        On a forum kept in the bot's database, the replies go out in the same unit of work
        (they and what the delivery records commit with the cycle, or none of it does)."""
        watched = self._watched(work.key, work.campaign_path)
        together = self.forum.in_bot_database
        sending = False  # what breaks in a delivery stops the poll, as after the cycles
        try:
            with self.store.session(shared=together) as s:
                leases = Leases(s)
                thread = leases.hold(work.id, owner=self.options.owner)
                if thread is None:  # another worker took it meanwhile
                    report.skipped.append(f"{work.key} (taken over)")
                    return
                repo, inbox = Repository(s), Inbox(s)
                cycle = self._cycle(repo, inbox, thread, watched, now, report)
                leases.keep(thread.id, cycle.changes)
                # what to deliver, read in the same unit of work (it holds the lease)
                # (sent in it too, on a forum in the bot's database: the attempts are counted
                # with the sent marks, all of it committed together or not at all)
                owed = owed_replies(repo, work.id, now=now, count=not together)
                sending = together
                delivery = (
                    self._send(work.id, work.key, now, owed, counted=False) if together else None
                )
            if delivery is not None:  # committed: posted, and recorded as posted
                self._delivered.add(work.id)
                self._report(work.key, delivery, report)
            else:
                self._owed[work.id] = owed  # committed: the attempts are counted
            self._committed(cycle)
        except StoreError:
            raise  # the database's trouble, not the thread's: the next threads would fail too
        except (ConfigError, ForumError) as exc:
            if sending:
                raise
            report.errors.append(f"thread {work.key}: {exc}")
            log.info("thread %s: %s", work.key, exc)  # the poll's report says it (once)
        except Exception as exc:  # one broken thread never stops the others
            if sending:
                raise  # none of the cycle is kept: it runs again, and posts, next poll
            report.errors.append(f"thread {work.key}: {type(exc).__name__}: {exc}")
            log.exception("thread %s failed", work.key)

    def _in_place(
        self,
        leases: Leases,
        held: HeldThread,
        posts: Sequence[ForumPost],
        *,
        now: datetime,
        report: PollReport,
    ) -> Callable[[], None]:
        """A thread this worker holds, with nothing to do but the posts the listing showed of
        it: its cycle and its replies in the ingest's unit of work (``ingest.InPlace``), from
        its row and the versions known of those posts as the claims' query read them; an
        error raises, and none of the unit of work is kept (the usual way runs instead)."""
        thread = held.thread
        watched = self._watched(thread.key, held.campaign_path)
        repo = Repository(leases.s)
        if not held.found_replies:  # it owes nothing: its replies may be posted first
            repo.post_first()
        cycle = self._cycle(
            repo, Inbox(leases.s), thread, watched, now, report, in_hand=(posts, held.known)
        )
        if not leases.keep(thread.id, cycle.changes, owner=self.options.owner):
            raise LeaseLost(f"thread {thread.key} was taken over during its cycle")
        first = repo.held_replies()
        if first is not None:  # posted, then their rows written as posted
            self.store.check_present()
            delivery = post_first(self.forum, repo, first, thread=thread.key, now=now)
        else:
            owed = owed_replies(
                repo, thread.id, now=now, count=False, owed_before=held.found_replies
            )
            delivery = self._send(thread.id, thread.key, now, owed, counted=False)
        self._report(thread.key, delivery, report)  # (the poll's report takes it if committed)
        return lambda: self._committed(cycle)

    def _watched(self, key: str, campaign_path: str) -> WatchedThread:
        return WatchedThread(
            key=key, campaign=self.campaigns.configured.get(key, Path(campaign_path))
        )

    def _committed(self, cycle: ThreadCycle) -> None:
        """The cycle's unit of work committed: the store holds its state and seeds."""
        self.states.committed(
            cycle.thread_id,
            seq=cycle.last_seq,
            state=cycle.state,
            seeds=cycle.seeds,
            characters=cycle.characters,
        )

    def _cycle(
        self,
        repo: Repository,
        inbox: Inbox,
        thread: ThreadRecord,
        watched: WatchedThread,
        now: datetime,
        report: PollReport,
        *,
        in_hand: tuple[Sequence[ForumPost], Mapping[str, KnownPost]] | None = None,
    ) -> ThreadCycle:
        """The thread's cycle on the versions its inbox holds, or (``in_hand``) on the posts
        given, with the versions known of them (a thread with nothing in its inbox)."""
        known: Mapping[str, KnownPost] | None = None
        if in_hand is None:
            pending = inbox.take_pending(thread.id, thread.key)  # gone with the unit of work only
            posts = [p.post for p in pending]  # in the order listed: a later copy is newer
            shown_at = {p.post.id: p.ingested_at for p in pending}
        else:
            posts, known = list(in_hand[0]), in_hand[1]
            shown_at = {p.id: now for p in posts}
        if thread.needs_read:  # the store cannot account for every post: read it whole
            whole = self.forum.backfill(thread.key)
            bot = self.options.username.casefold()
            inbox.found_replies(
                thread.id,
                {
                    p.reply_key: p.id
                    for p in whole
                    if p.reply_key is not None and p.author.casefold() == bot and not p.deleted
                },
            )
            posts = [*posts, *whole]  # the read is newer than what waited
            shown_at.update((p.id, now) for p in whole)
            known = None  # (of more posts than those in hand)
        # a thread read from its start resolves closed rounds silently (SPEC §4)
        cycle = ThreadCycle(
            self.context,
            repo=repo,
            thread=thread,
            watched=watched,
            now=now,
            silent=thread.last_seq == 0,
        )
        with repo.deferred():  # the log's rows in one INSERT per table
            report.events += cycle.run(posts, report, shown_at=shown_at, known=known)
        cycle.changes.needs_read = False
        if cycle.stopped:  # what it did not get to waits in the inbox for the next start (what
            bot = self.options.username.casefold()  # it did shows as unchanged then)
            inbox.put(thread.id, [p for p in posts if p.author.casefold() != bot], at=now)
        return cycle

    def _deliver(self, work: ThreadWork, now: datetime, report: PollReport) -> None:
        if work.id in self._delivered:  # sent with its cycle already
            return
        self._report(
            work.key, self._send(work.id, work.key, now, self._owed.pop(work.id, None)), report
        )

    def _send(
        self,
        thread_id: int,
        key: str,
        now: datetime,
        owed: list[Owed] | None,
        *,
        counted: bool = True,
    ) -> Delivery:
        self.store.check_present()  # nothing goes out from a file damaged since it was read
        return deliver(
            self.store,
            self.forum,
            thread_id=thread_id,
            thread=key,
            now=now,
            owner=self.options.owner,
            owed=owed,
            counted=counted,
        )

    @staticmethod
    def _report(key: str, delivery: Delivery, report: PollReport) -> None:
        if delivery.sent:
            report.delivered.setdefault(key, []).extend(delivery.sent)
        report.errors += [f"thread {key}: {line}" for line in delivery.refused]
        if delivery.waiting:
            report.waiting.append(f"thread {key}: {delivery.waiting}")
