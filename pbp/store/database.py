"""Opening a database, migrating it, and the unit of work."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event, inspect, text
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import DBAPIError, DisconnectionError, OperationalError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

from pbp.errors import PbpError
from pbp.store.schema import Base

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
SCHEMA_REVISION = "0006"  # the newest migration; a test checks it against Alembic's head


def known_revisions() -> frozenset[str]:
    """Every migration this pbp ships (each file is named after its revision: 0001_….py)."""
    return frozenset(p.name.split("_", 1)[0] for p in (MIGRATIONS / "versions").glob("*_*.py"))


class StoreError(PbpError):
    """The database cannot be used (unreachable, or not a pbp database)."""


class StoreUnavailable(StoreError):
    """The database did not answer (a server down, a file locked): trying later may work."""


class StoreGone(StoreError):
    """The SQLite file the bot was using is gone: going on would start a new database."""


def one_line(exc: BaseException) -> str:
    """A database error in one line: the driver's own words, without SQLAlchemy's
    statement echo and background link."""
    cause = getattr(exc, "orig", None) or exc
    text = " ".join(str(cause).split())
    return text.split(" (Background on this error at:")[0].split(" [SQL: ")[0]


class SchemaOutOfDate(StoreError):
    """The database's schema is older (or newer) than this pbp's."""

    def __init__(self, *, url: str, current: str | None, head: str) -> None:
        self.url = url
        self.current = current
        self.head = head
        if current is not None and current not in known_revisions():
            message = (
                f"the database {url} is at revision {current}, which this pbp does not know "
                f"(its newest is {head}): it was made by a newer pbp, or is not a pbp database"
            )
        else:
            have = f"revision {current}" if current else "no pbp tables"
            message = (
                f"the database {url} has {have}, this pbp needs revision {head}: "
                f"run `pbp db upgrade` first"
            )
        super().__init__(message)


def _sqlite_pragmas(durable: bool) -> Callable[[Any, Any], None]:
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=10000")  # `pbp post` beside a running bot
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


def make_engine(url: str, *, durable: bool = True, readonly: bool = False) -> Engine:
    """An engine for ``url``; SQLite files get WAL, a busy timeout and transactions that
    take the write lock when they begin (``readonly``: that never write, and never wait)."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database or ""
        if database and database != ":memory:":
            Path(database).parent.mkdir(parents=True, exist_ok=True)
            engine = create_engine(url)
        else:  # one connection for the whole process, or every session sees a new database
            engine = create_engine(url, poolclass=StaticPool,
                                   connect_args={"check_same_thread": False})
        event.listen(engine, "connect", _sqlite_pragmas(durable))
        event.listen(engine, "begin", _begin_deferred if readonly else _begin_immediate)
        return engine
    engine = create_engine(url)
    event.listen(engine, "checkin", _note_checkin)
    event.listen(engine, "checkout", _ping_after_idle)
    return engine


IDLE_PING = 10.0  # seconds a pooled server connection may rest before it is tried again


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


