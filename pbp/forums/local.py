"""The local forum: threads and posts in the bot's own database (SPEC §8, the default).

It keeps its posts through ``LocalStorage``, a small protocol the store implements (and tests
may fake); the bootstrap wires the two together. ``pbp post`` and ``pbp thread`` use the same
object the bot polls, so what a user types from the shell is what the bot reads.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Protocol

from pbp.errors import ForumError
from pbp.forums.base import (
    ForumLimits,
    ForumPost,
    Listing,
    PrivateMessage,
    ThreadSurvey,
    clean_text,
)
from pbp.values import replace

POST_LIMIT = 40_000  # characters of any one post it keeps: a player's, or one of the bot's
NAME_LIMIT = 100  # characters of a thread's or an author's name
SUBJECT_LIMIT = 100  # characters of a private message's subject, like Reddit's
# the bot's replies are split as on Reddit (its text room, its mentions), so a thread reads
# alike on both forums, though a post here may be longer
LIMITS = ForumLimits(reply_chars=9_900, subject_chars=SUBJECT_LIMIT, mentions_per_post=3)


class LocalStorage(Protocol):
    """Where the local forum keeps its posts."""

    @property
    def in_bot_database(self) -> bool:
        """Whether the posts are kept in the bot's own database, in its units of work."""
        ...

    def batch(self) -> AbstractContextManager[None]:
        """Every call inside the block at once when it ends (none of them if it raises, where
        the storage can undo them)."""
        ...

    def add_post(self, post: ForumPost) -> ForumPost:
        """Store a new post; an empty ``id`` asks the storage to choose one. An id already
        taken raises ``ForumError``."""
        ...

    def save_post(self, post: ForumPost) -> None:
        """Store a new version of an existing post (an edit or a delete)."""
        ...

    def edit_post(self, post_id: str, *, body: str, edited_at: datetime) -> bool:
        """Store a new text of a post that is not deleted, written at ``edited_at`` (a new
        version, as ``save_post`` stores one); False if there is no such post."""
        ...

    def get_post(self, post_id: str) -> ForumPost | None:
        """The post with that id, deleted or not."""
        ...

    def changed_since(
        self, threads: Sequence[str] | None, *, seq: int
    ) -> tuple[list[ForumPost], int]:
        """Posts of ``threads`` (None: of every thread) written or changed after change number
        ``seq``, in the order of their last change, and the newest change number."""
        ...

    def thread_posts(self, thread: str) -> list[ForumPost]:
        """Every post of a thread, in the order they were made."""
        ...

    def thread_posts_since(self, thread: str, since: datetime) -> list[ForumPost]:
        """The posts of a thread made at or after ``since``, in the order they were made."""
        ...

    def find_key(self, thread: str, key: str) -> ForumPost | None:
        """The reply carrying ``key`` in a thread."""
        ...

    def thread_names(self) -> list[tuple[str, int]]:
        """Every thread with its number of posts, in the order they were started."""
        ...

    def post_counts(self, threads: Sequence[str]) -> dict[str, int]:
        """The number of posts not deleted (the bot's replies included) of each of these
        threads that has any."""
        ...

    def add_message(self, message: PrivateMessage) -> PrivateMessage:
        """Store a private message; an empty ``id`` asks the storage to choose one. A key
        already sent to that user about that thread raises ``ForumError``."""
        ...

    def edit_message(self, message_id: str, body: str) -> None:
        """Replace the text of a private message (``ForumError`` when there is none)."""
        ...

    def find_message(self, thread: str, to: str, key: str) -> PrivateMessage | None:
        """The private message sent ``to`` about ``thread`` under ``key``."""
        ...

    def messages_to(self, to: str, *, thread: str | None = None) -> list[PrivateMessage]:
        """Every private message sent to ``to`` (about ``thread`` only, when given), oldest
        first; user names compare case-blind, as the forum's accounts do."""
        ...


