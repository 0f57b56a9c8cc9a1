"""The tables. Times are stored as naive UTC and read back as aware UTC on every database."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.dialects import sqlite
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class UtcDateTime(TypeDecorator[datetime]):
    """An aware UTC datetime, whatever the database keeps."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("pbp stores aware datetimes only")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        return None if value is None else value.replace(tzinfo=UTC)

    # On SQLite a time is text. The two steps of each way (to naive UTC, then to SQLAlchemy's
    # text; from the text, then to aware UTC) are done in one: a poll writes hundreds of times.

    def bind_processor(self, dialect: Dialect) -> Any:
        if not _sqlite_text_times(self, dialect):
            return super().bind_processor(dialect)
        to_naive = self.process_bind_param

        def process(value: datetime | None) -> str | None:
            naive = to_naive(value, dialect)
            return None if naive is None else naive.isoformat(" ", "microseconds")

        return process

    def result_processor(self, dialect: Dialect, coltype: Any) -> Any:
        if not _sqlite_text_times(self, dialect):
            return super().result_processor(dialect, coltype)

        def process(value: str | None) -> datetime | None:
            return None if value is None else datetime.fromisoformat(value).replace(tzinfo=UTC)

        return process


def _sqlite_text_times(kind: UtcDateTime, dialect: Dialect) -> bool:
    """Whether ``dialect`` keeps ``kind``'s times as SQLAlchemy's SQLite text, in the default
    format (``YYYY-MM-DD HH:MM:SS.ffffff``, what ``isoformat(" ")`` writes and reads)."""
    if dialect.name != "sqlite":
        return False
    impl = kind.load_dialect_impl(dialect)
    stored = dialect.type_descriptor(impl)
    return isinstance(stored, sqlite.DATETIME) and (
        stored._storage_format == sqlite.DATETIME._storage_format and stored._reg is None
    )


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class CampaignRow(Base):
    """A campaign file the bot runs, and the hash of the version last loaded."""

    __tablename__ = "campaigns"
    id: Mapped[int] = mapped_column(primary_key=True)
    path: Mapped[str] = mapped_column(String(1000), unique=True)
    name: Mapped[str] = mapped_column(String(200))
    file_hash: Mapped[str] = mapped_column(String(64))
    loaded_at: Mapped[datetime] = mapped_column(UtcDateTime())


class ThreadRow(Base):
    """A thread the bot watches: its campaign, the engine snapshot, its lease and what is due.

    ``last_seq`` is the number of the thread's newest event; ``snapshot`` is the engine state
    after event ``snapshot_seq`` (the events after it are replayed on load).

    What the poll still owes the thread: ``needs_survey`` (first seen: the forum has not yet
    been asked how many posts it holds), ``needs_read`` (the store cannot account for every
    post: read it whole), ``next_due_at`` (a deadline or reminder), ``reread_at`` (the posts
    that got an error reply are read again then), and what those re-reads and the close's need
    of the open round (``open_round``).
    """

    __tablename__ = "threads"
    __table_args__ = (
        UniqueConstraint("forum", "key"),
        Index("ix_threads_due", "next_due_at"),
        Index("ix_threads_reread", "reread_at"),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    forum: Mapped[str] = mapped_column(String(20))
    key: Mapped[str] = mapped_column(String(200))
    campaign_id: Mapped[int] = mapped_column(ForeignKey("campaigns.id"))
    campaign_hash: Mapped[str] = mapped_column(String(64))  # the file version the state has
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    last_seq: Mapped[int] = mapped_column(Integer, default=0)
    snapshot: Mapped[bytes | None] = mapped_column(LargeBinary, nullable=True)
    snapshot_seq: Mapped[int] = mapped_column(Integer, default=0)
    snapshot_format: Mapped[int] = mapped_column(Integer, default=0)
    next_due_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    polls: Mapped[int] = mapped_column(Integer, default=0)
    lease_owner: Mapped[str | None] = mapped_column(String(200), nullable=True)
    lease_expires: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    bound_by: Mapped[str | None] = mapped_column(String(200), nullable=True)  # `!campaign` GM
    needs_survey: Mapped[bool] = mapped_column(default=False, server_default=false())
    needs_read: Mapped[bool] = mapped_column(default=False, server_default=false())
    reread_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    # what the re-reads need of the open round (services.rereads.OpenRound, as JSON)
    open_round: Mapped[str | None] = mapped_column(Text, nullable=True)
    # the key of the thread its campaign moved to (``!campaign`` there): this one is read no more
    moved_to: Mapped[str | None] = mapped_column(String(200), nullable=True)
    # the thread's scene after the last poll: its kind, the open round and its deadline
    scene_kind: Mapped[str | None] = mapped_column(String(20), nullable=True)
    scene_round: Mapped[int | None] = mapped_column(Integer, nullable=True)
    scene_deadline: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)


