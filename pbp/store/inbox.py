"""The ingest side of the poll: the post versions listings showed, waiting for the worker that
runs their thread, and what the store knows of each thread's posts on the forum."""

from __future__ import annotations

import typing
from collections.abc import Iterable, Mapping
from datetime import datetime
from functools import cache
from typing import Any

from sqlalchemy import (
    Integer,
    String,
    Table,
    bindparam,
    cast,
    delete,
    insert,
    null,
    or_,
    select,
    union_all,
    update,
)
from sqlalchemy.orm import Session

from pbp.forums.base import ForumPost
from pbp.store.execute import run
from pbp.store.schema import (
    CampaignRow,
    FoundReplyRow,
    InboxRow,
    PollCursorRow,
    PostVersionRow,
    ReplyRow,
    ThreadRow,
)
from pbp.store.upsert import insert_new
from pbp.values import frozen_value

CHUNK = 500  # ids per IN (...): under every database's parameter limit


@frozen_value
class StoredThread:
    """A thread the store has: its id, key, and whether a GM bound it with ``!campaign``."""

    id: int
    key: str
    bound: bool


@frozen_value
class Pending:
    """A post version in the inbox: its place, the post as the forum showed it, and when the
    forum showed it."""

    id: int
    post: ForumPost
    ingested_at: datetime


def _pending_of(row: Any, thread: str) -> Pending:
    return Pending(
        id=row.id,
        post=ForumPost(
            id=row.post_id,
            thread=thread,
            author=row.author,
            body=row.body,
            created_at=row.created_at,
            edited_at=row.edited_at,
            deleted_at=row.deleted_at,
            reply_to=row.reply_to,
        ),
        ingested_at=row.ingested_at,
    )


@frozen_value
class RereadRow:
    """A thread whose posts may be read again: what its row keeps for that."""

    id: int
    key: str
    bound: bool
    campaign_path: str
    open_round: str


