"""how each post version was handled, kept with the version

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03

Every post version the bot handles had a row in ``post_versions`` and another in
``processed_posts`` with the same key (thread, post, version): the outcome (handled, failed,
skipped) and why. The outcome is now two columns of the version's row, so that a post costs
one INSERT fewer; the old rows' outcomes are copied over and their table dropped.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

_SAME_VERSION = (
    "processed_posts.thread_id = post_versions.thread_id"
    " AND processed_posts.post_id = post_versions.post_id"
    " AND processed_posts.version = post_versions.version"
)


def upgrade() -> None:
    with op.batch_alter_table("post_versions") as batch:
        batch.add_column(
            sa.Column("outcome", sa.String(20), nullable=False, server_default="handled")
        )
        batch.add_column(sa.Column("detail", sa.Text(), nullable=True))
    op.execute(
        "UPDATE post_versions SET"
        f" outcome = coalesce((SELECT outcome FROM processed_posts WHERE {_SAME_VERSION}),"
        " 'handled'),"
        f" detail = (SELECT detail FROM processed_posts WHERE {_SAME_VERSION})"
    )
    op.drop_table("processed_posts")


def downgrade() -> None:
    # every version gets a processed row again (one the bot recorded before this revision
    # had one anyway), handled when it was seen
    op.create_table(
        "processed_posts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("thread_id", sa.Integer(), nullable=False),
        sa.Column("post_id", sa.String(length=100), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("outcome", sa.String(length=20), nullable=False),
        sa.Column("detail", sa.Text(), nullable=True),
        sa.Column("handled_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["thread_id"], ["threads.id"], name=op.f("fk_processed_posts_thread_id_threads")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_processed_posts")),
        sa.UniqueConstraint(
            "thread_id", "post_id", "version", name=op.f("uq_processed_posts_thread_id")
        ),
    )
    op.execute(
        "INSERT INTO processed_posts (thread_id, post_id, version, outcome, detail, handled_at)"
        " SELECT thread_id, post_id, version, outcome, detail, seen_at FROM post_versions"
    )
    with op.batch_alter_table("post_versions") as batch:
        batch.drop_column("detail")
        batch.drop_column("outcome")
