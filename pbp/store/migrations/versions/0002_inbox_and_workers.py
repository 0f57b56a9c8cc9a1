"""inbox, found replies, workers, thread survey and re-read columns, the cursor as text

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01

The poll became ingest -> process -> deliver: what a listing shows waits in ``inbox`` for the
worker that runs its thread; ``workers`` lists the live workers that share the threads. The
Reddit cursor (the ids seen lately) outgrew ``String(200)``, which PostgreSQL enforces.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("poll_cursors", schema=None) as batch_op:
        batch_op.alter_column(
            "cursor", existing_type=sa.String(length=200), type_=sa.Text(), existing_nullable=True
        )
    with op.batch_alter_table("threads", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("needs_survey", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch_op.add_column(
            sa.Column("needs_read", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch_op.add_column(sa.Column("reread_at", sa.DateTime(), nullable=True))
        batch_op.create_index("ix_threads_due", ["next_due_at"], unique=False)
    op.create_table(
        "inbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("thread_id", sa.Integer(), nullable=False),
        sa.Column("post_id", sa.String(length=100), nullable=False),
        sa.Column("author", sa.Text(), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("edited_at", sa.DateTime(), nullable=True),
        sa.Column("deleted_at", sa.DateTime(), nullable=True),
        sa.Column("reply_to", sa.String(length=100), nullable=True),
        sa.Column("ingested_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["thread_id"], ["threads.id"], name=op.f("fk_inbox_thread_id_threads")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_inbox")),
    )
    with op.batch_alter_table("inbox", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_inbox_thread_id"), ["thread_id"], unique=False)
    op.create_table(
        "found_replies",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("thread_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("forum_id", sa.String(length=100), nullable=False),
        sa.ForeignKeyConstraint(
            ["thread_id"], ["threads.id"], name=op.f("fk_found_replies_thread_id_threads")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_found_replies")),
        sa.UniqueConstraint("thread_id", "key", name=op.f("uq_found_replies_thread_id")),
    )
    op.create_table(
        "workers",
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("forum", sa.String(length=20), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.Column("seen_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_workers")),
    )


def downgrade() -> None:
    op.drop_table("workers")
    op.drop_table("found_replies")
    with op.batch_alter_table("inbox", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_inbox_thread_id"))
    op.drop_table("inbox")
    with op.batch_alter_table("threads", schema=None) as batch_op:
        batch_op.drop_index("ix_threads_due")
        batch_op.drop_column("reread_at")
        batch_op.drop_column("needs_read")
        batch_op.drop_column("needs_survey")
    with op.batch_alter_table("poll_cursors", schema=None) as batch_op:
        batch_op.alter_column(
            "cursor", existing_type=sa.Text(), type_=sa.String(length=200), existing_nullable=True
        )
