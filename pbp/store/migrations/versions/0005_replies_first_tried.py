"""when each reply was first sent

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01

A reply whose send may have reached the forum (its answer was lost) is looked for on the forum
before it is sent again. Where the forum lists the bot's own posts newest first, the search
goes back to the moment of the first attempt, however many posts came after it: that moment is
kept here. Replies already tried before this revision have none; their search goes back to
when they were queued.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("replies") as batch:
        batch.add_column(sa.Column("tried_at", sa.DateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("replies") as batch:
        batch.drop_column("tried_at")
