"""The process side of the poll: the live workers, the threads that have work, and the leases
that give each thread to one worker at a time (SPEC §9).

A lease is taken with a conditional UPDATE (free, expired, this worker's, or a dead worker's),
so two workers never both get one: the second UPDATE finds the row taken and changes nothing.
Each poll a worker renews all its leases in one statement; idle threads are never touched.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import fields
from datetime import datetime
from functools import cache
from typing import Any, cast

from sqlalchemy import (
    Integer,
    Table,
    bindparam,
    delete,
    func,
    literal_column,
    null,
    or_,
    select,
    union_all,
    update,
)
from sqlalchemy import cast as sql_cast
from sqlalchemy.orm import Session

from pbp.store.execute import run
from pbp.store.records import KnownPost, ThreadChanges, ThreadRecord, record_of
from pbp.store.schema import (
    CampaignRow,
    FoundReplyRow,
    InboxRow,
    PostVersionRow,
    ReplyRow,
    ThreadRow,
    WorkerRow,
)
from pbp.store.upsert import upsert
from pbp.values import frozen_value

OWED = ("pending", "edit-pending")  # reply statuses still to deliver


@frozen_value
class HeldThread:
    """A thread the worker holds, as ``Leases.seen`` read it without locking its row."""

    thread: ThreadRecord
    campaign_path: str
    found_replies: bool  # whether the forum was seen to hold replies the store has no row of
    known: dict[str, KnownPost]  # the newest version the store knows of each post asked for


@frozen_value
class Seen:
    """What ``Leases.seen`` read in one statement."""

    work: list[ThreadWork]  # the threads with work now
    live: list[str]  # the workers seen lately
    total: int  # the forum's threads
    held: int  # how many of them the worker holds
    threads: dict[int, HeldThread]  # of the threads asked for, those it holds


@frozen_value
class ThreadWork:
    """A thread that has something to do now, and who holds it."""

    id: int
    key: str
    campaign_path: str
    owner: str | None
    expires: datetime | None
    bound: bool  # by a GM's ``!campaign`` (else the config names it)


class Leases:
    """Worker and lease queries on one session (one unit of work)."""

    def __init__(self, session: Session) -> None:
        self.s = session
        self._held: dict[int, dict[str, Any]] = {}  # the threads held: their values as read

    # -- workers --------------------------------------------------------------------------------

    def beat(self, *, name: str, forum: str, now: datetime, until: datetime) -> None:
        """This worker is alive at ``now``: say so, and keep its leases until ``until``."""
        upsert(
            self.s,
            WorkerRow.__table__,
            {"name": name, "forum": forum, "started_at": now, "seen_at": now},
            keys=("name",),
            update=("seen_at",),
        )
        run(self.s, _renew(), {"name": name, "until": until})

    def leave(self, *, name: str) -> None:
        """A worker stops: its threads are free at once."""
        self.s.execute(
            update(ThreadRow)
            .where(ThreadRow.lease_owner == name)
            .values(lease_owner=None, lease_expires=None)
            .execution_options(synchronize_session=False)
        )
        self.s.execute(delete(WorkerRow).where(WorkerRow.name == name))

    # -- threads and their work -----------------------------------------------------------------

    def seen(
        self,
        forum: str,
        *,
        owner: str,
        now: datetime,
        seen_since: datetime,
        mine: Sequence[int] = (),
        posts: Sequence[str] = (),
    ) -> Seen:
        """In one statement: the threads with something to do now (post versions waiting in the
        inbox, a re-read's too; replies to deliver; a whole read; a deadline or reminder due;
        a thread the forum has not been asked about yet waits for that), the workers seen
        since ``seen_since``, how many threads the forum has and how many ``owner`` holds;
        and of the threads ``mine`` that ``owner`` holds, each one's row (the unit of work
        writes it back with ``keep(owner=...)``) and the newest version the store knows of
        each of ``posts`` in it (``Repository.known_posts``)."""
        params = {"forum": forum, "owner": owner, "now": now, "since": seen_since}
        if mine:
            # (an empty list would be SQLAlchemy's own empty-set expression, off the compiled
            # path: no post has an empty id)
            params |= {"mine": list(mine), "posts": list(posts) or [""]}
        rows = run(self.s, _seen(held=bool(mine)), params).all()
        [counts] = [r for r in rows if r.part == _COUNTS]
        held: dict[int, HeldThread] = {}
        for r in rows:
            if r.part == _THREADS:
                thread = ThreadRecord(**{c: getattr(r, f"t_{c}") for c in _THREAD_COLUMNS})
                held[thread.id] = HeldThread(
                    thread=thread, campaign_path=r.path, found_replies=bool(r.found), known={}
                )
                self._held[thread.id] = {c: getattr(thread, c) for c in _THREAD_COLUMNS}
        for r in sorted((r for r in rows if r.part == _KNOWN), key=lambda r: r.v_version):
            if r.v_thread_id in held:  # the newest version last: it stays
                held[r.v_thread_id].known[r.v_post_id] = KnownPost(
                    post_id=r.v_post_id,
                    version=r.v_version,
                    author=r.v_author,
                    body_hash=r.v_body_hash,
                    deleted=r.v_deleted,
                )
        return Seen(
            work=sorted((_thread_work(r) for r in rows if r.part == _WORK), key=lambda w: w.id),
            live=sorted(r.name for r in rows if r.part == _WORKERS),
            total=int(counts.total),
            held=int(counts.held),
            threads=held,
        )

    def claim(
        self,
        thread_id: int,
        *,
        owner: str,
        now: datetime,
        until: datetime,
        dead: Collection[str] = (),
    ) -> bool:
        """Take the thread's lease unless another live worker holds it; whether we hold it."""
        takeable = [
            ThreadRow.lease_owner.is_(None),
            ThreadRow.lease_owner == owner,
            ThreadRow.lease_expires < now,
        ]
        if dead:
            takeable.append(ThreadRow.lease_owner.in_(list(dead)))
        result = self.s.execute(
            update(ThreadRow)
            .where(ThreadRow.id == thread_id, or_(*takeable))
            .values(lease_owner=owner, lease_expires=until)
            .execution_options(synchronize_session=False)
        )
        return bool(result.rowcount)  # type: ignore[attr-defined]

    def release(self, thread_ids: Iterable[int], *, owner: str) -> None:
        """Give these threads up (if ``owner`` holds them)."""
        ids = list(thread_ids)
        if ids:
            self.s.execute(
                update(ThreadRow)
                .where(ThreadRow.id.in_(ids), ThreadRow.lease_owner == owner)
                .values(lease_owner=None, lease_expires=None)
                .execution_options(synchronize_session=False)
            )

    def held(self, forum: str, *, owner: str) -> list[int]:
        """The threads ``owner`` holds, the newest thread first."""
        return list(
            self.s.scalars(
                select(ThreadRow.id)
                .where(ThreadRow.forum == forum, ThreadRow.lease_owner == owner)
                .order_by(ThreadRow.id.desc())
            )
        )

    def hold(self, thread_id: int, *, owner: str) -> ThreadRecord | None:
        """The thread, locked for this unit of work, if ``owner`` still holds it.

        What the unit of work changes of it goes in by ``keep``, one UPDATE of the columns
        that changed (the session would flush a whole object at each statement that may need
        it, at many times the cost)."""
        row = run(self.s, _hold(), {"id": thread_id}, flush=False).first()
        if row is None or row.lease_owner != owner:
            return None
        thread = record_of(ThreadRecord, row)
        self._held[thread.id] = row._asdict()
        return thread

    def keep(self, thread_id: int, changes: ThreadChanges, *, owner: str | None = None) -> bool:
        """Write what ``changes`` holds that differs from the thread ``hold`` (or ``seen``)
        gave, or from what the last ``keep`` wrote (nothing when nothing does).

        ``owner``: the thread was read without its row locked (by ``seen``): the UPDATE is
        made whatever changed, and only if ``owner`` still holds the lease and what another
        worker may change without it (``moved_to``, ``needs_read``) is as read; whether it
        was (if not, the caller must not commit what the unit of work wrote of the thread)."""
        loaded = self._held[thread_id]
        changed = {name: value for name, value in changes.values().items() if value != loaded[name]}
        if owner is not None:
            changed.setdefault("last_seq", changes.last_seq)  # the lease checked whatever changed
            # and what other workers may write of it without the lease, unchanged since read
            # (a campaign moved away, a whole read asked for)
            as_read = {"moved_to_": loaded["moved_to"], "needs_read_": loaded["needs_read"]}
            done = run(
                self.s,
                _thread_update(tuple(sorted(changed)), guarded=True),
                {**changed, "id_": thread_id, "owner_": owner, **as_read},
                flush=False,
            )
            if not done.rowcount:
                return False
        elif changed:
            run(
                self.s,
                _thread_update(tuple(sorted(changed))),
                {**changed, "id_": thread_id},
                flush=False,
            )
        loaded.update(changed)
        return True


