"""private messages: the outbox's recipient and subject, the local forum's messages

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01

The GM's full view under hide-npcs, a player's own ``!sheet private`` and ``!preview`` go to
one user privately. They are outbox rows like the replies (``to_user`` set), so they are sent
exactly once the same way; the local forum keeps them in ``local_messages``.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("replies", schema=None) as batch_op:
        batch_op.add_column(sa.Column("to_user", sa.String(length=200), nullable=True))
        batch_op.add_column(sa.Column("subject", sa.String(length=300), nullable=True))
    op.create_table(
        "local_messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("thread", sa.String(length=200), nullable=False),
        sa.Column("recipient", sa.String(length=200), nullable=False),
        sa.Column("subject", sa.String(length=300), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("sent_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_local_messages")),
        sa.UniqueConstraint("thread", "recipient", "key", name=op.f("uq_local_messages_thread")),
    )
    with op.batch_alter_table("local_messages", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_local_messages_recipient"), ["recipient"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("local_messages", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_local_messages_recipient"))
    op.drop_table("local_messages")
    with op.batch_alter_table("replies", schema=None) as batch_op:
        batch_op.drop_column("subject")
        batch_op.drop_column("to_user")