class PostVersionRow(Base):
    """Every version of a post the bot has seen, with its body hash (text purged on delete),
    and how it was handled: the guard that makes every version count once (its unique key).
    A version the engine took is also its event in the thread's log (``seq``, ``event``: post,
    edit or delete, at ``written_at``), which costs no row in ``thread_events``."""

    __tablename__ = "post_versions"
    __table_args__ = (
        UniqueConstraint("thread_id", "post_id", "version"),
        Index("ix_post_versions_event", "thread_id", "seq", unique=True),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    thread_id: Mapped[int] = mapped_column(ForeignKey("threads.id"), index=True)
    post_id: Mapped[str] = mapped_column(String(100))
    version: Mapped[int] = mapped_column(Integer)
    author: Mapped[str] = mapped_column(String(200))
    body: Mapped[str | None] = mapped_column(Text, nullable=True)
    body_hash: Mapped[str] = mapped_column(String(64))
    written_at: Mapped[datetime] = mapped_column(UtcDateTime())
    seen_at: Mapped[datetime] = mapped_column(UtcDateTime())
    deleted: Mapped[bool] = mapped_column(default=False)
    purged: Mapped[bool] = mapped_column(default=False)
    outcome: Mapped[str] = mapped_column(  # handled | failed | skipped
        String(20), default="handled", server_default="handled"
    )
    detail: Mapped[str | None] = mapped_column(Text, nullable=True)  # why it failed or was skipped
    seq: Mapped[int | None] = mapped_column(Integer, nullable=True)  # its event's number in the log
    event: Mapped[str | None] = mapped_column(String(10), nullable=True)  # post | edit | delete


class EventRow(Base):
    """The thread's events in the order the engine took them (what a reload replays), but for
    those of the post versions the engine took, which their version rows hold (``seq``)."""

    __tablename__ = "thread_events"
    __table_args__ = (UniqueConstraint("thread_id", "seq"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    thread_id: Mapped[int] = mapped_column(ForeignKey("threads.id"))
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(10))  # post | edit | delete | tick | moved | sheet
    post_id: Mapped[str | None] = mapped_column(String(100), nullable=True)
    version: Mapped[int | None] = mapped_column(Integer, nullable=True)
    at: Mapped[datetime] = mapped_column(UtcDateTime())


class RoundRow(Base):
    """A round: its secret seed (revealed in its summary), and once closed, how and the text."""

    __tablename__ = "rounds"
    __table_args__ = (UniqueConstraint("thread_id", "number"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    thread_id: Mapped[int] = mapped_column(ForeignKey("threads.id"))
    number: Mapped[int] = mapped_column(Integer)
    seed: Mapped[str] = mapped_column(String(128))
    closed_by: Mapped[str | None] = mapped_column(String(100), nullable=True)
    closed_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    summary: Mapped[str | None] = mapped_column(Text, nullable=True)
    ledger: Mapped[str | None] = mapped_column(Text, nullable=True)  # this round's ledger JSON


class CharacterRow(Base):
    """A character's state after the last poll (a projection; the ledger has the same)."""

    __tablename__ = "characters"
    __table_args__ = (UniqueConstraint("thread_id", "name"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    thread_id: Mapped[int] = mapped_column(ForeignKey("threads.id"))
    name: Mapped[str] = mapped_column(String(200))
    side: Mapped[str] = mapped_column(String(100))
    group: Mapped[str] = mapped_column(String(50))
    status: Mapped[str] = mapped_column(String(20))
    data: Mapped[str] = mapped_column(Text)  # the ledger's JSON for this character


class ReplyRow(Base):
    """The outbox: every reply the bot owes or has posted. A reply posted again under the same
    key (a summary after ``!undo``) gets the next ``revision``.

    A private message (the GM's full view, a player's own sheet) is a row like any other, sent
    to the user ``to_user`` under ``subject`` instead of posted in the thread."""

    __tablename__ = "replies"
    __table_args__ = (
        UniqueConstraint("thread_id", "key", "revision"),
        Index("ix_replies_status", "status"),
        Index("ix_replies_owed", "thread_id", "status"),  # a thread's replies not posted yet
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    thread_id: Mapped[int] = mapped_column(ForeignKey("threads.id"))
    key: Mapped[str] = mapped_column(String(200))
    revision: Mapped[int] = mapped_column(Integer, default=1)
    to_post: Mapped[str | None] = mapped_column(String(100), nullable=True)
    text: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(20))  # pending | posted | edit-pending
    forum_reply_id: Mapped[str | None] = mapped_column(String(100), nullable=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    # when it was first sent: a retry looks for it on the forum from then on
    tried_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    edits: Mapped[int] = mapped_column(Integer, default=0)
    last_error: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    posted_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    to_user: Mapped[str | None] = mapped_column(String(200), nullable=True)
    subject: Mapped[str | None] = mapped_column(String(300), nullable=True)


class PollCursorRow(Base):
    """Where a forum's listing stopped last time (Reddit's holds the ids seen lately: text)."""

    __tablename__ = "poll_cursors"
    forum: Mapped[str] = mapped_column(String(20), primary_key=True)
    scope: Mapped[str] = mapped_column(String(200), primary_key=True)
    cursor: Mapped[str | None] = mapped_column(Text, nullable=True)
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime())


class InboxRow(Base):
    """A post version a listing showed, waiting for the worker that runs its thread.

    Written in the same transaction as the cursor that moved past it, so no worker's listing
    ever loses a post another worker's thread needs; deleted once the thread took it.
    """

    __tablename__ = "inbox"
    id: Mapped[int] = mapped_column(primary_key=True)
    thread_id: Mapped[int] = mapped_column(ForeignKey("threads.id"), index=True)
    post_id: Mapped[str] = mapped_column(String(100))
    author: Mapped[str] = mapped_column(Text)
    body: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    edited_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    deleted_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    reply_to: Mapped[str | None] = mapped_column(String(100), nullable=True)
    ingested_at: Mapped[datetime] = mapped_column(UtcDateTime())


class FoundReplyRow(Base):
    """A reply of the bot found on the forum that the outbox has no record of (the database
    was set up anew): the reply owed under that key edits it instead of posting it twice."""

    __tablename__ = "found_replies"
    __table_args__ = (UniqueConstraint("thread_id", "key"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    thread_id: Mapped[int] = mapped_column(ForeignKey("threads.id"))
    key: Mapped[str] = mapped_column(String(200))  # as on the forum: KEY or KEY~REVISION
    forum_id: Mapped[str] = mapped_column(String(100))


class WorkerRow(Base):
    """A running worker and when it last polled: the live ones share the threads."""

    __tablename__ = "workers"
    name: Mapped[str] = mapped_column(String(200), primary_key=True)
    forum: Mapped[str] = mapped_column(String(20))
    started_at: Mapped[datetime] = mapped_column(UtcDateTime())
    seen_at: Mapped[datetime] = mapped_column(UtcDateTime())


class LocalPostRow(Base):
    """A post of the local forum. ``seq`` is its last change number (for the listing)."""

    __tablename__ = "local_posts"
    id: Mapped[str] = mapped_column(String(100), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, index=True)
    thread: Mapped[str] = mapped_column(String(200), index=True)
    author: Mapped[str] = mapped_column(String(200))
    body: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    edited_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    deleted_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    reply_to: Mapped[str | None] = mapped_column(String(100), nullable=True)
    reply_key: Mapped[str | None] = mapped_column(String(200), nullable=True)
    order: Mapped[int] = mapped_column(Integer, index=True)  # creation order


class LocalMessageRow(Base):
    """A private message of the local forum: sent by the bot to one user, about one thread;
    ``key`` is the outbox's (unique per thread and recipient)."""

    __tablename__ = "local_messages"
    __table_args__ = (UniqueConstraint("thread", "recipient", "key"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    thread: Mapped[str] = mapped_column(String(200))
    recipient: Mapped[str] = mapped_column(String(200), index=True)
    subject: Mapped[str] = mapped_column(String(300))
    body: Mapped[str] = mapped_column(Text)
    key: Mapped[str] = mapped_column(String(200))
    sent_at: Mapped[datetime] = mapped_column(UtcDateTime())


class WebAccountRow(Base):
    """An account of the local forum's web pages (``pbp user add``): its name, its password's
    argon2 hash, and whether it is a GM's (a GM sees every number under hide-npcs)."""

    __tablename__ = "web_accounts"
    name: Mapped[str] = mapped_column(String(100), primary_key=True)  # as typed
    folded: Mapped[str] = mapped_column(String(100), unique=True)  # case-blind, like the forum
    password_hash: Mapped[str] = mapped_column(String(300))
    gm: Mapped[bool] = mapped_column(default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())


class WebKeyRow(Base):
    """A secret of ``pbp serve``, made on first use and kept in the database so that every
    server and ``pbp serve link`` sign with the same key; ``used_links`` remembers one-time
    links spent (by their nonce)."""

    __tablename__ = "web_keys"
    name: Mapped[str] = mapped_column(String(200), primary_key=True)
    value: Mapped[str] = mapped_column(String(300))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
