"""Running a built statement on a unit of work's connection.

``Session.execute`` puts the ORM's layer around every statement (autoflush, events, the result
made ORM-aware), and ``Connection.execute`` an execution context: on SQLite each costs several
times what the statement does. The store's statements that read or write plain rows (values
in, values out, no objects) run through here instead, as SQL compiled once
(``pbp.store.compiled``), on the session's own connection and transaction, so they see and
commit with everything else of the unit of work.

What ``Session.execute`` would have flushed first is flushed here too, unless ``flush=False``
says that nothing the session could hold pending changes the statement's answer (its tables
are only ever written by statements, never through objects).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.orm import Session

from pbp.store.compiled import Rows, execute
from pbp.store.unit import LazySession

Params = Mapping[str, Any] | Sequence[Mapping[str, Any]]


def run(
    session: Session, statement: Any, params: Params | None = None, *, flush: bool = True
) -> Rows:
    """Run ``statement`` with ``params`` (a list of them: once per row, in one go)."""
    if flush:
        session.flush()  # nothing to do (and next to no cost) when nothing is pending
    return execute(connection_of(session), statement, params)


def connection_of(session: Session) -> Connection:
    """The connection of the session's transaction (``Session.connection()``, asked once per
    transaction: it costs a tenth of a statement each time)."""
    if isinstance(session, LazySession):
        return session.conn
    held = session.info.get(_CONNECTION)
    if held is not None and held[0] is session.get_transaction():
        conn: Connection = held[1]
        return conn
    conn = session.connection()  # (begins the session's transaction if need be)
    session.info[_CONNECTION] = (session.get_transaction(), conn)
    return conn


_CONNECTION = "pbp.connection"  # the key of session.info under which it is kept
