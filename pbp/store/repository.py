"""The repository: what the services read and write, in plain values, inside one session."""

from __future__ import annotations

import typing
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from datetime import datetime
from functools import cache
from typing import Any

from sqlalchemy import (
    String,
    Table,
    and_,
    bindparam,
    case,
    cast,
    delete,
    func,
    insert,
    select,
    union_all,
    update,
)
from sqlalchemy.orm import Session
from sqlalchemy.orm.util import identity_key

from pbp.store import keyed_replies
from pbp.store.execute import run
from pbp.store.records import (
    CampaignRecord,
    KnownPost,
    ReplyRecord,
    ThreadRecord,
    record_of,
)
from pbp.store.schema import (
    CampaignRow,
    CharacterRow,
    EventRow,
    FoundReplyRow,
    PollCursorRow,
    PostVersionRow,
    ReplyRow,
    RoundRow,
    ThreadRow,
)
from pbp.store.upsert import dialect_insert, insert_new, upsert
from pbp.values import frozen_value

UNPOSTED = ("pending", "edit-pending", "failed")  # every status of a reply but "posted"
LEDGER_PAGE = 100  # closed rounds' ledger entries read at a time (``round_ledgers``)


@frozen_value
class LoggedEvent:
    """One event of a thread's log, with the post text it carried (None when purged)."""

    seq: int
    kind: str
    post_id: str | None
    version: int | None  # a post's version; a "sheet" event's round
    author: str | None
    body: str | None
    at: datetime


@frozen_value
class CharacterState:
    """A character row of the projection."""

    name: str
    side: str
    group: str
    status: str
    data: str


@frozen_value
class Sent:
    """A reply the forum took: its id there, and the text it was sent with."""

    reply_id: int
    forum_id: str
    text: str


@frozen_value
class Owing:
    """A reply (or an edit of one) owed inside ``Repository.deferred()``."""

    thread_id: int
    key: str
    to: str | None
    text: str
    at: datetime
    edit: bool