class Inbox:
    """Inbox queries on one session (one unit of work)."""

    def __init__(self, session: Session) -> None:
        self.s = session

    # -- which threads --------------------------------------------------------------------------

    def watched(self, forum: str, keys: Iterable[str]) -> list[StoredThread]:
        """The threads with these keys the store has."""
        wanted = list(dict.fromkeys(keys))
        found: list[StoredThread] = []
        for i in range(0, len(wanted), CHUNK):
            found += self._threads("keys", forum=forum, keys=wanted[i : i + CHUNK])
        return found

    def all_keys(self, forum: str) -> list[StoredThread]:
        """Every thread of the forum the forum has been asked about."""
        return self._threads("surveyed", forum=forum)

    def listing_start(self, forum: str, scope: str) -> tuple[str | None, list[StoredThread]]:
        """Where the forum's listing stopped (``Repository.save_cursor``) and the threads the forum
        has not been asked about yet: one statement."""
        rows = run(self.s, _listing_start(), {"forum": forum, "scope": scope}).all()
        cursor = next((r.cursor for r in rows if r.id is None), None)
        threads = sorted((r for r in rows if r.id is not None), key=lambda r: r.id)
        return cursor, [
            StoredThread(id=r.id, key=r.key, bound=r.bound_by is not None) for r in threads
        ]

    def _threads(self, which: str, **values: Any) -> list[StoredThread]:
        rows = run(self.s, _threads(which), values).all()  # flushed: threads are objects too
        return [StoredThread(id=r.id, key=r.key, bound=r.bound_by is not None) for r in rows]

    def surveyed(self, thread_id: int, *, read_whole: bool) -> None:
        """The forum has been asked about the thread; ``read_whole``: it must be read whole."""
        self.s.execute(
            update(ThreadRow)
            .where(ThreadRow.id == thread_id)
            .values(needs_survey=False, needs_read=read_whole)
            .execution_options(synchronize_session=False)
        )

    def read_whole(self, thread_ids: Iterable[int]) -> None:
        """These threads hold posts the store cannot account for: read them whole."""
        ids = list(thread_ids)
        for i in range(0, len(ids), CHUNK):
            self.s.execute(
                update(ThreadRow)
                .where(ThreadRow.id.in_(ids[i : i + CHUNK]))
                .values(needs_read=True)
                .execution_options(synchronize_session=False)
            )

    # -- the inbox ------------------------------------------------------------------------------

    def put(self, thread_id: int, posts: Iterable[ForumPost], *, at: datetime) -> int:
        """Keep post versions for the thread's worker; return how many."""
        rows = [
            {
                "thread_id": thread_id,
                "post_id": p.id,
                "author": p.author,
                "body": p.body,
                "created_at": p.created_at,
                "edited_at": p.edited_at,
                "deleted_at": p.deleted_at,
                "reply_to": p.reply_to,
                "ingested_at": at,
            }
            for p in posts
        ]
        if rows:
            # into the table (the column types bind each value): no objects to make
            run(self.s, _insert_inbox(), rows, flush=False)
        return len(rows)

    def take_pending(self, thread_id: int, thread: str) -> list[Pending]:
        """The thread's post versions waiting, in the order they were listed, taken as they are
        read in one statement (a unit of work that rolls back leaves them for the next poll;
        one listed meanwhile stays for it too)."""
        rows = sorted(
            run(self.s, _take_pending(), {"thread_id": thread_id}, flush=False),
            key=lambda r: r.id,  # (a DELETE's rows come in no set order)
        )
        return [_pending_of(r, thread) for r in rows]

    # -- re-reads -------------------------------------------------------------------------------

    def reread_rows(
        self, forum: str, *, now: datetime, soon: datetime, keys: Iterable[str]
    ) -> list[RereadRow]:
        """The threads with an open round whose re-read falls due by ``soon``, whose deadline
        or reminder is due by ``now``, or whose key is among ``keys``."""
        rows = run(
            self.s,
            _reread_rows(),
            {"forum": forum, "now": now, "soon": soon, "keys": list(dict.fromkeys(keys))},
        ).all()
        return [
            RereadRow(
                id=r.id,
                key=r.key,
                bound=r.bound_by is not None,
                campaign_path=r.path,
                open_round=r.open_round,
            )
            for r in rows
        ]

    def reread_next(self, thread_id: int, *, open_round: str, at: datetime | None) -> None:
        """The thread's posts were read again: what its row keeps of its open round now, and
        when one is read again next (``at``)."""
        run(
            self.s,
            _reread_next(),
            {"id_": thread_id, "open_round": open_round, "at": at},
            flush=False,
        )

    # -- what the store accounts for ------------------------------------------------------------

    def known_posts(self, thread_ids: Iterable[int]) -> dict[int, set[str]]:
        """For each thread, the ids of the posts the store knows live on the forum: the posts
        read and not deleted, those in the inbox, and the bot's replies posted there."""
        ids = list(thread_ids)
        known: dict[int, set[str]] = {t: set() for t in ids}
        gone: dict[int, set[str]] = {t: set() for t in ids}
        for i in range(0, len(ids), CHUNK):
            chunk = ids[i : i + CHUNK]
            for version in self.s.execute(
                select(
                    PostVersionRow.thread_id, PostVersionRow.post_id, PostVersionRow.deleted
                ).where(PostVersionRow.thread_id.in_(chunk))
            ):
                (gone if version.deleted else known)[version.thread_id].add(version.post_id)
            for waiting in self.s.execute(
                select(InboxRow.thread_id, InboxRow.post_id, InboxRow.deleted_at).where(
                    InboxRow.thread_id.in_(chunk)
                )
            ):
                side = gone if waiting.deleted_at is not None else known
                side[waiting.thread_id].add(waiting.post_id)
            for reply in self.s.execute(
                select(ReplyRow.thread_id, ReplyRow.forum_reply_id).where(
                    ReplyRow.thread_id.in_(chunk),
                    ReplyRow.forum_reply_id.is_not(None),
                    ReplyRow.to_user.is_(None),
                )  # a private message is no post of it
            ):
                known[reply.thread_id].add(str(reply.forum_reply_id))
        return {t: known[t] - gone[t] for t in ids}

    # -- the bot's replies found on the forum ---------------------------------------------------

    def found_replies(self, thread_id: int, replies: Mapping[str, str]) -> None:
        """Replies of the bot the forum holds (forum key -> id) that the outbox has no record
        of: a reply owed under one of these keys edits it instead of posting again."""
        if not replies:
            return
        recorded = set(
            self.s.scalars(
                select(ReplyRow.forum_reply_id).where(
                    ReplyRow.thread_id == thread_id, ReplyRow.forum_reply_id.is_not(None)
                )
            )
        )
        rows = [
            {"thread_id": thread_id, "key": key, "forum_id": forum_id}
            for key, forum_id in replies.items()
            if forum_id not in recorded
        ]
        insert_new(self.s, FoundReplyRow.__table__, rows, keys=("thread_id", "key"))

    def forget_found(self, thread_id: int, key: str) -> None:
        """The reply found under ``key`` is the outbox's now."""
        self.s.execute(
            delete(FoundReplyRow).where(
                FoundReplyRow.thread_id == thread_id, FoundReplyRow.key == key
            )
        )


