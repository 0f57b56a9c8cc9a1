"""the event of a post version, kept with the version

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-06

Every post version the engine took had a row in ``post_versions`` and another in
``thread_events`` (the thread's log) with the same key (thread, post, version) and the same
time: its event's number in the log and its kind (post, edit or delete). They are now two
columns of the version's row, so that a post costs one INSERT fewer; the old events of post
versions move over and leave the log's table, which keeps the bot's own events (time passing,
a campaign moved, a sheet posted). An event that does not fit (no version row of its time, or
two events of one version) stays where it is, and is read from there as before.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

_ITS_EVENT = (
    "thread_events.thread_id = post_versions.thread_id"
    " AND thread_events.post_id = post_versions.post_id"
    " AND thread_events.version = post_versions.version"
    " AND thread_events.at = post_versions.written_at"
    " AND thread_events.kind IN ('post', 'edit', 'delete')"
)


def upgrade() -> None:
    with op.batch_alter_table("post_versions") as batch:
        batch.add_column(sa.Column("seq", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("event", sa.String(10), nullable=True))
    op.execute(
        "UPDATE post_versions SET"
        f" seq = (SELECT seq FROM thread_events WHERE {_ITS_EVENT}),"
        f" event = (SELECT kind FROM thread_events WHERE {_ITS_EVENT})"
        f" WHERE (SELECT count(*) FROM thread_events WHERE {_ITS_EVENT}) = 1"
    )
    op.execute(
        "DELETE FROM thread_events WHERE EXISTS (SELECT 1 FROM post_versions"
        " WHERE post_versions.thread_id = thread_events.thread_id"
        " AND post_versions.seq = thread_events.seq)"
    )
    op.create_index("ix_post_versions_event", "post_versions", ["thread_id", "seq"], unique=True)


def downgrade() -> None:
    op.execute(
        "INSERT INTO thread_events (thread_id, seq, kind, post_id, version, at)"
        " SELECT thread_id, seq, event, post_id, version, written_at FROM post_versions"
        " WHERE seq IS NOT NULL"
    )
    op.drop_index("ix_post_versions_event", table_name="post_versions")
    with op.batch_alter_table("post_versions") as batch:
        batch.drop_column("event")
        batch.drop_column("seq")