class Repository:
    """Every query the services make, on one session (one unit of work)."""

    def __init__(self, session: Session) -> None:
        self.s = session
        self._deferred: dict[Any, list[dict[str, Any]]] | None = None
        self._owed: list[Owing] = []  # replies and edits owed inside ``deferred()``
        # the replies this unit of work made owed, while it knows them all (None: it does not)
        self._new_replies: list[ReplyRecord] | None = []
        self._posting_first = False  # the next ``deferred()`` block holds its replies back
        # how rounds closed inside ``deferred()``, written with their ledger entries
        self._closes: dict[tuple[int, int], dict[str, Any]] = {}
        self._held: list[Owing] | None = None  # the replies it held, to post first

    @contextmanager
    def deferred(self) -> Iterator[None]:
        """Inside the block, the post versions seen (each with how it was handled) and the
        events logged wait, and go in one INSERT per table when it ends (or when a read of those
        tables needs them first); a block that raises writes none of them."""
        if self._deferred is not None:
            yield
            return
        self._deferred = {PostVersionRow: [], EventRow: []}
        try:
            yield
            if self._posting_first and self._holds(self._owed):
                self._held, self._owed = self._owed, []
            self._write_deferred()
        finally:
            self._deferred = None
            self._owed = []
            self._closes = {}
            self._posting_first = False

    def post_first(self) -> None:
        """The replies the next ``deferred()`` block owes are not written when it ends, if
        they are all this unit of work owes and ``keyed_replies.applies`` to them: they wait
        for ``held_replies``, to be posted first and written as posted (a forum in the bot's
        database, whose posts commit with this unit of work)."""
        self._posting_first = True

    def _holds(self, owed: Sequence[Owing]) -> bool:
        return bool(owed) and self._new_replies == [] and keyed_replies.applies(self.s, owed)

    def held_replies(self) -> list[Owing] | None:
        """The replies the ``deferred()`` block held back (``post_first``), in the order they
        were owed, none of them written yet; None when it held none back."""
        held, self._held = self._held, None
        return held

    def edit_posted(self, edit: Owing, *, at: datetime) -> ReplyRecord | None:
        """The row of an edit held back (``held_replies``), its new text written, and a posted
        one left posted and tried once more at ``at`` (``keyed_replies.edit_posted``): before
        the forum is asked to edit it, which this unit of work then records with it. None:
        its key has no row."""
        row = keyed_replies.edit_posted(self.s, edit, at=at)
        return None if row is None else record_of(ReplyRecord, row)

    def insert_posted(self, new: Sequence[tuple[Owing, str]], *, at: datetime) -> list[ReplyRecord]:
        """The rows of new replies held back (``held_replies``), each with its id on the forum,
        written as posted and tried once at ``at`` (``keyed_replies.insert_posted``), as the
        delivery's sent marks would leave them; each row as written."""
        return [record_of(ReplyRecord, r) for r in keyed_replies.insert_posted(self.s, new, at=at)]

    def _write_deferred(self) -> None:
        if self._deferred is None:
            return
        for model, rows in self._deferred.items():
            if rows:
                run(self.s, _insert(model.__table__), list(rows), flush=False)
                rows.clear()
        self._write_owed()
        closes, self._closes = self._closes, {}
        for (thread_id, number), values in closes.items():
            self._update_round(thread_id, number, **values)

    def _write_owed(self) -> None:
        """The replies and edits owed, as ``queue_reply`` and ``queue_edit`` would write them
        one by one: one read of the keys' stored revisions, one INSERT of the new ones, one
        UPDATE of the stored ones edited."""
        owed, self._owed = self._owed, []
        if not owed:
            return
        if keyed_replies.applies(self.s, owed):  # the same, with no read first
            written = keyed_replies.write(self.s, owed)
            if self._new_replies is not None:
                self._new_replies += [record_of(ReplyRecord, r) for r in written]
            return
        self._new_replies = None
        # the newest revision of each key: a row stored (read as values), or one owed here
        latest: dict[tuple[int, str], dict[str, Any]] = {}
        for thread_id in dict.fromkeys(o.thread_id for o in owed):
            keys = list(dict.fromkeys(o.key for o in owed if o.thread_id == thread_id))
            for i in range(0, len(keys), 500):  # under every database's parameter limit
                for stored in run(
                    self.s, _replies_keyed(), {"thread_id": thread_id, "keys": keys[i : i + 500]}
                ):
                    latest[(thread_id, stored.key)] = stored._asdict()
        new: list[dict[str, Any]] = []
        edited: dict[int, dict[str, Any]] = {}  # stored rows by id
        for o in owed:
            old = latest.get((o.thread_id, o.key))
            if o.edit and old is not None:
                old["text"], old["edits"] = o.text, old["edits"] + 1
                if old["status"] == "posted":
                    old["status"] = "edit-pending"
                if "id" in old:
                    edited[old["id"]] = old
                continue
            revision = 1 if old is None else old["revision"] + 1
            row = {**keyed_replies.new_row(o), "revision": revision}
            latest[(o.thread_id, o.key)] = row
            new.append(row)
        self._edit_stored(list(edited.values()))
        if new:  # into the table: no objects to make
            run(self.s, _insert(ReplyRow.__table__), new)

    def _edit_stored(self, rows: list[dict[str, Any]]) -> None:
        """New text, edit count and status of stored replies: on the session's object of the
        row where it holds one (a statement would leave the object stale), else by one UPDATE."""
        statements = []
        for row in rows:
            held = self.s.identity_map.get(identity_key(ReplyRow, row["id"]))
            if isinstance(held, ReplyRow):
                held.text, held.edits, held.status = row["text"], row["edits"], row["status"]
            else:
                statements.append(
                    {
                        "id_": row["id"],
                        "text": row["text"],
                        "edits": row["edits"],
                        "status": row["status"],
                    }
                )
        if statements:
            run(self.s, _reply_edit(), statements)

    def owe_reply(
        self, *, thread_id: int, key: str, to: str | None, text: str, at: datetime
    ) -> None:
        """``queue_reply``, written when the ``deferred()`` block ends (at once outside one)."""
        if self._deferred is None:
            self.queue_reply(thread_id=thread_id, key=key, to=to, text=text, at=at)
        else:
            self._owed.append(
                Owing(thread_id=thread_id, key=key, to=to, text=text, at=at, edit=False)
            )

    def owe_edit(self, *, thread_id: int, key: str, text: str, at: datetime) -> None:
        """``queue_edit``, written when the ``deferred()`` block ends (at once outside one)."""
        if self._deferred is None:
            self.queue_edit(thread_id=thread_id, key=key, text=text, at=at)
        else:
            self._owed.append(
                Owing(thread_id=thread_id, key=key, to=None, text=text, at=at, edit=True)
            )

    def _log_row(self, model: Any, values: dict[str, Any]) -> None:
        if self._deferred is not None:
            self._deferred[model].append(values)
        else:
            run(self.s, _insert(model.__table__), [values], flush=False)

    # -- campaigns and threads ----------------------------------------------------------------

    def campaign(self, path: str) -> CampaignRecord | None:
        """The campaign of a file path."""
        row = self._campaign(path)
        return None if row is None else record_of(CampaignRecord, row)

    def _campaign(self, path: str) -> CampaignRow | None:
        return self.s.scalars(select(CampaignRow).where(CampaignRow.path == path)).first()

    def save_campaign(
        self, *, path: str, name: str, file_hash: str, at: datetime
    ) -> CampaignRecord:
        """Create or update the row of a campaign file (two workers may at the same moment)."""
        insert_new(
            self.s,
            CampaignRow.__table__,
            {"path": path, "name": name, "file_hash": file_hash, "loaded_at": at},
            keys=("path",),
        )
        row = self._campaign(path)
        assert row is not None
        if (row.name, row.file_hash) != (name, file_hash):
            row.name, row.file_hash, row.loaded_at = name, file_hash, at
            self.s.flush()
        return record_of(CampaignRecord, row)

    def campaign_by_id(self, campaign_id: int) -> CampaignRecord:
        """A campaign by id."""
        row = self.s.get(CampaignRow, campaign_id)
        if row is None:
            raise KeyError(campaign_id)
        return record_of(CampaignRecord, row)

    def thread(self, forum: str, key: str) -> ThreadRecord | None:
        """A watched thread by forum and key."""
        row = self.s.scalars(
            select(ThreadRow).where(ThreadRow.forum == forum, ThreadRow.key == key)
        ).first()
        return None if row is None else record_of(ThreadRecord, row)

    def threads(self) -> list[ThreadRecord]:
        """Every watched thread."""
        return [
            record_of(ThreadRecord, r)
            for r in self.s.scalars(select(ThreadRow).order_by(ThreadRow.id))
        ]

    def latest_thread_of(self, campaign_id: int, *, besides: int) -> ThreadRecord | None:
        """The other thread of a campaign where the table posted last (a post, an edit or a
        delete; time passing does not count); among threads with no post yet, the newest."""
        logged = (
            select(func.max(EventRow.at))
            .where(EventRow.thread_id == ThreadRow.id, EventRow.kind != "tick")
            .correlate(ThreadRow)
            .scalar_subquery()
        )
        versions = (
            select(func.max(PostVersionRow.written_at))
            .where(PostVersionRow.thread_id == ThreadRow.id, PostVersionRow.seq.is_not(None))
            .correlate(ThreadRow)
            .scalar_subquery()
        )
        last_post = case(
            (logged.is_(None), versions),
            (versions.is_(None), logged),
            (logged > versions, logged),
            else_=versions,
        )
        row = self.s.scalars(
            select(ThreadRow)
            .where(ThreadRow.campaign_id == campaign_id, ThreadRow.id != besides)
            .where(ThreadRow.moved_to.is_(None))  # a thread its campaign left is not its latest
            .order_by(last_post.desc().nulls_last(), ThreadRow.id.desc())
        ).first()
        return None if row is None else record_of(ThreadRecord, row)

    def move_campaign(self, thread_id: int, *, to: str, at: datetime) -> None:
        """The campaign of thread ``thread_id`` now runs in thread ``to``: the old thread is
        due at once (its cycle tells it) and read no more."""
        self.s.execute(
            update(ThreadRow).where(ThreadRow.id == thread_id).values(moved_to=to, next_due_at=at)
        )

    def add_thread(
        self,
        *,
        forum: str,
        key: str,
        campaign_id: int,
        campaign_hash: str,
        at: datetime,
        bound_by: str | None = None,
    ) -> ThreadRecord:
        """Start watching a thread (``bound_by``: the GM who bound it with ``!campaign``); it
        waits for the forum to say what it holds. A thread another worker added at the same
        moment is returned as it is."""
        insert_new(
            self.s,
            ThreadRow.__table__,
            {
                "forum": forum,
                "key": key,
                "campaign_id": campaign_id,
                "campaign_hash": campaign_hash,
                "created_at": at,
                "last_seq": 0,
                "bound_by": bound_by,
                "snapshot_seq": 0,
                "snapshot_format": 0,
                "polls": 0,
                "needs_survey": True,
                "needs_read": False,
            },
            keys=("forum", "key"),
        )
        row = self.thread(forum, key)
        assert row is not None
        return row

    def save_snapshot(self, thread_id: int, *, blob: bytes, seq: int, fmt: int) -> None:
        """Keep ``blob`` as the thread's engine state after event ``seq`` (in format ``fmt``)."""
        self.s.execute(
            update(ThreadRow)
            .where(ThreadRow.id == thread_id)
            .values(snapshot=blob, snapshot_seq=seq, snapshot_format=fmt)
            .execution_options(synchronize_session=False)
        )

    def next_due(self, forum: str) -> datetime | None:
        """The earliest due time among the forum's threads."""
        return self.s.scalar(
            select(func.min(ThreadRow.next_due_at)).where(ThreadRow.forum == forum)
        )

    # -- posts and events ------------------------------------------------------------------

    def known_posts(self, thread_id: int, post_ids: Iterable[str]) -> dict[str, KnownPost]:
        """The newest version seen of each of these posts (those never seen are left out)."""
        wanted = list(dict.fromkeys(post_ids))
        if not wanted:
            return {}
        self._write_deferred()
        rows: list[Any] = []
        for i in range(0, len(wanted), 500):  # stay under every database's parameter limit
            rows += run(
                self.s,
                _known_posts(),
                {"thread_id": thread_id, "ids": wanted[i : i + 500]},
                flush=False,
            ).all()
        return {
            r.post_id: KnownPost(
                post_id=r.post_id,
                version=r.version,
                author=r.author,
                body_hash=r.body_hash,
                deleted=r.deleted,
            )
            for r in rows
        }

    def add_version(
        self,
        *,
        thread_id: int,
        post_id: str,
        version: int,
        author: str,
        body: str | None,
        body_hash: str,
        written_at: datetime,
        seen_at: datetime,
        deleted: bool,
        outcome: str = "handled",
        detail: str | None = None,
        seq: int | None = None,
        event: str | None = None,
    ) -> None:
        """Record a version of a post as seen and how it was handled (``outcome``: handled,
        failed or skipped, with ``detail`` saying why): the guard that makes every version
        count once. ``seq``: the version's event is number ``seq`` of the thread's log, of
        kind ``event`` (post, edit or delete), at ``written_at`` (the thread's ``last_seq``
        is the caller's to move, with ``Leases.keep``)."""
        self._log_row(
            PostVersionRow,
            {
                "thread_id": thread_id,
                "post_id": post_id,
                "version": version,
                "author": author,
                "body": body,
                "body_hash": body_hash,
                "written_at": written_at,
                "seen_at": seen_at,
                "deleted": deleted,
                "purged": body is None,
                "outcome": outcome,
                "detail": detail,
                "seq": seq,
                "event": event,
            },
        )

    def purge(self, thread_id: int, post_id: str) -> None:
        """Forget every text of a deleted post; its hashes stay."""
        self._write_deferred()
        self.s.execute(
            update(PostVersionRow)
            .where(PostVersionRow.thread_id == thread_id, PostVersionRow.post_id == post_id)
            .values(body=None, purged=True)
            .execution_options(synchronize_session=False)
        )

    def log_event(
        self,
        thread_id: int,
        *,
        seq: int,
        kind: str,
        post_id: str | None,
        version: int | None,
        at: datetime,
    ) -> None:
        """Append event number ``seq`` to the thread's log (the thread's ``last_seq`` is the
        caller's to move, with ``Leases.keep``); a post version's event goes with its version
        (``add_version``)."""
        self._log_row(
            EventRow,
            {
                "thread_id": thread_id,
                "seq": seq,
                "kind": kind,
                "post_id": post_id,
                "version": version,
                "at": at,
            },
        )

    def events_after(self, thread_id: int, seq: int) -> list[LoggedEvent]:
        """The logged events after ``seq``, each with its post's author and text."""
        self._write_deferred()
        return [
            LoggedEvent(
                seq=e.seq,
                kind=e.kind,
                post_id=e.post_id,
                version=e.version,
                author=e.author,
                body=e.body,
                at=e.at,
            )
            for e in run(self.s, _events_after(), {"thread_id": thread_id, "seq": seq})
        ]

    # -- rounds and seeds ---------------------------------------------------------------------

    def seeds(self, thread_id: int) -> dict[int, str]:
        """Each round's seed, by round number."""
        rows = self.s.execute(
            select(RoundRow.number, RoundRow.seed).where(RoundRow.thread_id == thread_id)
        ).all()
        return {r.number: r.seed for r in rows}

    def seed(self, thread_id: int, number: int) -> str | None:
        """One round's seed, if chosen."""
        # a round's seed goes in at once (round_seed): nothing pending changes it
        seed: str | None = run(
            self.s, _seed(), {"thread_id": thread_id, "number": number}, flush=False
        ).scalar()
        return seed

    def round_seed(self, thread_id: int, number: int, *, new: str) -> str:
        """A round's seed: the one chosen for it before, or ``new``, stored now, before
        anything is published about the round (one statement for a new round)."""
        # one INSERT now, not an object for the unit of work to flush
        statement = _new_round(self.s.get_bind().dialect.name)
        values = {"thread_id": thread_id, "number": number, "seed": new}
        chosen: str | None = run(self.s, statement, values, flush=False).scalar()
        return chosen if chosen is not None else str(self.seed(thread_id, number))

    def close_round(
        self,
        *,
        thread_id: int,
        number: int,
        closed_by: str | None,
        closed_at: datetime | None,
        summary: str,
    ) -> None:
        """Record how a round closed and the summary posted (its ledger entry comes after:
        inside ``deferred()``, the two are written by one UPDATE, or this one at its end)."""
        values = {"closed_by": closed_by, "closed_at": closed_at, "summary": summary}
        if self._deferred is None:
            self._update_round(thread_id, number, **values)
        else:
            self._closes[(thread_id, number)] = values

    def _update_round(self, thread_id: int, number: int, **values: Any) -> None:
        """One UPDATE of a round's row (KeyError: no such round)."""
        # a round's row goes in at once (round_seed): nothing pending to flush first
        done = run(
            self.s,
            _round_update(tuple(values)),
            {**values, "thread_id_": thread_id, "number_": number},
            flush=False,
        )
        if not done.rowcount:
            raise KeyError(number)

    def summaries(self, thread_id: int, *, numbers: Sequence[int] | None = None) -> dict[int, str]:
        """The summary of every closed round (or of the rounds ``numbers``), by number."""
        self._write_deferred()
        query = select(RoundRow.number, RoundRow.summary).where(
            RoundRow.thread_id == thread_id, RoundRow.summary.is_not(None)
        )
        if numbers is not None:
            query = query.where(RoundRow.number.in_(list(numbers)))
        rows = self.s.execute(query).all()
        return {r.number: r.summary for r in rows if r.summary is not None}

    # -- the outbox ---------------------------------------------------------------------------

    def latest_reply(self, thread_id: int, key: str) -> ReplyRecord | None:
        """The newest revision of a reply (queued in this unit of work or stored)."""
        row = self._latest_reply(thread_id, key)
        if row is not None and row.id is None:  # queued in this unit of work: give it its id
            self.s.flush()
        return None if row is None else record_of(ReplyRecord, row)

    def _latest_reply(self, thread_id: int, key: str) -> ReplyRow | None:
        self._write_deferred()
        queued = [
            r
            for r in self.s.new
            if isinstance(r, ReplyRow) and r.thread_id == thread_id and r.key == key
        ]
        with self.s.no_autoflush:  # nothing pending changes the answer: save the flush
            stored = self.s.scalars(
                select(ReplyRow)
                .where(ReplyRow.thread_id == thread_id, ReplyRow.key == key)
                .order_by(ReplyRow.revision.desc())
            ).first()
        candidates = [r for r in (*queued, stored) if r is not None]
        return max(candidates, key=lambda r: r.revision, default=None)

    def queue_reply(
        self, *, thread_id: int, key: str, to: str | None, text: str, at: datetime
    ) -> None:
        """A new reply to post (a key posted before gets its next revision)."""
        self._queue_reply(thread_id=thread_id, key=key, to=to, text=text, at=at)

    def _queue_reply(
        self, *, thread_id: int, key: str, to: str | None, text: str, at: datetime
    ) -> ReplyRow:
        self._new_replies = None  # (an object of the session: not among those written here)
        old = self._latest_reply(thread_id, key)
        row = ReplyRow(
            thread_id=thread_id,
            key=key,
            revision=1 if old is None else old.revision + 1,
            to_post=to,
            text=text,
            status="pending",
            attempts=0,
            edits=0,
            created_at=at,
        )
        self.s.add(row)
        return row

    def queue_private(
        self, *, thread_id: int, key: str, to: str, subject: str, text: str, at: datetime
    ) -> None:
        """A private message to send to user ``to`` (a key sent before gets its next
        revision)."""
        row = self._queue_reply(thread_id=thread_id, key=key, to=None, text=text, at=at)
        row.to_user, row.subject = to, subject

    def queue_private_edit(
        self, *, thread_id: int, key: str, to: str, subject: str, text: str, at: datetime
    ) -> None:
        """New text for a private message sent under ``key`` (edited once sent, or sent with
        the new text); a message never queued is queued, so nothing goes in the thread."""
        self._new_replies = None
        row = self._latest_reply(thread_id, key)
        if row is None or row.to_user is None:
            self.queue_private(
                thread_id=thread_id, key=key, to=to, subject=subject, text=text, at=at
            )
            return
        row.text, row.subject = text, subject
        row.edits += 1
        if row.status == "posted":
            row.status = "edit-pending"

    def queue_edit(self, *, thread_id: int, key: str, text: str, at: datetime) -> None:
        """New text for a reply: edited in place if posted, else posted with the new text."""
        self._new_replies = None
        row = self._latest_reply(thread_id, key)
        if row is None:  # nothing to edit: post it, so nothing is lost
            self._queue_reply(thread_id=thread_id, key=key, to=None, text=text, at=at)
            return
        row.text = text
        row.edits += 1
        if row.status == "posted":
            row.status = "edit-pending"

    def owed_here(self, thread_id: int) -> list[ReplyRecord] | None:
        """The replies of the thread this unit of work wrote that are not posted, oldest
        first, if it knows them all: those the ``deferred()`` block's statements wrote (new
        replies, an edit), as they returned them, no private message or other write among
        them (None otherwise). When the thread owed nothing before, they are all it owes now
        (``owed`` without the read)."""
        self._write_deferred()
        if self._new_replies is None:
            return None
        # a row written twice (the block's writes flushed by a read in between) as it was last
        latest = {r.id: r for r in self._new_replies if r.thread_id == thread_id}
        return sorted((r for r in latest.values() if r.status in UNPOSTED), key=lambda r: r.id)

    def owed(self, thread_id: int) -> list[tuple[ReplyRecord, str | None]]:
        """Replies still to post or edit, oldest first (read from the table: nothing of the
        unit of work is loaded for them), each with the id of the reply the forum was seen to
        hold under its forum key (``Inbox.found_replies``), if any: one statement."""
        self._write_deferred()
        rows = run(self.s, _owed(), {"thread_id": thread_id}).all()
        return [(record_of(ReplyRecord, r), r.found_forum_id) for r in rows]

    def replies(self, thread_id: int) -> list[ReplyRecord]:
        """Every reply of a thread, in the order they were queued."""
        self._write_deferred()
        rows = self.s.scalars(
            select(ReplyRow).where(ReplyRow.thread_id == thread_id).order_by(ReplyRow.id)
        )
        return [record_of(ReplyRecord, r) for r in rows]

    def count_attempts(self, reply_ids: Sequence[int], *, at: datetime) -> None:
        """Record that these replies are about to be sent (before the forum is asked), and
        when the first attempt of each was."""
        if reply_ids:
            run(self.s, _count_attempts(), {"ids": list(reply_ids), "at": at})

    def mark_all_sent(self, sent: Sequence[Sent], *, at: datetime, count: bool = False) -> None:
        """The forum holds each of these replies with the text sent, in one statement whatever
        their number: those whose text is still the one sent are posted, the others (the text
        changed meanwhile) owed as edits.
        ``count``: the attempt is counted in the same statement (``count_attempts``), for a
        forum whose sending commits with this unit of work."""
        if not sent:
            return
        rows = [
            {"id_": r.reply_id, "forum_id": r.forum_id, "text_": r.text, "at": at} for r in sent
        ]
        run(self.s, _mark_sent(count), rows)

    def reply(self, reply_id: int) -> ReplyRecord | None:
        """One reply of the outbox."""
        row = self.s.get(ReplyRow, reply_id)
        return None if row is None else record_of(ReplyRecord, row)

    def record_reply_error(
        self, reply: ReplyRecord, *, error: str, into_thread: bool = False, give_up: bool = False
    ) -> None:
        """The forum refused ``reply`` (as read) with ``error``: keep the error, and move the
        reply into the thread (it answered a post that is gone) or give it up (``failed``).
        Only what changes is written (nothing when nothing does)."""
        wanted: dict[str, Any] = {"last_error": error}
        if into_thread:
            wanted["to_post"] = None
        if give_up:
            wanted["status"] = "failed"
        changed = {name: v for name, v in wanted.items() if getattr(reply, name) != v}
        if changed:
            self.s.execute(
                update(ReplyRow)
                .where(ReplyRow.id == reply.id)
                .values(**changed)
                .execution_options(synchronize_session=False)
            )

    # -- cursors ------------------------------------------------------------------------------

    def save_cursor(self, forum: str, scope: str, cursor: str | None, *, at: datetime) -> None:
        """Remember where the listing stopped (whichever worker read it last)."""
        upsert(
            self.s,
            PollCursorRow.__table__,
            {"forum": forum, "scope": scope, "cursor": cursor, "updated_at": at},
            keys=("forum", "scope"),
            update=("cursor", "updated_at"),
        )

    # -- projections --------------------------------------------------------------------------

    def save_characters(
        self,
        thread_id: int,
        characters: Iterable[CharacterState],
        *,
        stored: Mapping[str, CharacterState] | None = None,
    ) -> int:
        """Make the thread's character rows these: only the rows that changed are written
        (updated, added or deleted); return how many. ``stored``: what the rows hold now, as
        the caller wrote them last (else they are read)."""
        wanted = {c.name: c for c in characters}
        if stored is None:
            # rows of the table, compared as values (characters are written only here, by
            # statements: no object of one is ever pending)
            stored = {
                r.name: CharacterState(
                    name=r.name, side=r.side, group=r.group, status=r.status, data=r.data
                )
                for r in run(self.s, _characters(), {"thread_id": thread_id})
            }
        changed = [
            {
                "thread_id_": thread_id,
                "name_": name,
                "side": new.side,
                "group": new.group,
                "status": new.status,
                "data": new.data,
            }
            for name, old in stored.items()
            if (new := wanted.get(name)) is not None and old != new
        ]
        if changed:
            run(self.s, _character_update(), changed)
        gone = [name for name in stored if name not in wanted]
        if gone:
            table = _table(CharacterRow)
            run(
                self.s,
                delete(table).where(table.c.thread_id == thread_id, table.c.name.in_(gone)),
            )
        added = [
            {
                "thread_id": thread_id,
                "name": c.name,
                "side": c.side,
                "group": c.group,
                "status": c.status,
                "data": c.data,
            }
            for name, c in wanted.items()
            if name not in stored
        ]
        if added:
            run(self.s, _insert(CharacterRow.__table__), added)
        return len(changed) + len(gone) + len(added)

    def characters(self, thread_id: int) -> list[CharacterState]:
        """The thread's characters, as the projection holds them."""
        rows = self.s.scalars(
            select(CharacterRow)
            .where(CharacterRow.thread_id == thread_id)
            .order_by(CharacterRow.id)
        )
        return [
            CharacterState(name=r.name, side=r.side, group=r.group, status=r.status, data=r.data)
            for r in rows
        ]

    def save_round_ledger(self, thread_id: int, number: int, data: str) -> None:
        """A closed round's entry of the ledger (SPEC §5), as JSON (none kept for a round
        that does not exist)."""
        values = {**self._closes.pop((thread_id, number), {}), "ledger": data}
        with suppress(KeyError):
            self._update_round(thread_id, number, **values)

    def round_ledgers(self, thread_id: int, *, before: int | None = None) -> Iterator[str]:
        """The stored ledger entries of the closed rounds (those numbered below ``before``),
        in round order, read ``LEDGER_PAGE`` rounds at a time as they are taken (a long
        thread's entries, its posts in full, are never all held at once): iterate inside
        the unit of work."""
        self._write_deferred()
        query = select(RoundRow.number, RoundRow.ledger).where(
            RoundRow.thread_id == thread_id, RoundRow.ledger.is_not(None)
        )
        if before is not None:
            query = query.where(RoundRow.number < before)
        query = query.order_by(RoundRow.number).limit(LEDGER_PAGE)
        after: int | None = None
        while True:
            page = self.s.execute(
                query if after is None else query.where(RoundRow.number > after)
            ).all()
            yield from (data for _number, data in page if data is not None)
            if len(page) < LEDGER_PAGE:
                return
            after = page[-1][0]


