"""Opening a database, migrating it, and the unit of work."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from sqlalchemy import inspect, text
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from pbp.store.engines import DEFAULT_TIMEOUT, server_engine, sqlite_engine, sqlite_folder
from pbp.store.revision import SCHEMA_REVISION
from pbp.store.schema import Base
from pbp.store.trouble import (
    FileWatch,
    NoDatabase,
    Place,
    StoreDamaged,
    StoreError,
    StoreGone,
    StoreUnavailable,
    hide_password,
    one_line,
)
from pbp.store.unit import LazySession, lazy_session

__all__ = [
    "DEFAULT_TIMEOUT",
    "SCHEMA_REVISION",
    "NoDatabase",
    "SchemaOutOfDate",
    "Store",
    "StoreDamaged",
    "StoreError",
    "StoreGone",
    "StoreUnavailable",
    "make_engine",
    "one_line",
]

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
BACKENDS = ("sqlite", "postgresql")  # the upserts and migrations speak these two
EXAMPLES = '"sqlite:///pbp.db" or "postgresql+psycopg://USER@HOST/DATABASE"'


# The unit of work open in this thread (or task) that the local forum's storage and the
# sessions opened inside it join: a ``transaction()`` block, or a ``session(shared=True)``.
_OPEN: ContextVar[tuple[Store, Session | LazySession | Connection] | None] = ContextVar(
    "pbp_open", default=None
)


def known_revisions() -> frozenset[str]:
    """Every migration this pbp ships (each file is named after its revision: 0001_….py)."""
    return frozenset(p.name.split("_", 1)[0] for p in (MIGRATIONS / "versions").glob("*_*.py"))


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


def parse_url(url: str) -> URL:
    """``url`` read as a database URL pbp can use, or ``StoreError`` saying what is wrong."""
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError) as exc:
        raise StoreError(
            f'"{hide_password(url)}" is not a database URL ({exc}); expected {EXAMPLES}'
        ) from None
    backend = parsed.get_backend_name()
    if backend not in BACKENDS:
        raise StoreError(
            f"the database URL {parsed.render_as_string(hide_password=True)} "
            f"is for {backend}, which pbp does not run on; pbp runs on SQLite "
            f"and PostgreSQL: {EXAMPLES}"
        )
    return parsed


def make_engine(
    url: str | URL,
    *,
    durable: bool = True,
    readonly: bool = False,
    timeout: int = DEFAULT_TIMEOUT,
    create: bool = False,
) -> Engine:
    """An engine for ``url``, every call bounded by ``timeout`` seconds (see
    ``pbp.store.engines``). An SQLite file's folder must exist, unless ``create`` (which
    makes it): a typo in the path never starts a new database in silence."""
    parsed = parse_url(url) if isinstance(url, str) else url
    shown = parsed.render_as_string(hide_password=True)
    folder = sqlite_folder(parsed)
    if folder is not None and not folder.is_dir():
        if not create:
            raise NoDatabase(
                f"there is no database at {shown}: the folder {folder} does not exist (a "
                "typo in [database] url?); to start a new database there, run "
                "`pbp db upgrade --create`"
            )
        folder.mkdir(parents=True, exist_ok=True)
    try:
        if parsed.get_backend_name() == "sqlite":
            engine = sqlite_engine(parsed, durable=durable, readonly=readonly, timeout=timeout)
        else:
            engine = server_engine(parsed, timeout=timeout)
    except ImportError as exc:  # the URL's driver is not installed
        package = getattr(exc, "name", None) or str(exc)
        raise StoreError(
            f"the database URL {shown} needs the Python package {package}, which is not "
            'installed: install it, or use "postgresql+psycopg://…" (pip install '
            '"pbp[postgres]")'
        ) from None
    except ArgumentError as exc:  # a driver SQLAlchemy does not know
        raise StoreError(
            f"the database URL {shown} names a driver SQLAlchemy does not know "
            f"({one_line(exc)}); expected {EXAMPLES}"
        ) from None
    if engine.dialect.is_async:
        engine.dispose()
        raise StoreError(
            f"the database URL {shown} names an asyncio driver "
            f"({engine.dialect.driver}); pbp needs {EXAMPLES}"
        )
    return engine


class Store:
    """One database: migrations, schema checks and units of work. Every call waits
    ``timeout`` seconds at most for the database; ``create`` makes a missing SQLite folder."""

    def __init__(
        self,
        url: str,
        *,
        durable: bool = True,
        timeout: int = DEFAULT_TIMEOUT,
        create: bool = False,
    ) -> None:
        self.url = url
        parsed = parse_url(url)
        self.timeout = timeout
        database = parsed.database or ""
        memory = parsed.get_backend_name() == "sqlite" and database in ("", ":memory:")
        self._file = Path(database) if sqlite_folder(parsed) is not None else None
        self._watch = FileWatch(self._file) if self._file is not None else None
        self.created = False  # set up anew by this process (no pbp tables were there)
        self._place = Place(url=parsed.render_as_string(hide_password=True), file=self._file)
        self.engine = make_engine(parsed, durable=durable, timeout=timeout, create=create)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._reader = (
            make_engine(parsed, durable=durable, readonly=True, timeout=timeout)
            if parsed.get_backend_name() == "sqlite" and not memory
            else self.engine  # one in-memory database, or a server that needs no such care
        )

    @property
    def shown_url(self) -> str:
        """The URL with any password hidden (for messages and logs)."""
        return self._place.url

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
        with self._answering(opening=True), self.engine.connect() as conn:
            if not inspect(conn).has_table("alembic_version"):
                return None
            found: str | None = conn.execute(
                text("SELECT version_num FROM alembic_version")
            ).scalar()
            return found

    def upgrade(self) -> tuple[str | None, str]:
        """Migrate to the newest schema; return (revision before, revision after)."""
        from alembic import command
        from alembic.util import CommandError

        before = self.current()
        try:
            with self._answering(opening=True):
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
        with self._answering(opening=True):
            Base.metadata.create_all(self.engine)

    def check_present(self) -> None:
        """Raise ``StoreGone`` if the SQLite file in use was deleted or replaced since it was
        first checked (a new, empty database would be made in its place), ``StoreDamaged`` if
        it is no longer intact (emptied, or its header overwritten). Cheap: once a poll, and
        again before replies go out."""
        if self._watch is None:
            return
        if self._watch.gone():
            raise StoreGone(
                f"the database file {self._file} is gone (deleted, moved or replaced while "
                "pbp was using it); pbp stops rather than start a new, empty database: put "
                "the file back, or point [database] url at the right one"
            )
        why = self._watch.trouble()
        if why is not None:
            raise self._place.damaged(why)

    @contextmanager
    def session(self, *, shared: bool = False) -> Iterator[Session]:
        """A unit of work: commits when the block ends, rolls back if it raises. A database
        that does not answer raises ``StoreUnavailable``, in one line.

        Inside a ``transaction()`` block (or a ``shared`` session) of this store, in the same
        thread, it is part of that unit of work instead: it commits with it, and if it
        raises, none of the unit of work is kept. ``shared``: the local forum's storage
        (``transaction()``, ``read_transaction()``) and the sessions opened inside the block
        join this one (a delivery's posts, kept with what the delivery records); it is a
        ``LazySession`` (``pbp.store.unit``), which makes its ORM session only when something
        asks for one: a live poll's plain statements need none."""
        joined = self._joined()
        if isinstance(joined, Session | LazySession):
            yield joined  # type: ignore[misc]
            return
        if shared and joined is None:  # the poll's: no ORM session until something needs one
            with self._answering(), self.engine.begin() as conn, lazy_session(conn) as unit:
                token = _OPEN.set((self, unit))
                try:
                    yield unit  # type: ignore[misc]
                finally:
                    _OPEN.reset(token)
            return
        if joined is not None:
            with (
                self._answering(),
                Session(
                    bind=joined, join_transaction_mode="rollback_only", expire_on_commit=False
                ) as session,
                session.begin(),
            ):
                yield session
            return
        with self._answering(), self._sessions() as session, session.begin():
            yield session

    def _joined(self) -> Session | LazySession | Connection | None:
        """The unit of work of this store open in this thread, if any."""
        found = _OPEN.get()
        return found[1] if found is not None and found[0] is self else None

    def _joined_connection(self) -> Connection | None:
        """The connection of the unit of work open in this thread, its objects flushed."""
        joined = self._joined()
        if isinstance(joined, Session | LazySession):
            joined.flush()
            return joined.connection()
        return joined

    @contextmanager
    def read_session(self) -> Iterator[Session]:
        """A unit of work that only reads (the web pages'): on SQLite through the reader's
        connections, so it never waits for, nor blocks, the writer."""
        with (
            self._answering(),
            Session(self._reader, expire_on_commit=False) as session,
            session.begin(),
        ):
            yield session

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """A unit of work of plain statements, no objects (the local forum's posts): a
        connection in a transaction, committed and failing as ``session()``'s, at less than
        half its cost. Inside a unit of work of this store open in this thread (a shared
        session, another such block), it is part of that one."""
        joined = self._joined_connection()
        if joined is not None:
            yield joined
            return
        with self._answering(), self.engine.begin() as conn:
            token = _OPEN.set((self, conn))
            try:
                yield conn
            finally:
                _OPEN.reset(token)

    @contextmanager
    def _answering(self, *, opening: bool = False) -> Iterator[None]:
        """A database that does not answer, went away or is damaged, as pbp's own error in
        one line (``StoreUnavailable``, ``StoreDamaged``); any other error as it is."""
        try:
            yield
        except SQLAlchemyError as exc:
            trouble = self._place.trouble(exc, opening=opening)
            if trouble is None:
                raise
            raise trouble from exc

    @contextmanager
    def read_transaction(self) -> Iterator[Connection]:
        """``transaction()`` that only reads (it may run inside another one's write); inside
        a unit of work of this store open in this thread, that one's connection (it sees
        what the unit of work wrote)."""
        joined = self._joined_connection()
        if joined is not None:
            yield joined
            return
        with self._answering(), self._reader.connect() as conn, conn.begin() as tx:
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
        if self._watch is not None:
            self._watch.close()
