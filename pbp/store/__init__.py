"""The store: the only package that imports SQLAlchemy (rows, repository, unit of work,
Alembic migrations). SQLite by default; PostgreSQL works the same."""

from pbp.store.database import SchemaOutOfDate, Store

__all__ = ["SchemaOutOfDate", "Store"]
