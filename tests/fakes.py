"""In-memory fakes shared by the tests (import them as ``from fakes import ...``).

- ``MemoryLocalStorage``: the local forum's storage in a few dicts, behaving as
  ``pbp.store.local_posts.SqlLocalStorage`` does (the forum contract suite runs on both).
- ``FlakyForum``: wraps any ``Forum``; fails chosen calls with ``ForumError`` on request,
  can commit a reply and still answer with an error, and records every call.
- ``ManualClock``: a clock that moves only when told to.

``tests`` is on the import path through ``pythonpath`` in pyproject.toml's pytest settings.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from pbp.errors import ForumError
from pbp.forums.base import Forum, ForumLimits, ForumPost, Listing, PrivateMessage, ThreadSurvey

T = TypeVar("T")

# -- the local forum's storage ----------------------------------------------------------------


class MemoryLocalStorage:
    """``LocalStorage`` in memory, with ``SqlLocalStorage``'s observable behaviour.

    - ``add_post`` with an empty id picks ``p<n>`` (``pbp-<n>`` for a post with a
      ``reply_key``, i.e. a bot reply), ``n`` the post's number in the whole forum, moving on
      to the next free number if that id is taken. A post whose id is already used raises
      ``ForumError`` (as the SQL storage does).
    - Every add and save takes the next change number; ``changed_since`` gives the posts of the
      asked threads changed after a number, in the order of their last change, and the newest
      change number of the whole forum (never lower than the one asked from).
    - ``save_post`` keeps only the new body, ``edited_at`` and ``deleted_at`` (as the database
      does); a missing post raises ``KeyError``.
    - ``thread_posts`` is creation order; ``find_key`` looks only inside the given thread.
    - Datetimes must be aware (naive ones raise ``ValueError``) and come back in UTC.

    - Private messages get ids ``m1``, ``m2`` …; a key sent twice to the same user about the
      same thread raises ``ForumError``; ``messages_to`` compares names case-blind.

    ``snapshot()`` returns every post with its change number, for tests that look inside.
    """

    in_bot_database = False  # its posts are not undone with the bot's units of work

    def __init__(self) -> None:
        self._messages: list[PrivateMessage] = []
        self._posts: dict[str, ForumPost] = {}
        self._seq: dict[str, int] = {}
        self._order: dict[str, int] = {}
        self._last_seq = 0
        self._last_order = 0

    def batch(self) -> AbstractContextManager[None]:
        """Nothing to group: every call is kept at once."""
        return nullcontext()

    def add_post(self, post: ForumPost) -> ForumPost:
        """Store a new post; an empty id gets ``p<n>`` (a bot reply ``pbp-<n>``)."""
        self._last_order += 1
        prefix = "p" if post.reply_key is None else "pbp-"
        post_id = post.id or self._free_id(prefix, self._last_order)
        if post_id in self._posts:
            self._last_order -= 1
            raise ForumError(f"post {post_id} already exists", temporary=False)
        stored = _in_utc(replace(post, id=post_id))
        self._last_seq += 1
        self._posts[post_id] = stored
        self._seq[post_id] = self._last_seq
        self._order[post_id] = self._last_order
        return stored

    def _free_id(self, prefix: str, start: int) -> str:
        n = start
        while f"{prefix}{n}" in self._posts:
            n += 1
        return f"{prefix}{n}"

    def save_post(self, post: ForumPost) -> None:
        """A new version of a post: its text, edit and delete times, and a new change number."""
        old = self._posts.get(post.id)
        if old is None:
            raise KeyError(post.id)
        new = _in_utc(
            replace(old, body=post.body, edited_at=post.edited_at, deleted_at=post.deleted_at)
        )
        self._last_seq += 1
        self._posts[post.id] = new
        self._seq[post.id] = self._last_seq

    def edit_post(self, post_id: str, *, body: str, edited_at: datetime) -> bool:
        """A new text of a post not deleted (False: there is no such post)."""
        old = self._posts.get(post_id)
        if old is None or old.deleted:
            return False
        self.save_post(replace(old, body=body, edited_at=edited_at))
        return True

    def get_post(self, post_id: str) -> ForumPost | None:
        """One post by id, deleted or not."""
        return self._posts.get(post_id)

    def changed_since(
        self, threads: Sequence[str] | None, *, seq: int
    ) -> tuple[list[ForumPost], int]:
        """Posts of ``threads`` (None: of every thread) changed after ``seq``, oldest change
        first, and the newest change number."""
        asked = None if threads is None else set(threads)
        ids = [
            i
            for i, p in self._posts.items()
            if (asked is None or p.thread in asked) and self._seq[i] > seq
        ]
        ids.sort(key=self._seq.__getitem__)
        return [self._posts[i] for i in ids], max(self._last_seq, seq)

    def thread_names(self) -> list[tuple[str, int]]:
        """Every thread with its number of posts, in the order they were started."""
        counts: dict[str, int] = {}
        for i in sorted(self._posts, key=self._order.__getitem__):
            thread = self._posts[i].thread
            counts[thread] = counts.get(thread, 0) + 1
        return list(counts.items())

    def post_counts(self, threads: Sequence[str]) -> dict[str, int]:
        """The number of posts not deleted of each of these threads that has any."""
        asked = set(threads)
        counts: dict[str, int] = {}
        for post in self._posts.values():
            if post.thread in asked and not post.deleted:
                counts[post.thread] = counts.get(post.thread, 0) + 1
        return counts

    def thread_posts(self, thread: str) -> list[ForumPost]:
        """Every post of a thread, in the order they were made."""
        ids = [i for i, p in self._posts.items() if p.thread == thread]
        ids.sort(key=self._order.__getitem__)
        return [self._posts[i] for i in ids]

    def thread_posts_since(self, thread: str, since: datetime) -> list[ForumPost]:
        """The posts of a thread made at or after ``since``, in the order they were made."""
        return [p for p in self.thread_posts(thread) if p.created_at >= since]

    def find_key(self, thread: str, key: str) -> ForumPost | None:
        """The (first made) reply with ``key`` in a thread."""
        return next((p for p in self.thread_posts(thread) if p.reply_key == key), None)

    def snapshot(self) -> list[tuple[int, ForumPost]]:
        """Every post with its change number, in creation order."""
        ids = sorted(self._posts, key=self._order.__getitem__)
        return [(self._seq[i], self._posts[i]) for i in ids]

    def add_message(self, message: PrivateMessage) -> PrivateMessage:
        """Store a private message as ``m<n>``."""
        if self.find_message(message.thread, message.to, message.key) is not None:
            raise ForumError(
                f"a message {message.key} was already sent to {message.to}", temporary=False
            )
        stored = replace(message, id=f"m{len(self._messages) + 1}", sent_at=_utc(message.sent_at))
        self._messages.append(stored)
        return stored

    def edit_message(self, message_id: str, body: str) -> None:
        """Replace a message's text (``ForumError`` when there is none)."""
        for i, message in enumerate(self._messages):
            if message.id == message_id:
                self._messages[i] = replace(message, body=body)
                return
        raise ForumError(f"there is no private message {message_id}", temporary=False)

    def find_message(self, thread: str, to: str, key: str) -> PrivateMessage | None:
        """The message sent ``to`` about ``thread`` under ``key``."""
        return next(
            (m for m in self._messages if (m.thread, m.to, m.key) == (thread, to, key)), None
        )

    def messages_to(self, to: str, *, thread: str | None = None) -> list[PrivateMessage]:
        """Every message sent to ``to`` (about ``thread``, when given), oldest first."""
        return [
            m
            for m in self._messages
            if m.to.casefold() == to.casefold() and (thread is None or m.thread == thread)
        ]