# The statements of every poll, built once (building one costs more than running it); the
# values are bound when they run.


@cache
def _insert(table: Any) -> Any:
    return insert(table)


@cache
def _replies_keyed() -> Any:
    table = _table(ReplyRow)
    return (
        select(
            table.c.id, table.c.key, table.c.revision, table.c.status, table.c.text, table.c.edits
        )
        .where(
            table.c.thread_id == bindparam("thread_id"),
            table.c.key.in_(bindparam("keys", expanding=True)),
        )
        .order_by(table.c.revision)
    )


@cache
def _reply_edit() -> Any:
    table = _table(ReplyRow)
    return (
        update(table)
        .where(table.c.id == bindparam("id_"))
        .values({name: bindparam(name) for name in ("text", "edits", "status")})
    )


@cache
def _known_posts() -> Any:
    return (
        select(
            PostVersionRow.post_id,
            PostVersionRow.version,
            PostVersionRow.author,
            PostVersionRow.body_hash,
            PostVersionRow.deleted,
        )
        .where(
            PostVersionRow.thread_id == bindparam("thread_id"),
            PostVersionRow.post_id.in_(bindparam("ids", expanding=True)),
        )
        .order_by(PostVersionRow.version)
    )


@cache
def _events_after() -> Any:
    """A thread's log after a number: the bot's own events (each with the author and text of
    the post version it names, if any) and the post versions' events, in order."""
    logged = (
        select(
            EventRow.seq,
            EventRow.kind,
            EventRow.post_id,
            EventRow.version,
            PostVersionRow.author,
            PostVersionRow.body,
            EventRow.at,
        )
        .outerjoin(
            PostVersionRow,
            (PostVersionRow.thread_id == EventRow.thread_id)
            & (PostVersionRow.post_id == EventRow.post_id)
            & (PostVersionRow.version == EventRow.version),
        )
        .where(EventRow.thread_id == bindparam("thread_id"), EventRow.seq > bindparam("seq"))
    )
    versions = select(
        PostVersionRow.seq,
        PostVersionRow.event.label("kind"),
        PostVersionRow.post_id,
        PostVersionRow.version,
        PostVersionRow.author,
        PostVersionRow.body,
        PostVersionRow.written_at.label("at"),
    ).where(
        PostVersionRow.thread_id == bindparam("thread_id"), PostVersionRow.seq > bindparam("seq")
    )
    return union_all(logged, versions).order_by("seq")


