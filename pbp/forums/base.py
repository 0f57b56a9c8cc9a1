"""The Forum protocol: what the services need from a forum, in the forum's own types.

A forum lists the posts that are new or changed since a cursor (one request for every thread
it serves), tells in batches how many posts threads hold, re-reads given posts in batches, and
posts or edits the bot's replies. Text comes out of a forum through ``clean_text``. Every reply
carries the key the services gave it, so a reply that was posted but not recorded (the process
died, or the forum committed it and answered with an error) is found again instead of doubled.
Private messages to one user (``send_private``) carry their thread and key the same way.
Forums raise only ``pbp.errors.ForumError``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Protocol

from pbp.values import frozen_value

# C0 controls but tab and newline (a carriage return becomes a newline first), and UTF-16
# surrogates, which a Python string holds only when one came alone (json.loads lets "\ud800"
# through): no database stores them alike (PostgreSQL refuses NUL and lone surrogates)
_UNSTORABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff]")


def clean_text(text: str) -> str:
    """Text as every store keeps it: line breaks as newlines, no NUL or other C0 control but
    tab and newline, a lone surrogate as U+FFFD (the replacement character)."""
    if text.isprintable():  # the common case: nothing to do (no control, no surrogate)
        return text
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _UNSTORABLE.sub(_replacement, text)


def _replacement(found: re.Match[str]) -> str:
    return "\ufffd" if "\ud800" <= found.group() <= "\udfff" else ""


@frozen_value
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


@frozen_value
class Listing:
    """Posts new (or, where the forum can tell, changed) since a cursor, in every thread the
    forum serves, oldest first, and the cursor to ask from next.

    ``complete`` is False when the listing could not reach back to the cursor (a gap: more
    was posted meanwhile than the forum lists): what it missed must be found another way."""

    posts: tuple[ForumPost, ...]
    cursor: str | None
    complete: bool = True


@frozen_value
class ThreadSurvey:
    """What a forum says of a thread in a batched request: its opening post where the forum
    keeps that apart from the listing (a Reddit submission's text), and how many posts the
    thread holds that a listing could show: not deleted, the bot's replies included."""

    thread: str
    opening: ForumPost | None
    posts: int


@frozen_value
class PrivateMessage:
    """A private message the bot sent to one user about one thread, as the user reads it."""

    id: str
    thread: str
    to: str
    subject: str
    body: str
    key: str
    sent_at: datetime


@frozen_value
class ForumLimits:
    """What one forum takes in one go, as the forum states it.

    ``reply_chars``: characters of text the bot may hand ``reply``, ``edit_reply`` or
    ``send_private`` (room for whatever the forum adds to it, such as Reddit's hidden key, is
    already taken off); longer replies are split into parts. ``subject_chars``: characters of a
    private message's subject. ``mentions_per_post``: user mentions one post may carry that the
    forum still notifies."""

    reply_chars: int
    subject_chars: int
    mentions_per_post: int


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

    @property
    def reread_batch(self) -> int:
        """How many posts one request of ``reread_many`` reads at most."""
        ...

    @property
    def in_bot_database(self) -> bool:
        """Whether the forum keeps its posts in the bot's own database, in its units of work
        (the local forum): what ``sending()`` takes inside one of them is kept, or undone,
        with the rest of it."""
        ...

    @property
    def limits(self) -> ForumLimits:
        """How long a reply and a subject may be, and how many mentions a post may carry."""
        ...

    def listing(self, *, cursor: str | None) -> Listing:
        """Posts that are new (or, where the forum can tell, changed) since ``cursor``, in
        every thread; None: as far back as one request goes."""
        ...

    def survey(self, threads: Sequence[str]) -> dict[str, ThreadSurvey]:
        """Each thread's opening post and number of posts, in as few requests as the forum
        allows (a thread that does not exist is left out)."""
        ...

    def backfill(self, thread: str) -> tuple[ForumPost, ...]:
        """Every post of a thread from its start (a thread read for the first time)."""
        ...

    def reread(self, thread: str, post_ids: Sequence[str]) -> tuple[ForumPost, ...]:
        """The current version of each post (a post that no longer exists comes back
        deleted)."""
        ...

    def reread_many(self, wanted: Mapping[str, Sequence[str]]) -> dict[str, tuple[ForumPost, ...]]:
        """``reread`` for the posts of several threads (thread -> post ids) at once, in as few
        requests as the forum allows."""
        ...

    def sending(self) -> AbstractContextManager[None]:
        """One delivery's replies, edits and private messages, taken in one go where the forum
        can: when the block ends, everything sent inside it is on the forum. If the block
        raises, what was sent inside it may or may not be (the outbox looks each one up by its
        key before sending it again)."""
        ...

    def reply(self, *, thread: str, to: str | None, text: str, key: str) -> str:
        """Post a reply (to a post, or in the thread when ``to`` is None); return its id."""
        ...

    def edit_reply(self, *, thread: str, reply_id: str, text: str, key: str) -> None:
        """Replace the text of one of the bot's replies (``key`` is the one it was posted
        with, for forums that keep it in the text)."""
        ...

    def find_reply(self, *, thread: str, key: str, to: str | None, since: datetime) -> str | None:
        """The id of the bot's reply carrying ``key``, if the forum holds one, looked for where
        it would be: among the answers to post ``to`` (None: in the thread itself), posted no
        earlier than ``since`` (its first attempt). However busy the bot was since then, it is
        found: never only among a fixed number of recent items."""
        ...

    def send_private(self, *, thread: str, to: str, subject: str, text: str, key: str) -> str:
        """Send a private message to user ``to`` about ``thread``; return its id (``key`` is
        unique within the thread and recipient, as a reply's is within the thread)."""
        ...

    @property
    def edits_private(self) -> bool:
        """Whether the bot can change a private message it sent (``edit_private``)."""
        ...

    def edit_private(self, *, thread: str, message_id: str, text: str, key: str) -> None:
        """Replace the text of a private message the bot sent (only where ``edits_private``)."""
        ...

    def find_private(self, *, thread: str, to: str, key: str, since: datetime) -> str | None:
        """The id of the private message the bot sent ``to`` about ``thread`` under ``key``,
        if the forum holds one, sent no earlier than ``since`` (its first attempt), however
        many messages the bot sent after it."""
        ...
