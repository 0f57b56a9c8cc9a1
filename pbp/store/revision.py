"""The schema revision this pbp's tables are at, in a module of its own: the idle check of
`pbp poll --once` (``pbp.store.idle``) compares it with the database's without loading
SQLAlchemy or Alembic."""

SCHEMA_REVISION = "0011"  # the newest migration; a test checks it against Alembic's head