@cache
def _new_round(dialect: str) -> Any:
    """A round's row with its seed, unless it has one (then no row comes back)."""
    return (
        dialect_insert(dialect)(RoundRow.__table__)
        .on_conflict_do_nothing(index_elements=["thread_id", "number"])
        .returning(RoundRow.seed)
    )


@cache
def _seed() -> Any:
    return select(RoundRow.seed).where(
        RoundRow.thread_id == bindparam("thread_id"), RoundRow.number == bindparam("number")
    )


@cache
def _round_update(columns: tuple[str, ...]) -> Any:
    table = _table(RoundRow)
    return (
        update(table)
        .where(table.c.thread_id == bindparam("thread_id_"), table.c.number == bindparam("number_"))
        .values({name: bindparam(name, type_=table.c[name].type) for name in columns})
    )


@cache
def _owed() -> Any:
    table, found = _table(ReplyRow), _table(FoundReplyRow)
    # the key the reply carries on the forum, as ``services.outbox.forum_key`` makes it
    forum_key = case(
        (table.c.revision == 1, table.c.key),
        else_=table.c.key + "~" + cast(table.c.revision, String),
    )
    return (
        select(table, found.c.forum_id.label("found_forum_id"))
        .outerjoin(found, and_(found.c.thread_id == table.c.thread_id, found.c.key == forum_key))
        # every status but "posted", by name: read through the index of the few still owed
        .where(table.c.thread_id == bindparam("thread_id"), table.c.status.in_(UNPOSTED))
        .order_by(table.c.id)
    )


