"""The poll's unit of work: a connection in a transaction, and an ORM session only once
something asks for one.

A poll of a live bot writes and reads plain rows only (``pbp.store.execute``): the ORM's
session around them would cost about a twentieth of the poll (its own transaction's
book-keeping, its flushes of nothing, its close). ``LazySession`` stands for that session:
what the store's plain statements ask of it (the connection, a flush, the objects it holds
and those it has pending) it answers from the connection alone while it holds no session,
and anything else makes the session, joined to the same connection and its transaction (as
a session opened inside a ``Store.transaction()`` block is), and asks it. Whatever the
session then holds is flushed before the unit of work commits, with it; if the unit of work
fails, none of it is kept.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.orm import Session


class LazySession:
    """An ORM session on ``conn`` (in its transaction), made at the first use that needs
    one (every attribute of a ``Session`` it does not answer itself is the session's)."""

    __slots__ = ("_orm", "conn")

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self._orm: Session | None = None

    @property
    def orm(self) -> Session:
        """The session, made now if need be."""
        if self._orm is None:
            self._orm = Session(
                bind=self.conn, join_transaction_mode="rollback_only", expire_on_commit=False
            )
        return self._orm

    def __getattr__(self, name: str) -> Any:
        return getattr(self.orm, name)

    # -- what the store's plain statements ask, answered without a session -----------------

    def connection(self) -> Connection:
        return self.conn

    def get_bind(self, *_args: Any, **_kwargs: Any) -> Connection:
        return self.conn

    def flush(self) -> None:
        if self._orm is not None:
            self._orm.flush()

    @property
    def identity_map(self) -> Any:
        return self._orm.identity_map if self._orm is not None else {}

    @property
    def new(self) -> Any:
        return self._orm.new if self._orm is not None else ()

    @property
    def no_autoflush(self) -> Any:
        return self._orm.no_autoflush if self._orm is not None else nullcontext()

    # -- the end of the unit of work ---------------------------------------------------------

    def finish(self) -> None:
        """Before the commit: what the session holds, written (its objects stay readable)."""
        if self._orm is not None:
            self._orm.commit()  # (its flush: the connection's transaction is the caller's)

    def close(self) -> None:
        """The session, if one was made, let go."""
        if self._orm is not None:
            self._orm.close()


@contextmanager
def lazy_session(conn: Connection) -> Iterator[LazySession]:
    """A ``LazySession`` on ``conn`` for the block: flushed when it ends, let go either way
    (committing or rolling back the connection's transaction is the caller's)."""
    unit = LazySession(conn)
    try:
        yield unit
        unit.finish()
    finally:
        unit.close()
