"""the thread's scene, kept in the thread's row

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-06

The scene after the last poll (its kind, the open round, its deadline) had a table of its own,
``scenes``, one row a thread, written by a statement of its own whenever a round closed or a
deadline was set. It is now three columns of the thread's row (``scene_kind``,
``scene_round``, ``scene_deadline``), written with the rest of the row by the one UPDATE a
cycle ends with; the rows of ``scenes`` move over and the table goes.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

_ITS_SCENE = "FROM scenes WHERE scenes.thread_id = threads.id"


def upgrade() -> None:
    with op.batch_alter_table("threads") as batch:
        batch.add_column(sa.Column("scene_kind", sa.String(20), nullable=True))
        batch.add_column(sa.Column("scene_round", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("scene_deadline", sa.DateTime(), nullable=True))
    op.execute(
        "UPDATE threads SET"
        f" scene_kind = (SELECT kind {_ITS_SCENE}),"
        f" scene_round = (SELECT round_number {_ITS_SCENE}),"
        f" scene_deadline = (SELECT deadline {_ITS_SCENE})"
    )
    op.drop_table("scenes")


def downgrade() -> None:
    op.create_table(
        "scenes",
        sa.Column("thread_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("round_number", sa.Integer(), nullable=True),
        sa.Column("deadline", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ["thread_id"], ["threads.id"], name=op.f("fk_scenes_thread_id_threads")
        ),
        sa.PrimaryKeyConstraint("thread_id", name=op.f("pk_scenes")),
    )
    op.execute(
        "INSERT INTO scenes (thread_id, kind, round_number, deadline)"
        " SELECT id, scene_kind, scene_round, scene_deadline FROM threads"
        " WHERE scene_kind IS NOT NULL"
    )
    # (not a batch: on SQLite it would make the table anew, which the tables that refer to it
    # refuse; SQLite 3.35 and later drops a column itself)
    for column in ("scene_deadline", "scene_round", "scene_kind"):
        op.execute(f"ALTER TABLE threads DROP COLUMN {column}")