# The statements of every poll, built once (building one costs more than running it); the
# values are bound when they run.


@cache
def _threads(which: str) -> Any:
    where = {
        "keys": ThreadRow.key.in_(bindparam("keys", expanding=True)),
        "surveyed": ThreadRow.needs_survey.is_(False),
    }[which]
    return (
        select(ThreadRow.id, ThreadRow.key, ThreadRow.bound_by)
        .where(ThreadRow.forum == bindparam("forum"), where)
        .order_by(ThreadRow.id)
    )


@cache
def _listing_start() -> Any:
    unsurveyed = select(
        ThreadRow.id, ThreadRow.key, ThreadRow.bound_by, null().label("cursor")
    ).where(ThreadRow.forum == bindparam("forum"), ThreadRow.needs_survey.is_(True))
    cursor = select(
        cast(null(), Integer), cast(null(), String), cast(null(), String), PollCursorRow.cursor
    ).where(PollCursorRow.forum == bindparam("forum"), PollCursorRow.scope == bindparam("scope"))
    return union_all(unsurveyed, cursor)


@cache
def _reread_rows() -> Any:
    now = bindparam("now", type_=ThreadRow.next_due_at.type)
    soon = bindparam("soon", type_=ThreadRow.reread_at.type)
    return (
        select(
            ThreadRow.id, ThreadRow.key, ThreadRow.bound_by, CampaignRow.path, ThreadRow.open_round
        )
        .join(CampaignRow, CampaignRow.id == ThreadRow.campaign_id)
        .where(
            ThreadRow.forum == bindparam("forum"),
            ThreadRow.open_round.is_not(None),
            or_(
                ThreadRow.reread_at <= soon,
                ThreadRow.next_due_at <= now,
                ThreadRow.key.in_(bindparam("keys", expanding=True)),
            ),
        )
        .order_by(ThreadRow.id)
    )


@cache
def _reread_next() -> Any:
    table = typing.cast(Table, ThreadRow.__table__)  # of the table: no object to flush
    return (
        update(table)
        .where(table.c.id == bindparam("id_"))
        .values(
            reread_at=bindparam("at", type_=table.c.reread_at.type),
            open_round=bindparam("open_round"),
        )
    )


@cache
def _insert_inbox() -> Any:
    return insert(typing.cast(Table, InboxRow.__table__))


@cache
def _take_pending() -> Any:
    # the inbox's columns alone: SQLite looks a RETURNING clause's correlated subquery up by
    # the outer WHERE's columns only (a post's newest version read there would scan every
    # version of the thread, for each row); the cycle reads those in one statement of its own
    inbox = typing.cast(Table, InboxRow.__table__)
    return delete(inbox).where(inbox.c.thread_id == bindparam("thread_id")).returning(*inbox.c)
