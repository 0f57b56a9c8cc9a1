"""where a thread's campaign moved

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02

A campaign runs in one thread at a time (SPEC §1: over several threads, one after another).
When its GM binds a new thread with ``!campaign``, the thread it ran in before is told and
read no more: ``moved_to`` is the new thread's key.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("threads") as batch:
        batch.add_column(sa.Column("moved_to", sa.String(200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("threads") as batch:
        batch.drop_column("moved_to")