def _in_utc(post: ForumPost) -> ForumPost:
    return replace(
        post,
        created_at=_utc(post.created_at),
        edited_at=None if post.edited_at is None else _utc(post.edited_at),
        deleted_at=None if post.deleted_at is None else _utc(post.deleted_at),
    )


def _utc(moment: datetime) -> datetime:
    if moment.tzinfo is None:
        raise ValueError("pbp stores aware datetimes only")
    return moment.astimezone(UTC)


# -- a forum that fails on request ------------------------------------------------------------

METHODS = (
    "listing",
    "survey",
    "backfill",
    "reread",
    "reread_many",
    "reply",
    "edit_reply",
    "find_reply",
    "send_private",
    "find_private",
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Call:
    """One call made to a ``FlakyForum``.

    ``args`` holds the arguments by name (``cursor``, ``threads``, ``thread``, ``post_ids``,
    ``to``, ``text``, ``key``, ``reply_id``, ``since``). ``reached`` says whether the inner
    forum was asked; ``error`` is the ``ForumError`` the caller got, if any. A reply that was
    committed and then failed has ``reached=True``, ``error`` set and ``result`` the id it got.
    """

    method: str
    args: dict[str, Any]
    reached: bool
    result: Any = None
    error: ForumError | None = None


class FlakyForum:
    """Any ``Forum``, made to fail when a test says so; it records every call in ``calls``.

    - ``fail_next("reply", times=2)`` fails the next two ``reply`` calls with a temporary
      ``ForumError`` before the inner forum is asked (``temporary=False`` for a permanent one).
      Failures queue up per method, in the order they were asked for.
    - ``commit_then_fail(times=1)``: the next ``reply`` is posted on the inner forum and then
      a temporary ``ForumError`` is raised (Reddit committed the comment but answered with an
      error), so ``find_reply`` finds it afterwards. Queued ``fail_next`` failures of ``reply``
      come first. ``method="send_private"`` does the same to private messages.
    - ``calls`` lists every call made, failed or not; ``calls_to("reply")`` only those.

    ``kind`` and ``lists_changes`` are the inner forum's; ``inner`` is the wrapped forum (post
    users' posts through it).
    """

    def __init__(self, inner: Forum) -> None:
        self.inner = inner
        self.calls: list[Call] = []
        self._failures: dict[str, deque[ForumError]] = {m: deque() for m in METHODS}
        self._commit_then_fail = {"reply": 0, "send_private": 0}

    @property
    def kind(self) -> str:
        """The inner forum's kind."""
        return self.inner.kind

    @property
    def lists_changes(self) -> bool:
        """Whether the inner forum lists edits and deletes."""
        return self.inner.lists_changes

    @property
    def reread_batch(self) -> int:
        """The inner forum's."""
        return self.inner.reread_batch

    @property
    def in_bot_database(self) -> bool:
        """The inner forum's."""
        return self.inner.in_bot_database

    @property
    def limits(self) -> ForumLimits:
        """The inner forum's."""
        return self.inner.limits

    # -- what the test asks for ---------------------------------------------------------------

    def fail_next(
        self, method: str, times: int = 1, *, temporary: bool = True, message: str = ""
    ) -> None:
        """Fail the next ``times`` calls of ``method`` before they reach the inner forum."""
        if method not in self._failures:
            raise ValueError(f"a Forum has no method {method!r} (one of {', '.join(METHODS)})")
        kind = "temporary" if temporary else "permanent"
        text = message or f"{method} failed ({kind} error, injected)"
        for _ in range(times):
            self._failures[method].append(ForumError(text, temporary=temporary))

    def commit_then_fail(self, times: int = 1, *, method: str = "reply") -> None:
        """The next ``times`` replies (or private messages) are sent, then answered with a
        temporary error."""
        self._commit_then_fail[method] += times

    def calls_to(self, method: str) -> list[Call]:
        """The recorded calls of one method, in order."""
        return [c for c in self.calls if c.method == method]

    # -- the Forum protocol -------------------------------------------------------------------

    def listing(self, *, cursor: str | None) -> Listing:
        """The inner forum's listing, unless told to fail."""
        return self._call("listing", {"cursor": cursor}, lambda: self.inner.listing(cursor=cursor))

    def survey(self, threads: Sequence[str]) -> dict[str, ThreadSurvey]:
        """The inner forum's survey, unless told to fail."""
        return self._call("survey", {"threads": list(threads)}, lambda: self.inner.survey(threads))

    def backfill(self, thread: str) -> tuple[ForumPost, ...]:
        """The inner forum's backfill, unless told to fail."""
        return self._call("backfill", {"thread": thread}, lambda: self.inner.backfill(thread))

    def reread(self, thread: str, post_ids: Sequence[str]) -> tuple[ForumPost, ...]:
        """The inner forum's reread, unless told to fail."""
        args = {"thread": thread, "post_ids": list(post_ids)}
        return self._call("reread", args, lambda: self.inner.reread(thread, post_ids))

    def reread_many(self, wanted: Mapping[str, Sequence[str]]) -> dict[str, tuple[ForumPost, ...]]:
        """The inner forum's reread_many, unless told to fail."""
        args = {"wanted": {thread: list(ids) for thread, ids in wanted.items()}}
        return self._call("reread_many", args, lambda: self.inner.reread_many(wanted))

    def sending(self) -> AbstractContextManager[None]:
        """The inner forum's (never failed: it asks the forum nothing)."""
        return self.inner.sending()

    def reply(self, *, thread: str, to: str | None, text: str, key: str) -> str:
        """The inner forum's reply, unless told to fail (before or after committing)."""
        args = {"thread": thread, "to": to, "text": text, "key": key}
        then_fail = not self._failures["reply"] and self._commit_then_fail["reply"] > 0
        return self._call(
            "reply",
            args,
            lambda: self.inner.reply(thread=thread, to=to, text=text, key=key),
            then_fail=then_fail,
        )

    def edit_reply(self, *, thread: str, reply_id: str, text: str, key: str) -> None:
        """The inner forum's edit_reply, unless told to fail."""
        args = {"thread": thread, "reply_id": reply_id, "text": text}
        self._call(
            "edit_reply",
            args,
            lambda: self.inner.edit_reply(thread=thread, reply_id=reply_id, text=text, key=key),
        )

    def find_reply(self, *, thread: str, key: str, to: str | None, since: datetime) -> str | None:
        """The inner forum's find_reply, unless told to fail."""
        args = {"thread": thread, "key": key, "to": to, "since": since}
        return self._call(
            "find_reply",
            args,
            lambda: self.inner.find_reply(thread=thread, key=key, to=to, since=since),
        )

    def send_private(self, *, thread: str, to: str, subject: str, text: str, key: str) -> str:
        """The inner forum's send_private, unless told to fail (before or after sending)."""
        args = {"thread": thread, "to": to, "subject": subject, "text": text, "key": key}
        then_fail = (
            not self._failures["send_private"] and self._commit_then_fail["send_private"] > 0
        )
        return self._call(
            "send_private",
            args,
            lambda: self.inner.send_private(
                thread=thread, to=to, subject=subject, text=text, key=key
            ),
            then_fail=then_fail,
        )

    @property
    def edits_private(self) -> bool:
        """The inner forum's."""
        return bool(self.inner.edits_private)

    def edit_private(self, *, thread: str, message_id: str, text: str, key: str) -> None:
        """The inner forum's edit_private."""
        self.inner.edit_private(thread=thread, message_id=message_id, text=text, key=key)

    def find_private(self, *, thread: str, to: str, key: str, since: datetime) -> str | None:
        """The inner forum's find_private, unless told to fail."""
        args = {"thread": thread, "to": to, "key": key, "since": since}
        return self._call(
            "find_private",
            args,
            lambda: self.inner.find_private(thread=thread, to=to, key=key, since=since),
        )

    def _call(
        self, method: str, args: dict[str, Any], action: Callable[[], T], *, then_fail: bool = False
    ) -> T:
        queued = self._failures[method]
        if queued:
            error = queued.popleft()
            self.calls.append(Call(method=method, args=args, reached=False, error=error))
            raise error
        try:
            result = action()
        except ForumError as exc:  # the inner forum's own refusal, recorded as such
            self.calls.append(Call(method=method, args=args, reached=True, error=exc))
            raise
        if then_fail:  # committed on the inner forum, and yet the caller hears of an error
            self._commit_then_fail[method] -= 1
            error = ForumError(
                f"{method} was done ({result!r}), but the forum answered with an error (injected)",
                temporary=True,
            )
            self.calls.append(
                Call(method=method, args=args, reached=True, result=result, error=error)
            )
            raise error
        self.calls.append(Call(method=method, args=args, reached=True, result=result))
        return result


# -- time -------------------------------------------------------------------------------------


class ManualClock:
    """A clock for ``LocalForum(clock=...)`` and friends: it reads ``now`` and moves only when
    told (``advance(minutes=5)``, or set ``now``)."""

    def __init__(self, start: datetime) -> None:
        if start.tzinfo is None:
            raise ValueError("the clock needs an aware datetime")
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> datetime:
        """Move on by a ``timedelta(**delta)``; return the new time."""
        self.now += timedelta(**delta)
        return self.now
