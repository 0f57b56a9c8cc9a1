"""INSERT … ON CONFLICT in the dialect of the session's database (SQLite and PostgreSQL both
have it): rows several workers may write at the same moment are written without a race and
without an IntegrityError."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

Row = Mapping[str, Any]


def insert_new(session: Session, table: Any, values: Row | Sequence[Row], *,
               keys: Sequence[str]) -> None:
    """Insert ``values`` (one row or many), skipping any row whose ``keys`` exist already."""
    if not values:
        return
    insert = dialect_insert(session)
    session.execute(insert(table).values(values).on_conflict_do_nothing(index_elements=keys))


def upsert(session: Session, table: Any, values: Mapping[str, Any], *, keys: Sequence[str],
           update: Sequence[str]) -> None:
    """Insert one row, or update the ``update`` columns of the row with the same ``keys``."""
    insert = dialect_insert(session)
    statement = insert(table).values(values)
    excluded = statement.excluded
    session.execute(statement.on_conflict_do_update(
        index_elements=keys, set_={name: getattr(excluded, name) for name in update},
    ))


def dialect_insert(session: Session) -> Any:
    """``insert`` of the session's dialect (it has ON CONFLICT and RETURNING)."""
    name = session.get_bind().dialect.name
    if name == "postgresql":
        return postgresql.insert
    if name == "sqlite":
        return sqlite.insert
    raise NotImplementedError(f"pbp runs on SQLite and PostgreSQL, not on {name}")