class Store:
    """One database: migrations, schema checks and units of work."""

    def __init__(self, url: str, *, durable: bool = True) -> None:
        self.url = url
        parsed = make_url(url)
        database = parsed.database or ""
        self._file = (Path(database) if parsed.get_backend_name() == "sqlite"
                      and database not in ("", ":memory:") else None)
        self._file_id: tuple[int, int] | None = None  # the SQLite file's (device, inode)
        self.created = False  # set up anew by this process (no pbp tables were there)
        if self._file is not None and self._file.exists():
            found = self._file.stat()
            self._file_id = (found.st_dev, found.st_ino)
        self.engine = make_engine(url, durable=durable)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        memory = make_url(url).get_backend_name() == "sqlite" and make_url(url).database in (
            None, "", ":memory:",
        )
        self._reader = (
            make_engine(url, durable=durable, readonly=True)
            if make_url(url).get_backend_name() == "sqlite" and not memory
            else self.engine  # one in-memory database, or a server that needs no such care
        )

    @property
    def shown_url(self) -> str:
        """The URL with any password hidden (for messages and logs)."""
        return make_url(self.url).render_as_string(hide_password=True)

    def _alembic(self) -> Any:
        from alembic.config import Config as AlembicConfig  # only migrations need Alembic

        cfg = AlembicConfig()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        cfg.attributes["engine"] = self.engine
        return cfg

    def head(self) -> str:
        """The newest migration this pbp knows."""
        return SCHEMA_REVISION

    def current(self) -> str | None:
        """The migration the database is at (None: no pbp tables yet)."""
        try:
            with self.engine.connect() as conn:
                if not inspect(conn).has_table("alembic_version"):
                    return None
                return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
        except SQLAlchemyError as exc:
            raise StoreUnavailable(
                f"cannot open the database {self.shown_url}: {one_line(exc)}"
            ) from exc

    def upgrade(self) -> tuple[str | None, str]:
        """Migrate to the newest schema; return (revision before, revision after)."""
        from alembic import command
        from alembic.util import CommandError

        before = self.current()
        try:
            command.upgrade(self._alembic(), "head")
        except CommandError as exc:  # a revision this pbp does not know: no traceback
            raise StoreError(
                f"cannot upgrade the database {self.shown_url}: it is at revision {before}, "
                f"which this pbp does not know (its newest is {self.head()}); the database "
                f"was made by a newer pbp, or is not a pbp database ({exc})"
            ) from exc
        return before, self.head()

    def check(self) -> None:
        """Raise ``SchemaOutOfDate`` unless the schema is the newest."""
        current, head = self.current(), self.head()
        if current != head:
            raise SchemaOutOfDate(url=self.shown_url, current=current, head=head)

    def create_schema(self) -> None:
        """Every table at once, without Alembic: for a database that lives no longer than the
        process (a replay's, in memory), and fast fixtures (the contract suite migrates)."""
        Base.metadata.create_all(self.engine)

    def create_for_tests(self) -> None:
        """Every table at once, without Alembic (fast fixtures; the contract suite migrates)."""
        self.create_schema()

    def check_present(self) -> None:
        """Raise ``StoreGone`` if the SQLite file in use was deleted or replaced since it was
        first checked (a new, empty database would be made in its place)."""
        if self._file is None:
            return
        try:
            found = self._file.stat()
        except FileNotFoundError:
            found = None
        if found is not None and self._file_id is None:
            self._file_id = (found.st_dev, found.st_ino)
            return
        if found is None or (found.st_dev, found.st_ino) != self._file_id:
            raise StoreGone(
                f"the database file {self._file} is gone (deleted, moved or replaced while "
                "pbp was using it); pbp stops rather than start a new, empty database: put "
                "the file back, or point [database] url at the right one"
            )

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A unit of work: commits when the block ends, rolls back if it raises. A database
        that does not answer raises ``StoreUnavailable``, in one line."""
        with self._answering(), self._sessions() as session, session.begin():
            yield session

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """A unit of work of plain statements, no objects (the local forum's posts): a
        connection in a transaction, committed and failing as ``session()``'s, at less than
        half its cost."""
        with self._answering(), self.engine.begin() as conn:
            yield conn

    @contextmanager
    def _answering(self) -> Iterator[None]:
        """A database that does not answer, or went away, as ``StoreUnavailable``."""
        try:
            yield
        except OperationalError as exc:
            raise StoreUnavailable(f"the database {self.shown_url} failed: {one_line(exc)}"
                                   ) from exc
        except DBAPIError as exc:
            if exc.connection_invalidated:
                raise StoreUnavailable(f"the database {self.shown_url} went away: "
                                       f"{one_line(exc)}") from exc
            raise

    @contextmanager
    def read_transaction(self) -> Iterator[Connection]:
        """``transaction()`` that only reads (it may run inside another one's write)."""
        with self._reader.connect() as conn, conn.begin() as tx:
            yield conn
            tx.rollback()

    @property
    def engines(self) -> tuple[Engine, ...]:
        """Every engine this store talks through (SQLite: a writer and a reader)."""
        return (self.engine,) if self._reader is self.engine else (self.engine, self._reader)

    def dispose(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()
        if self._reader is not self.engine:
            self._reader.dispose()