# The statements of every poll, built once (building one costs more than running it); the
# values are bound when they run.


def _thread_work(row: Any) -> ThreadWork:
    """A thread with work, from a row of ``_WORK_COLUMNS``."""
    return ThreadWork(
        id=row.id,
        key=row.key,
        campaign_path=row.path,
        owner=row.lease_owner,
        expires=row.lease_expires,
        bound=row.bound_by is not None,
    )


@cache
def _renew() -> Any:
    table = cast(Table, ThreadRow.__table__)  # of the table: nothing of the session to flush
    return (
        update(table)
        .where(table.c.lease_owner == bindparam("name"))
        .values(lease_expires=bindparam("until", type_=table.c.lease_expires.type))
    )


_WORK_COLUMNS = (
    ThreadRow.id,
    ThreadRow.key,
    CampaignRow.path,
    ThreadRow.lease_owner,
    ThreadRow.lease_expires,
    ThreadRow.bound_by,
)


def _work(query: Any) -> Any:
    """``query`` (a select of thread columns) over the threads with work now."""
    waiting = select(InboxRow.thread_id)
    owed = select(ReplyRow.thread_id).where(ReplyRow.status.in_(OWED))
    now = bindparam("now", type_=ThreadRow.next_due_at.type)
    return (
        query.select_from(ThreadRow)
        .join(CampaignRow, CampaignRow.id == ThreadRow.campaign_id)
        .where(
            ThreadRow.forum == bindparam("forum"),
            ThreadRow.needs_survey.is_(False),
            or_(
                ThreadRow.id.in_(waiting),
                ThreadRow.id.in_(owed),
                ThreadRow.needs_read.is_(True),
                ThreadRow.next_due_at <= now,
            ),
        )
    )


