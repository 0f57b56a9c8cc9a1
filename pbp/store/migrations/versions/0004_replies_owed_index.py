"""the replies a thread still owes, found by index

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01

Every delivery reads the replies of its thread that are not posted yet. By the thread alone,
that read went through every reply the thread ever had (a long thread got slower with each
round); by thread and status it reads only the few still owed.
"""

from __future__ import annotations

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_replies_owed", "replies", ["thread_id", "status"])


def downgrade() -> None:
    op.drop_index("ix_replies_owed", table_name="replies")
