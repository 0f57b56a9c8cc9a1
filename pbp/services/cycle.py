"""One thread's share of a poll, inside its unit of work: plan the new post versions, step the
engine, render and queue the replies, let time pass, project and snapshot."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING

from pbp.campaign.model import Campaign
from pbp.engine import turns
from pbp.engine.commands import may_close
from pbp.engine.effects import (
    CheatSheetContent,
    EditReply,
    Effect,
    PrivateReply,
    Reply,
    SummaryContent,
    UndoneContent,
)
from pbp.engine.events import CampaignMoved, SheetPosted, Tick
from pbp.engine.reload import reload_campaign
from pbp.engine.step import LATE_DEADLINE, step
from pbp.errors import ConfigError
from pbp.forums.base import ForumPost
from pbp.render.replies import split_reply
from pbp.rules.dice.seeded import SeededDice
from pbp.rules.dice.source import Dice
from pbp.services.history import SNAPSHOT_EVERY, save_snapshot
from pbp.services.plan import Planned, body_hash, plan
from pbp.services.polling import PollReport, WatchedThread
from pbp.services.projection import next_due, save_projections, scene_values
from pbp.services.rereads import OpenRound, may_go_stale, schedules
from pbp.store.records import KnownPost, ThreadChanges, ThreadRecord
from pbp.store.repository import Repository

if TYPE_CHECKING:
    from datetime import datetime

    from pbp.engine.state import EngineState
    from pbp.services.poll_context import PollContext

log = logging.getLogger(__name__)


class ThreadCycle:
    """One thread's share of a poll, inside its unit of work."""

    def __init__(
        self,
        context: PollContext,
        *,
        repo: Repository,
        thread: ThreadRecord,
        watched: WatchedThread,
        now: datetime,
        silent: bool,
    ) -> None:
        self.context, self.repo, self.thread, self.now = context, repo, thread, now
        self.thread_id = thread.id
        self.changes = ThreadChanges.of(thread)  # what this cycle makes of the thread's row
        self.key = watched.key
        self.silent = silent  # back-filling a new thread: closed rounds post nothing
        self.held: list[tuple[Effect, str]] = []
        self.closed_any = False
        self.closed: list[SummaryContent] = []  # rounds closed in this poll (the projections)
        self.summaries: dict[int, str] = {}  # the summary text of each round closed here
        self.barrier = False  # an event the log cannot replay alone: snapshot now
        # the seeds this process knows the store holds (a seed never changes once stored);
        # others are read from the store as needed
        self.seeds: dict[int, str] = dict(context.states.stored_seeds(thread.id))
        # the character rows as the cycle that committed the state this cycle starts from
        # left them, if this process ran it (and it knew them)
        self.characters = context.states.stored_characters(thread)
        campaign, reloaded = self._campaign(watched)
        self.state = context.states.state(repo, thread, campaign, self.closed)  # rows written again
        if reloaded:
            self.state = reload_campaign(self.state, campaign)
            self.barrier = True
        self.replies = context.renderers.for_campaign(self.state.campaign, self.seed_for)
        self.last_seq = thread.last_seq
        self.stopped = False  # a stop was asked for before every post was handled

    def _campaign(self, watched: WatchedThread) -> tuple[Campaign, bool]:
        try:
            loaded = self.context.campaigns.load(watched.campaign)
        except ConfigError as exc:
            older = self.context.campaigns.last_good(watched.campaign)
            if older is None:
                raise  # the thread waits until `pbp check` passes on its campaign file
            log.error("thread %s: campaign not reloaded, the old one stays: %s", self.key, exc)
            return older, False
        if loaded.file_hash == self.changes.campaign_hash:
            return loaded.campaign, False
        log.info("thread %s: the campaign file changed; reloading it", self.key)
        self.changes.campaign_hash = loaded.file_hash
        return loaded.campaign, True

    # -- seeds and dice -----------------------------------------------------------------------

    def seed_for(self, number: int) -> str:
        """A round's seed: stored, or chosen now and stored before anything shows its seal."""
        seed = self.seeds.get(number)
        if seed is None:
            new = self.context.seed_maker(self.key, number)
            seed = self.repo.round_seed(self.thread_id, number, new=new)
        self.seeds[number] = seed
        return seed

    def dice(self, number: int) -> Dice:
        """The dice of a round (SPEC §6)."""
        return SeededDice(self.seed_for(number))

    # -- handling -----------------------------------------------------------------------------

    def run(
        self,
        posts: list[ForumPost],
        report: PollReport,
        *,
        shown_at: Mapping[str, datetime] | None = None,
        known: Mapping[str, KnownPost] | None = None,
    ) -> int:
        """Handle the new versions among ``posts``, then let time pass to ``now``; how many
        were handled (fewer, and ``stopped``, when a stop was asked for meanwhile).
        ``shown_at``: when the forum showed each post (post id -> the latest time; a post
        not in it: now); ``known``: the newest version the store holds of each of
        ``posts`` (read here if not given)."""
        moved_to = self.thread.moved_to
        if moved_to is not None and self.state.moved_to is None:  # told once, then read no more
            self._event(CampaignMoved(at=self.now, to=moved_to), kind="moved", post_id=moved_to)
        again = self._rereads(posts, shown_at or {})
        if known is None or again:
            known = self.repo.known_posts(self.thread_id, (p.id for p in [*posts, *again]))
        posts = posts + again
        planned = plan(posts, known=known, bot=self.context.options.username, now=self.now)
        handled = 0
        for item in planned:
            if self.context.stopping():  # stop after the post in hand; the rest comes next start
                self.stopped = True
                break
            if self._missed_before(item):
                self._tick()  # the missed deadline's close, seen now, before the posts after it
            self._handle(item, report)
            handled += 1
        else:
            self._tick()
        self._flush_held()
        # a snapshot every SNAPSHOT_EVERY events, however long the thread: a new process's
        # first poll (a cron poll, a restart, a lease passing) replays at most that many
        changes = self.changes
        if self.barrier or changes.last_seq - changes.snapshot_seq >= SNAPSHOT_EVERY:
            save_snapshot(changes, self.state)
        self.characters = save_projections(
            self.repo,
            self.thread_id,
            self.state,
            self.replies,
            closed=self.closed,
            summaries=self.summaries,
            characters_stored=self.characters,
        )
        changes.scene_kind, changes.scene_round, changes.scene_deadline = scene_values(self.state)
        changes.next_due_at = next_due(self.state, now=self.now)
        self._keep_open_round()
        self.last_seq = changes.last_seq
        return handled

    def _rereads(self, posts: list[ForumPost], shown_at: Mapping[str, datetime]) -> list[ForumPost]:
        """SPEC §4.3/§8: before a close, the open round's posts are read again (a forum whose
        listing shows no edits). The ingest reads them with the closing post (or when the
        deadline falls due), for every thread at once: only the posts it did not show since
        the round began to close are read here (a close it could not foresee)."""
        rnd = self.state.round
        if rnd is None or self.context.forum.lists_changes:
            return []
        campaign = self.state.campaign
        closing = [p for p in posts if may_close(p.body, author=p.author, campaign=campaign)]
        if closing:
            since = max(shown_at.get(p.id, self.now) for p in closing)
        elif rnd.deadline is not None and self.now >= rnd.deadline:
            since = rnd.deadline
        else:
            return []
        fresh = {p.id for p in posts if shown_at.get(p.id, self.now) >= since}
        ids = [p.post_id for p in rnd.posts if not p.deleted and p.post_id not in fresh]
        if not ids:
            return []
        return list(self.context.forum.reread(self.key, ids))

    def _keep_open_round(self) -> None:
        """What the ingest's re-reads need of the open round, in the thread's row: its live
        posts, those whose reply an edit could make untrue (each with its schedule),
        its deadline if it holds an action; and when the next re-read falls due
        (``services.rereads``)."""
        rnd = self.state.round
        changes = self.changes
        if rnd is None or self.context.forum.lists_changes:
            changes.open_round = None
            changes.reread_at = None
            return
        live = [p for p in rnd.posts if not p.deleted]
        watched = schedules(
            ((p.post_id, p.at) for p in live if may_go_stale(p)),
            before=OpenRound.decode(changes.open_round),
            now=self.now,
            first=self.context.options.reread_after,
        )
        kept = OpenRound(
            posts=tuple(p.post_id for p in live),
            watched=watched,
            closes_at=rnd.deadline if rnd.has_actions else None,
        )
        changes.open_round = kept.encode()
        changes.reread_at = kept.reread_at

    def _handle(self, item: Planned, report: PollReport) -> None:
        repo, tid = self.repo, self.thread_id
        hashed = body_hash(item.body)
        if item.event is None:  # deleted before it was ever read
            repo.add_version(
                thread_id=tid,
                post_id=item.post_id,
                version=item.version,
                author=item.author,
                body=None,
                body_hash=hashed,
                written_at=item.at,
                seen_at=self.now,
                deleted=True,
                outcome="skipped",
                detail="deleted unread",
            )
            return
        try:
            state, effects = step(self.state, item.event, dice=self.dice, now=item.at)
            rendered = [(e, self._render(e, state)) for e in effects]
        except Exception as exc:  # one bad post never stops the bot (ARCHITECTURE 6)
            log.exception("thread %s: post %s failed", self.key, item.post_id)
            report.failed.append(f"{self.key}/{item.post_id}: {type(exc).__name__}: {exc}")
            repo.add_version(
                thread_id=tid,
                post_id=item.post_id,
                version=item.version,
                author=item.author,
                body=item.body,
                body_hash=hashed,
                written_at=item.at,
                seen_at=self.now,
                deleted=item.deleted,
                outcome="failed",
                detail=f"{type(exc).__name__}: {exc}",
            )
            return
        self.changes.last_seq += 1  # the version's event, in its row
        repo.add_version(
            thread_id=tid,
            post_id=item.post_id,
            version=item.version,
            author=item.author,
            body=None if item.deleted else item.body,
            body_hash=hashed,
            written_at=item.at,
            seen_at=self.now,
            deleted=item.deleted,
            seq=self.changes.last_seq,
            event=item.kind,
        )
        if item.deleted:
            repo.purge(tid, item.post_id)  # SPEC §4.3: text purged, hash kept
            self.barrier = True
        self.state = state
        for effect, text in rendered:
            self._effect(effect, text)

    def _missed_before(self, item: Planned) -> bool:
        """Whether ``item`` was written after a deadline the bot missed (it was down): the
        round closes at the deadline with the posts before it, and the next one opens now,
        when its summary is posted, so its deadline counts from now (RULES §7); the posts
        written after the deadline belong to that next round."""
        rnd = self.state.round
        if item.event is None or rnd is None or rnd.deadline is None or not rnd.has_actions:
            return False
        closes = turns.closes_at(self.state, rnd) or rnd.deadline  # a grace waits longer
        return item.event.at >= closes and self.now - closes > LATE_DEADLINE

    def _tick(self) -> None:
        self._event(Tick(at=self.now), kind="tick", post_id=None)

    def _event(
        self,
        event: Tick | CampaignMoved | SheetPosted,
        *,
        kind: str,
        post_id: str | None,
        version: int | None = None,
    ) -> None:
        """An event of the bot's own (time passing, the campaign moved), logged if it did
        anything."""
        state, effects = step(self.state, event, dice=self.dice, now=self.now)
        if state is self.state and not effects:
            return
        rendered = [(e, self._render(e, state)) for e in effects]
        self._log(kind=kind, post_id=post_id, version=version, at=self.now)
        self.state = state
        for effect, text in rendered:
            self._effect(effect, text)

    def _log(self, *, kind: str, post_id: str | None, version: int | None, at: datetime) -> None:
        """The thread's next event, in its log."""
        self.changes.last_seq += 1
        self.repo.log_event(
            self.thread_id,
            seq=self.changes.last_seq,
            kind=kind,
            post_id=post_id,
            version=version,
            at=at,
        )

    def _render(self, effect: Effect, state: EngineState) -> str:
        replaced = isinstance(effect, PrivateReply) and effect.replaces
        if replaced and not self.context.forum.edits_private:  # a short note: the copy changed
            assert isinstance(effect, PrivateReply)
            subject, text = self.replies.private_changed(effect, state=state, thread=self.key)
            return f"{subject[: self.context.forum.limits.subject_chars]}\n{text}"
        if isinstance(effect, PrivateReply):  # the subject on the first line, then the text
            subject, text = self.replies.private(effect, state=state, thread=self.key)
            return f"{subject[: self.context.forum.limits.subject_chars]}\n{text}"
        return self.replies.render(effect.content, state=state)

    def _effect(self, effect: Effect, text: str) -> None:
        if isinstance(effect, PrivateReply):
            if self.silent and isinstance(effect.content, SummaryContent):
                return  # a round closed before the thread was watched: nothing to tell
            if self.silent:
                self.held.append((effect, text))
            else:
                self._queue(effect, text)
            return
        content = effect.content
        if isinstance(content, SummaryContent | UndoneContent):
            report = content.report
            self.seed_for(report.number)
            self.repo.close_round(
                thread_id=self.thread_id,
                number=report.number,
                closed_by=report.closed_by,
                closed_at=report.closed_at,
                summary=text,
            )
            self.summaries[report.number] = text
            self.closed_any = True
            if isinstance(content, SummaryContent):
                self.closed.append(content)
            if self.silent and isinstance(content, SummaryContent):
                self.held.clear()  # a round closed before the thread was watched: no replies
                return
        if self.silent:
            self.held.append((effect, text))
        else:
            self._queue(effect, text)

    def _flush_held(self) -> None:
        if not self.silent:
            return
        rnd = self.state.round
        if self.closed_any and rnd is not None:
            # the open round's seal must be published before anything rolls in it: one cheat
            # sheet, for that round (not a held one of a round that closed unseen)
            self.held[:] = [(e, t) for e, t in self.held if not _is_sheet(e)]
            self._event(
                SheetPosted(at=self.now, round_number=rnd.number),
                kind="sheet",
                post_id=None,
                version=rnd.number,
            )  # the sheet's later edits keep this round
            content = CheatSheetContent(round_number=rnd.number, board=turns.board(self.state))
            sheet = Reply(key="cheatsheet", to=None, content=content)
            self.held.insert(0, (sheet, self.replies.render(sheet.content, state=self.state)))
        for effect, text in self.held:
            self._queue(effect, text)
        self.held.clear()
        self.silent = False

    def _queue(self, effect: Effect, text: str) -> None:
        subject = ""
        if isinstance(effect, PrivateReply):
            subject, text = text.split("\n", 1)
        parts = split_reply(text, limit=self.context.forum.limits.reply_chars)
        for i, part in enumerate(parts):
            key = effect.key if i == 0 else f"{effect.key}/part{i + 1}"
            match effect:
                case Reply():
                    self.repo.owe_reply(
                        thread_id=self.thread_id,
                        key=key,
                        to=effect.to if i == 0 else None,
                        text=part,
                        at=self.now,
                    )
                case EditReply():
                    self.repo.owe_edit(thread_id=self.thread_id, key=key, text=part, at=self.now)
                case PrivateReply() if effect.replaces and self.context.forum.edits_private:
                    self.repo.queue_private_edit(
                        thread_id=self.thread_id,
                        key=key,
                        to=effect.to,
                        subject=subject,
                        text=part,
                        at=self.now,
                    )
                case PrivateReply():
                    self.repo.queue_private(
                        thread_id=self.thread_id,
                        key=key,
                        to=effect.to,
                        subject=subject,
                        text=part,
                        at=self.now,
                    )


def _is_sheet(effect: Effect) -> bool:
    return isinstance(effect, Reply | EditReply) and isinstance(effect.content, CheatSheetContent)
