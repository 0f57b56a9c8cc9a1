"""The Forum protocol: what the services need from a forum, in the forum's own types.

A forum lists the posts that are new or changed since a cursor (one request for every thread
it serves), re-reads given posts in batches, and posts or edits the bot's replies. Every reply
carries the key the services gave it, so a reply that was posted but not recorded (the process
died, or the forum committed it and answered with an error) is found again instead of doubled.
Forums raise only ``pbp.errors.ForumError``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol


@dataclass(frozen=True, slots=True, kw_only=True)
class ForumPost:
    """One post as the forum shows it now.

    ``edited_at`` is when its current text was written, if it was edited; ``deleted_at`` is
    set when the post is gone (its text is then empty). ``reply_key`` is the key of a reply the
    bot posted, None for everything else.
    """

    id: str
    thread: str
    author: str
    body: str
    created_at: datetime
    edited_at: datetime | None = None
    deleted_at: datetime | None = None
    reply_to: str | None = None
    reply_key: str | None = None

    @property
    def deleted(self) -> bool:
        """Whether the post has been deleted."""
        return self.deleted_at is not None


@dataclass(frozen=True, slots=True, kw_only=True)
class Listing:
    """Posts new or changed since a cursor, oldest first, and the cursor to ask from next.

    ``others`` are new posts of threads not asked for, that the listing saw anyway (where a GM
    may bind a new thread with ``!campaign NAME``)."""

    posts: tuple[ForumPost, ...]
    cursor: str | None
    others: tuple[ForumPost, ...] = ()


class Forum(Protocol):
    """A forum the bot reads and answers."""

    @property
    def kind(self) -> str:
        """``local`` or ``reddit``: the name the store files posts and cursors under."""
        ...

    @property
    def lists_changes(self) -> bool:
        """Whether ``listing`` shows edits and deletes too (then nothing needs re-reading)."""
        ...

    def listing(self, threads: Sequence[str], *, cursor: str | None) -> Listing:
        """Posts of ``threads`` that are new (or, where the forum can tell, changed) since
        ``cursor``; None reads every thread from its start."""
        ...

    def backfill(self, thread: str) -> tuple[ForumPost, ...]:
        """Every post of a thread from its start (a thread read for the first time)."""
        ...

    def reread(self, thread: str, post_ids: Sequence[str]) -> tuple[ForumPost, ...]:
        """The current version of each post (a post that no longer exists comes back
        deleted)."""
        ...

    def reply(self, *, thread: str, to: str | None, text: str, key: str) -> str:
        """Post a reply (to a post, or in the thread when ``to`` is None); return its id."""
        ...

    def edit_reply(self, *, thread: str, reply_id: str, text: str, key: str) -> None:
        """Replace the text of one of the bot's replies (``key`` is the one it was posted
        with, for forums that keep it in the text)."""
        ...

    def find_reply(self, *, thread: str, key: str) -> str | None:
        """The id of the bot's reply carrying ``key``, if the forum holds one."""
        ...
