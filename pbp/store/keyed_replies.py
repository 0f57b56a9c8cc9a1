"""The replies and edits a thread's cycle owes, written by statements that find their keys'
stored revisions themselves, so none has to be read first (``Repository.deferred``).

Each edit is one UPDATE of its key's newest row (new text, one more edit, and a posted reply
``edit-pending``); an edit of a key with no row yet, and each new reply, goes in with the new
rows, in one INSERT, each row's revision the next after its key's newest (1 for a new key).
That is what the read-first way writes, provided no key is owed twice (a later one would
depend on an earlier one of the same batch), the unit of work holds no reply as an object (a
statement would leave it stale) and there is at most one edit (several go in one UPDATE the
read-first way): ``applies`` says whether it is so.
"""

from __future__ import annotations

import typing
from collections.abc import Sequence
from datetime import datetime
from functools import cache
from typing import Any, Protocol

from sqlalchemy import Table, bindparam, case, func, insert, select, update
from sqlalchemy.orm import Session

from pbp.store.execute import run
from pbp.store.schema import ReplyRow


class OwedReply(Protocol):
    """A reply (or an edit of one) owed: where, under which key, and its text."""

    @property
    def thread_id(self) -> int: ...
    @property
    def key(self) -> str: ...
    @property
    def to(self) -> str | None: ...
    @property
    def text(self) -> str: ...
    @property
    def at(self) -> datetime: ...
    @property
    def edit(self) -> bool: ...


def new_row(o: OwedReply) -> dict[str, Any]:
    """The values of the new row of ``o``, its revision aside: pending, never tried, unedited
    (an edit of a key with no row yet goes in as its first text, in the thread)."""
    return {
        "thread_id": o.thread_id,
        "key": o.key,
        "to_post": None if o.edit else o.to,
        "text": o.text,
        "status": "pending",
        "attempts": 0,
        "edits": 0,
        "created_at": o.at,
    }


def applies(session: Session, owed: Sequence[OwedReply]) -> bool:
    """Whether ``write`` writes ``owed`` as the read-first way would."""
    keys = {(o.thread_id, o.key) for o in owed}
    return (
        len(keys) == len(owed)
        and sum(o.edit for o in owed) <= 1
        and not any(isinstance(o, ReplyRow) for o in (*session.identity_map.values(), *session.new))
    )


def write(session: Session, owed: Sequence[OwedReply]) -> list[Any]:
    """Write ``owed`` (``applies`` holds), in their order; every row written (edited or new),
    as it stands now, in no set order."""
    written: list[Any] = []
    unstored: set[int] = set()  # edits of keys with no row: they go in as new rows
    for i, o in enumerate(owed):
        if o.edit:
            edited = run(
                session, _edit_newest(), {"thread_id_": o.thread_id, "key_": o.key, "text_": o.text}
            ).all()
            written += edited
            if not edited:
                unstored.add(i)
    new = [
        {**new_row(o), "thread_id_": o.thread_id, "key_": o.key}
        for i, o in enumerate(owed)
        if not o.edit or i in unstored
    ]
    if new:
        written += run(session, _insert_next_revision(), new).all()
    return written


def _table() -> Table:
    return typing.cast(Table, ReplyRow.__table__)


def _newest(older: Any) -> Any:
    return (older.c.thread_id == bindparam("thread_id_")) & (older.c.key == bindparam("key_"))


def edit_posted(session: Session, o: OwedReply, *, at: datetime) -> Any:
    """Edit the newest row of ``o``'s key as ``write`` does, but a posted one stays posted,
    its attempt counted as the forum's edit of it records it (``Repository.mark_all_sent``):
    for an edit sent in this same unit of work, after this. The row as it stands now (None:
    the key has no row)."""
    return run(
        session,
        _edit_newest(posted=True),
        {"thread_id_": o.thread_id, "key_": o.key, "text_": o.text, "at_": at},
    ).first()


def insert_posted(
    session: Session, rows: Sequence[tuple[OwedReply, str]], *, at: datetime
) -> list[Any]:
    """Insert new rows for ``rows`` (each owed reply with its id on the forum) as posted and
    tried once at ``at``, as ``write`` and the sent marks of their delivery would leave them,
    each with the next revision of its key; every row, as it stands now."""
    values = [
        {
            **new_row(o),
            "status": "posted",
            "forum_reply_id": forum_id,
            "attempts": 1,
            "tried_at": at,
            "posted_at": at,
            "thread_id_": o.thread_id,
            "key_": o.key,
        }
        for o, forum_id in rows
    ]
    return run(session, _insert_next_revision(), values).all() if values else []


@cache
def _edit_newest(*, posted: bool = False) -> Any:
    table = _table()
    older = table.alias("older")
    newest = (
        select(older.c.id)
        .where(_newest(older))
        .order_by(older.c.revision.desc())
        .limit(1)
        .scalar_subquery()
    )
    was_posted = table.c.status == "posted"
    values: dict[str, Any] = {"text": bindparam("text_"), "edits": table.c.edits + 1}
    if posted:  # (and sent: what the sent mark writes, ``Repository.mark_all_sent``)
        at = bindparam("at_", type_=table.c.tried_at.type)  # through UtcDateTime
        values |= {
            "attempts": case((was_posted, table.c.attempts + 1), else_=table.c.attempts),
            "tried_at": case(
                (was_posted, func.coalesce(table.c.tried_at, at)), else_=table.c.tried_at
            ),
            "last_error": case((was_posted, None), else_=table.c.last_error),
            "posted_at": case(
                (was_posted, func.coalesce(table.c.posted_at, at)), else_=table.c.posted_at
            ),
        }
    else:
        values["status"] = case((was_posted, "edit-pending"), else_=table.c.status)
    return update(table).where(table.c.id == newest).values(values).returning(*table.c)


@cache
def _insert_next_revision() -> Any:
    table = _table()
    older = table.alias("older")
    revision = (
        select(func.coalesce(func.max(older.c.revision), 0) + 1)
        .where(_newest(older))
        .scalar_subquery()
    )
    return insert(table).values(revision=revision).returning(*table.c)
