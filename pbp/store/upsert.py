"""INSERT … ON CONFLICT in the dialect of the session's database (SQLite and PostgreSQL both
have it): rows several workers may write at the same moment are written without a race and
without an IntegrityError.

SQLAlchemy's PostgreSQL dialect is imported only for a PostgreSQL database: it brings in the
asyncpg driver's dialect and asyncio, which a SQLite database never needs."""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from sqlalchemy.dialects import sqlite
from sqlalchemy.orm import Session

from pbp.store.execute import run

Row = Mapping[str, Any]


def insert_new(
    session: Session, table: Any, values: Row | Sequence[Row], *, keys: Sequence[str]
) -> None:
    """Insert ``values`` (one row or many), skipping any row whose ``keys`` exist already."""
    if not values:
        return
    rows = [values] if isinstance(values, Mapping) else list(values)
    statement = _statement(session.get_bind().dialect.name, table, tuple(keys), None)
    run(session, statement, rows)


def upsert(
    session: Session,
    table: Any,
    values: Mapping[str, Any],
    *,
    keys: Sequence[str],
    update: Sequence[str],
) -> None:
    """Insert one row, or update the ``update`` columns of the row with the same ``keys``."""
    statement = _statement(session.get_bind().dialect.name, table, tuple(keys), tuple(update))
    run(session, statement, dict(values))


@cache
def _statement(
    dialect: str, table: Any, keys: tuple[str, ...], update: tuple[str, ...] | None
) -> Any:
    """The INSERT … ON CONFLICT, built once per table and shape (building one costs more
    than running it); the values are bound when it runs (``update`` None: do nothing)."""
    statement = dialect_insert(dialect)(table)
    if update is None:
        return statement.on_conflict_do_nothing(index_elements=list(keys))
    excluded = statement.excluded
    return statement.on_conflict_do_update(
        index_elements=list(keys),
        set_={name: getattr(excluded, name) for name in update},
    )


def dialect_insert(name: str) -> Any:
    """``insert`` of the dialect called ``name`` (it has ON CONFLICT and RETURNING)."""
    if name == "postgresql":  # imported here, the first time a PostgreSQL database needs it
        return importlib.import_module("sqlalchemy.dialects.postgresql").insert
    if name == "sqlite":
        return sqlite.insert
    raise NotImplementedError(f"pbp runs on SQLite and PostgreSQL, not on {name}")