class LocalForum:
    """The embedded forum. ``bot`` is the account the bot's replies are posted under."""

    kind = "local"
    lists_changes = True  # every change bumps a post's change number
    reread_batch = 1000  # posts read in one transaction
    limits = LIMITS

    def __init__(self, storage: LocalStorage, *, bot: str, clock: Callable[[], datetime]) -> None:
        self._storage = storage
        self._bot = bot
        self._clock = clock  # when the bot's replies are stamped (replays pass the event's time)

    # -- what users do from the shell ---------------------------------------------------------

    def post(
        self, *, thread: str, author: str, body: str, at: datetime, post_id: str = ""
    ) -> ForumPost:
        """A user posts in a thread (the thread starts with its first post)."""
        body = _checked_text(body)
        thread = _checked_name(thread, what="a thread name")
        author = _checked_name(author, what="an author's name")
        new = ForumPost(id=post_id, thread=thread, author=author, body=body, created_at=at)
        return self._storage.add_post(new)

    def edit(self, post_id: str, *, body: str, at: datetime) -> ForumPost:
        """A post's author replaces its text."""
        body = _checked_text(body)
        old = self._existing(post_id)
        new = replace(old, body=body, edited_at=at)
        self._storage.save_post(new)
        return new

    def delete(self, post_id: str, *, at: datetime) -> ForumPost:
        """A post is deleted: its text is gone, its place in the thread stays."""
        old = self._existing(post_id)
        new = replace(old, body="", deleted_at=at)
        self._storage.save_post(new)
        return new

    def thread(self, thread: str) -> list[ForumPost]:
        """Every post of a thread, the bot's replies included, in order."""
        return self._storage.thread_posts(thread)

    def thread_since(self, thread: str, since: datetime) -> list[ForumPost]:
        """The posts of a thread made at or after ``since`` (an open round's), in order."""
        return self._storage.thread_posts_since(thread, since)

    def threads(self) -> list[tuple[str, int]]:
        """Every thread of the forum with its number of posts (the bot's replies included)."""
        return self._storage.thread_names()

    def get(self, post_id: str) -> ForumPost | None:
        """One post by id."""
        return self._storage.get_post(post_id)

    def inbox(self, user: str, *, thread: str | None = None) -> list[PrivateMessage]:
        """The private messages the bot sent ``user`` (about ``thread`` only, when given)."""
        return self._storage.messages_to(user, thread=thread)

    # -- the Forum protocol -------------------------------------------------------------------

    def listing(self, *, cursor: str | None) -> Listing:
        """Posts new, edited or deleted since ``cursor`` (the local forum sees every change,
        and from no cursor, every post)."""
        seq = int(cursor) if cursor else 0
        posts, last = self._storage.changed_since(None, seq=seq)
        return Listing(posts=tuple(posts), cursor=str(last))

    def survey(self, threads: Sequence[str]) -> dict[str, ThreadSurvey]:
        """How many posts each thread holds (a local thread opens with an ordinary post, and
        exists before it: a thread nobody posted in yet holds none)."""
        counts = self._storage.post_counts(threads)
        return {t: ThreadSurvey(thread=t, opening=None, posts=counts.get(t, 0)) for t in threads}

    def backfill(self, thread: str) -> tuple[ForumPost, ...]:
        """Every post of a thread, the bot's replies included."""
        return tuple(self._storage.thread_posts(thread))

    def reread(self, thread: str, post_ids: Sequence[str]) -> tuple[ForumPost, ...]:
        """The current version of each post."""
        del thread
        return tuple(p for p in (self._storage.get_post(i) for i in post_ids) if p is not None)

    def reread_many(self, wanted: Mapping[str, Sequence[str]]) -> dict[str, tuple[ForumPost, ...]]:
        """``reread`` of each thread's posts."""
        return {thread: self.reread(thread, ids) for thread, ids in wanted.items()}

    @property
    def in_bot_database(self) -> bool:
        """The storage's answer: the store's keeps the posts in the bot's database."""
        return self._storage.in_bot_database

    def sending(self) -> AbstractContextManager[None]:
        """A delivery in one transaction of the storage (none of it kept if it raises)."""
        return self._storage.batch()

    def reply(self, *, thread: str, to: str | None, text: str, key: str) -> str:
        """Post the bot's reply, now."""
        text = _checked_text(text)
        new = ForumPost(
            id="",
            thread=thread,
            author=self._bot,
            body=text,
            created_at=self._clock(),
            reply_to=to,
            reply_key=key,
        )
        return self._storage.add_post(new).id

    def edit_reply(self, *, thread: str, reply_id: str, text: str, key: str) -> None:
        """Replace the text of one of the bot's replies (the key stays in its own column)."""
        del thread, key
        try:
            body = _checked_text(text)
        except ForumError:
            self._existing(reply_id)  # a post that is not there (or gone) is told first
            raise
        if not self._storage.edit_post(reply_id, body=body, edited_at=self._clock()):
            self._existing(reply_id)  # not there, or gone: it says which
            raise ForumError(f"post {reply_id} could not be edited", temporary=False)

    def find_reply(self, *, thread: str, key: str, to: str | None, since: datetime) -> str | None:
        """The bot's reply with that key in the thread, if any (by key: wherever it is)."""
        del to, since
        found = self._storage.find_key(thread, key)
        return found.id if found is not None else None

    def send_private(self, *, thread: str, to: str, subject: str, text: str, key: str) -> str:
        """Put a private message in ``to``'s inbox, now."""
        to = _checked_name(to, what="a recipient's name")
        subject = _checked_name(subject, what="a message's subject", limit=SUBJECT_LIMIT)
        new = PrivateMessage(
            id="",
            thread=thread,
            to=to,
            subject=subject,
            body=_checked_text(text),
            key=key,
            sent_at=self._clock(),
        )
        return self._storage.add_message(new).id

    @property
    def edits_private(self) -> bool:
        """The local forum's private messages can be edited."""
        return True

    def edit_private(self, *, thread: str, message_id: str, text: str, key: str) -> None:
        """Replace the text of a private message the bot sent."""
        del thread, key
        self._storage.edit_message(message_id, _checked_text(text))

    def find_private(self, *, thread: str, to: str, key: str, since: datetime) -> str | None:
        """The private message sent ``to`` under ``key``, if any (by key: whenever sent)."""
        del since
        found = self._storage.find_message(thread, to, key)
        return found.id if found is not None else None

    def _existing(self, post_id: str) -> ForumPost:
        post = self._storage.get_post(post_id)
        if post is None:
            raise ForumError(f"there is no post {post_id}", temporary=False)
        if post.deleted:
            raise ForumError(f"post {post_id} was deleted", temporary=False)
        return post


def _checked_text(body: str) -> str:
    body = clean_text(body)
    if len(body) > POST_LIMIT:
        raise ForumError(
            f"a post may hold at most {POST_LIMIT} characters (this one has {len(body)})",
            temporary=False,
        )
    return body


def _checked_name(name: str, *, what: str, limit: int = NAME_LIMIT) -> str:
    name = clean_text(name).replace("\n", " ").replace("\t", " ").strip()
    if not name:
        raise ForumError(f"{what} cannot be empty", temporary=False)
    if len(name) > limit:
        raise ForumError(
            f"{what} may hold at most {limit} characters (this one has {len(name)})",
            temporary=False,
        )
    return name
