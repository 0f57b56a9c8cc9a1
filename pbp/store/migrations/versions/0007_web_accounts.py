"""the web pages' accounts and keys (`pbp serve`, `pbp user add`)

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02

``pbp serve`` lets the local forum's users sign in: ``web_accounts`` holds each account's
argon2 hash (never a password) and whether it is a GM's. ``web_keys`` holds the server's
signing key, made on first use, so every server process and ``pbp serve link`` sign alike,
and the nonces of GM sign-in links already used (a link signs in once).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "web_accounts",
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("folded", sa.String(length=100), nullable=False),
        sa.Column("password_hash", sa.String(length=300), nullable=False),
        sa.Column("gm", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_web_accounts")),
        sa.UniqueConstraint("folded", name=op.f("uq_web_accounts_folded")),
    )
    op.create_table(
        "web_keys",
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("value", sa.String(length=300), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_web_keys")),
    )


def downgrade() -> None:
    op.drop_table("web_keys")
    op.drop_table("web_accounts")
