"""What the store hands out: frozen values of what a row holds (a change goes back through a
named method of the repository or the leases, never by setting a field)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any, TypeVar

from pbp.values import frozen_value

_Record = TypeVar("_Record")


_COLUMNS: dict[type, tuple[str, ...]] = {}  # each record type's fields, worked out once


def _columns(kind: type) -> tuple[str, ...]:
    found = _COLUMNS.get(kind)
    if found is None:
        found = _COLUMNS[kind] = tuple(f.name for f in fields(kind))
    return found


def record_of(kind: type[_Record], row: Any) -> _Record:
    """The ``kind`` value of a row (an ORM object or a result row): its fields, read by name."""
    return kind(**{name: getattr(row, name) for name in _columns(kind)})


@frozen_value
class ThreadRecord:
    """A thread the bot watches, as stored (the columns of ``schema.ThreadRow``)."""

    id: int
    forum: str
    key: str
    campaign_id: int
    campaign_hash: str  # the file version the state has
    created_at: datetime
    last_seq: int  # the number of the thread's newest event
    snapshot: bytes | None  # the engine state after event ``snapshot_seq``
    snapshot_seq: int
    snapshot_format: int
    next_due_at: datetime | None
    polls: int
    lease_owner: str | None
    lease_expires: datetime | None
    bound_by: str | None  # the GM whose ``!campaign`` bound it
    needs_survey: bool
    needs_read: bool
    reread_at: datetime | None
    open_round: str | None  # services.rereads.OpenRound, as JSON
    moved_to: str | None  # the thread its campaign moved to: this one is read no more
    scene_kind: str | None  # the scene after the last poll: its kind, round and deadline
    scene_round: int | None
    scene_deadline: datetime | None


@frozen_value
class KnownPost:
    """The newest version of a post the bot has seen."""

    post_id: str
    version: int
    author: str
    body_hash: str
    deleted: bool


@dataclass(slots=True, kw_only=True)
class ThreadChanges:
    """What a unit of work makes of a held thread's changeable fields, as they stand now:
    the service that holds the thread owns it and sets it; ``Leases.keep`` writes the fields
    that differ from what ``Leases.hold`` read, in one UPDATE."""

    campaign_hash: str
    last_seq: int
    snapshot: bytes | None
    snapshot_seq: int
    snapshot_format: int
    next_due_at: datetime | None
    needs_read: bool
    reread_at: datetime | None
    open_round: str | None
    scene_kind: str | None
    scene_round: int | None
    scene_deadline: datetime | None

    @classmethod
    def of(cls, thread: ThreadRecord) -> ThreadChanges:
        """Nothing changed yet: the thread's fields as held."""
        return record_of(cls, thread)

    def values(self) -> dict[str, Any]:
        """Each changeable column and its value now."""
        return {name: getattr(self, name) for name in _columns(ThreadChanges)}


@frozen_value
class ReplyRecord:
    """A row of the outbox, as stored (the columns of ``schema.ReplyRow``)."""

    id: int
    thread_id: int
    key: str
    revision: int
    to_post: str | None
    text: str
    status: str  # pending | posted | edit-pending | failed
    forum_reply_id: str | None
    attempts: int
    tried_at: datetime | None
    edits: int
    last_error: str | None
    created_at: datetime
    posted_at: datetime | None
    to_user: str | None
    subject: str | None


@frozen_value
class CampaignRecord:
    """A campaign file the bot runs, as stored, with the hash of the version last loaded."""

    id: int
    path: str
    name: str
    file_hash: str
    loaded_at: datetime


@frozen_value
class AccountRecord:
    """An account of the web pages (the columns of ``schema.WebAccountRow``)."""

    name: str
    folded: str
    password_hash: str
    gm: bool
    created_at: datetime
