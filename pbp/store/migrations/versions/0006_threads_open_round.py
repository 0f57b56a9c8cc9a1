"""what the re-reads need of each thread's open round

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01

On a forum whose listing shows no edits, the open round's posts are read again before a close,
and the posts that got an error reply now and then. Each poll reads what falls due for every
thread at once (Reddit: 100 posts a request), so each thread keeps what that needs: its open
round's live posts, which of them got an error reply, and its deadline (``open_round``), and
the threads are found by when their re-read falls due (an index on ``reread_at``).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("threads") as batch:
        batch.add_column(sa.Column("open_round", sa.Text(), nullable=True))
        batch.create_index("ix_threads_reread", ["reread_at"])


def downgrade() -> None:
    with op.batch_alter_table("threads") as batch:
        batch.drop_index("ix_threads_reread")
        batch.drop_column("open_round")