_COUNTS, _WORKERS, _WORK, _THREADS, _KNOWN = range(5)  # the parts of ``_seen``, in order
_THREAD_COLUMNS = tuple(f.name for f in fields(ThreadRecord))
_KNOWN_COLUMNS = ("thread_id", "post_id", "version", "author", "body_hash", "deleted")


@cache
def _seen(*, held: bool) -> Any:
    """The thread counts, the live workers and the threads with work (``_work``) as the parts
    of one query, each row marked with its part, each part's columns in their own places
    (NULL, of their type, elsewhere: a NULL's type must be given for every part to match);
    ``held``: two parts more, the rows of the threads bound as ``mine`` that the worker
    bound as ``owner`` holds (columns ``t_*``, with ``path`` and whether it has ``found``
    replies) and every version of the posts bound as
    ``posts`` in them (columns ``v_*``)."""
    threads = cast(Table, ThreadRow.__table__)
    versions = cast(Table, PostVersionRow.__table__)
    work = dict(zip((c.key for c in _WORK_COLUMNS), _WORK_COLUMNS, strict=True))
    # every column of the query (label -> a column of its type), in their order
    slots: dict[str, Any] = {"name": WorkerRow.name, "total": ThreadRow.id, "held": ThreadRow.id}
    slots |= work
    if held:
        slots |= {f"t_{c}": threads.c[c] for c in _THREAD_COLUMNS}
        slots["found"] = threads.c.needs_read  # (a boolean)
        slots |= {f"v_{c}": versions.c[c] for c in _KNOWN_COLUMNS}

    def part(number: int, given: dict[str, Any]) -> Any:
        columns = [literal_column(str(number), Integer).label("part")]
        columns += [
            (given[label] if label in given else sql_cast(null(), column.type)).label(label)
            for label, column in slots.items()
        ]
        return select(*columns)

    owned = func.count(ThreadRow.id).filter(ThreadRow.lease_owner == bindparam("owner"))
    parts = [
        part(_COUNTS, {"total": func.count(ThreadRow.id), "held": owned}).where(
            ThreadRow.forum == bindparam("forum")
        ),
        part(_WORKERS, {"name": WorkerRow.name}).where(
            WorkerRow.forum == bindparam("forum"),
            WorkerRow.seen_at >= bindparam("since", type_=WorkerRow.seen_at.type),
        ),
        _work(part(_WORK, work)),
    ]
    if held:
        mine: Any = bindparam("mine", expanding=True)
        found = select(FoundReplyRow.id).where(FoundReplyRow.thread_id == threads.c.id).exists()
        parts.append(
            part(
                _THREADS,
                {
                    **{f"t_{c}": threads.c[c] for c in _THREAD_COLUMNS},
                    "path": CampaignRow.path,
                    "found": found,
                },
            )
            .select_from(threads)
            .join(CampaignRow, CampaignRow.id == threads.c.campaign_id)
            .where(threads.c.id.in_(mine), threads.c.lease_owner == bindparam("owner"))
        )
        parts.append(
            part(_KNOWN, {f"v_{c}": versions.c[c] for c in _KNOWN_COLUMNS})
            .select_from(versions)
            .where(
                versions.c.thread_id.in_(mine),
                versions.c.post_id.in_(bindparam("posts", expanding=True)),
            )
        )
    # in no set order (the caller sorts): sorting would copy every row, a snapshot's too
    return union_all(*parts)


@cache
def _hold() -> Any:
    table = cast(Table, ThreadRow.__table__)
    return select(table).where(table.c.id == bindparam("id")).with_for_update()


@cache
def _thread_update(columns: tuple[str, ...], *, guarded: bool = False) -> Any:
    """The UPDATE of a thread's ``columns``; ``guarded``: only while the worker bound as
    ``owner_`` holds its lease, and its ``moved_to`` and ``needs_read`` are those bound."""
    table = cast(Table, ThreadRow.__table__)
    where = table.c.id == bindparam("id_")
    if guarded:
        where = (
            where
            & (table.c.lease_owner == bindparam("owner_"))
            & table.c.moved_to.is_not_distinct_from(
                bindparam("moved_to_", type_=table.c.moved_to.type)
            )
            & (table.c.needs_read == bindparam("needs_read_", type_=table.c.needs_read.type))
        )
    return (
        update(table)
        .where(where)
        .values({name: bindparam(name, type_=table.c[name].type) for name in columns})
    )
