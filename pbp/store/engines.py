"""SQLAlchemy engines for the two databases pbp runs on, each bounded in time.

No call to the database may block pbp for longer than ``timeout`` seconds:

- SQLite waits for another process's write lock ``timeout`` seconds (``busy_timeout``).
- PostgreSQL gets libpq's ``connect_timeout``, TCP keepalives and ``tcp_user_timeout`` (a
  dead peer or a network that drops packets is noticed by the kernel), a server-side
  ``statement_timeout`` a second shorter than ``timeout`` (a slow statement is cancelled by
  the server and the connection stays usable), and, with psycopg 3, a client-side limit on
  every wait for the server: a server that accepts connections and then never answers (a
  hung host, a firewall dropping its packets both ways) cannot help with any of the above,
  so the connection gives up after ``timeout`` seconds, is closed, and the call fails with
  ``NoAnswer``.
"""

from __future__ import annotations

import atexit
import time
import weakref
from collections.abc import Callable
from contextlib import suppress
from functools import cache
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event
from sqlalchemy.engine import URL, Engine
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.pool import StaticPool

DEFAULT_TIMEOUT = 10  # seconds: the longest one call waits for the database by default
IDLE_PING = 10.0  # seconds a pooled server connection may rest before it is tried again
LIBPQ_DRIVERS = ("psycopg", "psycopg2")  # the drivers that take libpq's connection settings

# every engine made here while it lives: its pooled connections are closed at the process's end
_MADE: weakref.WeakSet[Engine] = weakref.WeakSet()


@atexit.register
def _close_at_end() -> None:
    """The process ends: each engine's pooled connections are closed, as the interpreter's
    teardown would close them, and `pbp` ends without that teardown (``pbp.cli.leaving``).
    The last connection to a SQLite file closed moves its WAL into the database and removes
    the -wal and -shm files beside it; a server's hears the connection end."""
    for engine in list(_MADE):
        with suppress(Exception):  # (a server gone meanwhile: nothing left to close)
            engine.dispose()


def sqlite_engine(url: URL, *, durable: bool, readonly: bool, timeout: int) -> Engine:
    """An SQLite engine: WAL, a busy timeout and transactions that take the write lock when
    they begin (``readonly``: that never write, and never wait)."""
    database = url.database or ""
    if database and database != ":memory:":
        engine = create_engine(url)
    else:  # one connection for the whole process, or every session sees a new database
        engine = create_engine(url, poolclass=StaticPool, connect_args={"check_same_thread": False})
    event.listen(engine, "connect", _sqlite_pragmas(durable=durable, timeout=timeout))
    event.listen(engine, "begin", _begin_deferred if readonly else _begin_immediate)
    _MADE.add(engine)
    return engine


def server_engine(url: URL, *, timeout: int) -> Engine:
    """An engine on a database server; PostgreSQL through libpq is bounded in time."""
    engine = create_engine(url)
    if url.get_backend_name() == "postgresql" and engine.dialect.driver in LIBPQ_DRIVERS:
        event.listen(engine, "do_connect", _bounded_connect(engine.dialect.driver, timeout))
    event.listen(engine, "checkin", _note_checkin)
    event.listen(engine, "checkout", _ping_after_idle)
    _MADE.add(engine)
    return engine


def _sqlite_pragmas(*, durable: bool, timeout: int) -> Callable[[Any, Any], None]:
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        # `pbp post` beside a running bot waits for its write lock, this long at most
        cursor.execute(f"PRAGMA busy_timeout={timeout * 1000}")
        cursor.execute("PRAGMA journal_mode=WAL")
        # WAL with NORMAL survives the process dying; a throw-away replay needs no syncing
        cursor.execute(f"PRAGMA synchronous={'NORMAL' if durable else 'OFF'}")
        cursor.close()
        # pysqlite would start a transaction only at the first write, so what a unit of work
        # read before it could be stale by then; pbp begins every one itself (below)
        dbapi_connection.isolation_level = None

    return on_connect


def _begin_immediate(conn: Any) -> None:
    """Every unit of work on SQLite takes the write lock at once: two processes (the bot and
    `pbp post`) never read the same state and then both write from it. (Straight to the
    driver: SQLAlchemy has nothing to add to a BEGIN, and every unit of work sends one.)"""
    conn.connection.driver_connection.execute("BEGIN IMMEDIATE")