@cache
def _count_attempts() -> Any:
    table = _table(ReplyRow)  # of the table: nothing of the unit of work to flush first
    at = bindparam("at", type_=table.c.tried_at.type)  # through UtcDateTime
    return (
        update(table)
        .where(table.c.id.in_(bindparam("ids", expanding=True)))
        .values(attempts=table.c.attempts + 1, tried_at=func.coalesce(table.c.tried_at, at))
    )


@cache
def _mark_sent(count: bool) -> Any:
    """Posted with the text sent; or, if the text changed meanwhile, still owed as an edit
    (``count``: and the attempt counted, as ``_count_attempts`` counts it)."""
    table = _table(ReplyRow)  # of the table: nothing of the unit of work to flush first
    at = bindparam("at", type_=table.c.posted_at.type)  # through UtcDateTime
    same = table.c.text == bindparam("text_")
    values: dict[str, Any] = {
        "status": case((same, "posted"), else_="edit-pending"),
        "forum_reply_id": bindparam("forum_id"),
        "last_error": case((same, None), else_=table.c.last_error),
        "posted_at": func.coalesce(table.c.posted_at, at),
    }
    if count:
        values["attempts"] = table.c.attempts + 1
        values["tried_at"] = func.coalesce(table.c.tried_at, at)
    return update(table).where(table.c.id == bindparam("id_")).values(values)


def _table(model: Any) -> Table:
    return typing.cast(Table, model.__table__)


@cache
def _characters() -> Any:
    table = _table(CharacterRow)
    return select(table).where(table.c.thread_id == bindparam("thread_id"))


@cache
def _character_update() -> Any:
    table = _table(CharacterRow)
    return (
        update(table)
        .where(table.c.thread_id == bindparam("thread_id_"), table.c.name == bindparam("name_"))
        .values({name: bindparam(name) for name in ("side", "group", "status", "data")})
    )
