"""The store: the only package that imports SQLAlchemy (rows, repository, unit of work,
Alembic migrations). SQLite by default; PostgreSQL works the same."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pbp.store.database import SchemaOutOfDate, Store

__all__ = ["SchemaOutOfDate", "Store"]


def __getattr__(name: str) -> Any:
    """``Store`` and ``SchemaOutOfDate``, loaded on first use: the idle check of
    `pbp poll --once` (``pbp.store.idle``) is in this package and must not load SQLAlchemy."""
    if name in __all__:
        from pbp.store import database

        return getattr(database, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