def _begin_deferred(conn: Any) -> None:
    """A read-only unit of work: a consistent snapshot that never waits for a writer (WAL)."""
    conn.connection.driver_connection.execute("BEGIN")


def libpq_settings(params: dict[str, Any], *, timeout: int) -> dict[str, Any]:
    """``params`` (the connection's, from the URL) with pbp's limits added; a setting the URL
    gives itself is kept as it is."""
    settings = dict(params)
    settings.setdefault("connect_timeout", max(2, timeout))  # libpq's own minimum is 2
    settings.setdefault("keepalives", 1)
    settings.setdefault("keepalives_idle", max(1, timeout))
    settings.setdefault("keepalives_interval", max(1, timeout // 3))
    settings.setdefault("keepalives_count", 3)
    settings.setdefault("tcp_user_timeout", timeout * 1000)  # ms: sent data never acknowledged
    options = str(settings.get("options") or "")
    if "statement_timeout" not in options:
        # a second before the client gives up, so the server's own cancel comes first
        limit = f"-c statement_timeout={max(1, timeout - 1) * 1000}"
        settings["options"] = f"{options} {limit}".strip()
    return settings


def _bounded_connect(driver: str, timeout: int) -> Callable[..., Any]:
    """SQLAlchemy's ``do_connect`` hook: the driver's connection, opened with pbp's limits."""

    def connect(_dialect: Any, _record: Any, cargs: Any, cparams: dict[str, Any]) -> Any:
        cparams.update(libpq_settings(cparams, timeout=timeout))
        if driver != "psycopg":
            return None  # psycopg2 blocks inside libpq: the settings are all it gets
        return answering_connection(timeout).connect(*cargs, **cparams)

    return connect


@cache
def answering_connection(seconds: int) -> Any:
    """A psycopg 3 connection class whose every wait for the server lasts ``seconds`` at most
    (psycopg is imported only here: it is an optional dependency)."""
    import psycopg
    from psycopg import errors

    class NoAnswer(psycopg.OperationalError):
        """The server did not answer in time. The connection is closed (where it stood in the
        protocol is unknown), so the pool drops it."""

        no_answer_after = seconds

    class AnsweringConnection(psycopg.Connection):
        @classmethod
        def connect(cls, *args: Any, **kwargs: Any) -> Any:
            try:
                return super().connect(*args, **kwargs)
            except errors.ConnectionTimeout as exc:  # libpq's connect_timeout ran out
                raise NoAnswer(f"no answer within {seconds} s (connecting)") from exc

        def wait(self, gen: Any, interval: float = 0.1, timeout: float | None = None) -> Any:
            try:
                return super().wait(gen, interval, seconds if timeout is None else timeout)
            except errors._WaitTimeout as exc:  # psycopg's own, when the limit runs out
                self.close()
                raise NoAnswer(f"no answer within {seconds} s") from exc

    return AnsweringConnection


def _note_checkin(_dbapi_connection: Any, record: Any) -> None:
    record.info["rested_from"] = time.monotonic()


def _ping_after_idle(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
    """A connection that rested in the pool is tried before use (a server restarted meanwhile
    has dropped it: the pool then opens a new one). One poll's units of work follow each other
    closely, so they cost no round trip each, as a ping at every checkout would."""
    rested_from = record.info.get("rested_from")
    if rested_from is None or time.monotonic() - rested_from < IDLE_PING:
        return
    try:
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("SELECT 1")
        finally:
            cursor.close()
        dbapi_connection.rollback()  # the ping's own transaction, if the driver opened one
    except Exception as exc:  # the driver's own error: the connection is gone
        raise DisconnectionError(f"a pooled connection was dropped: {exc}") from exc


def sqlite_folder(url: URL) -> Path | None:
    """The folder of an SQLite database file (None: in memory, or not SQLite)."""
    database = url.database or ""
    if (
        url.get_backend_name() != "sqlite"
        or database in ("", ":memory:")
        or database.startswith("file:")
    ):
        return None
    return Path(database).parent
