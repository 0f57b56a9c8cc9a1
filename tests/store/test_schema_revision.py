"""The schema revision pbp checks without loading Alembic is Alembic's head."""

from __future__ import annotations

from alembic.script import ScriptDirectory

from pbp.store.database import MIGRATIONS, SCHEMA_REVISION, Store, known_revisions


def test_the_revision_pbp_expects_is_the_newest_migration(tmp_path: object) -> None:
    store = Store("sqlite://")
    script = ScriptDirectory.from_config(store._alembic())
    assert script.get_current_head() == SCHEMA_REVISION == store.head()
    assert known_revisions() == {rev.revision for rev in script.walk_revisions()}
    assert (MIGRATIONS / "versions").is_dir()
