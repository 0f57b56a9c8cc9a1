"""Re-reads: the open rounds' posts read again on a forum whose listing shows no edits
(SPEC §8), for every thread at once, in as few requests as the forum allows.

Two needs:
- **the close**: before a round closes (a GM's closing line in the listing, or the deadline of
  a round with an action), every live post of the round is read again, so the version
  current at the close counts (SPEC §4.3);
- **the fix**: a post that got an error reply is read again now and then, so that a fix shows
  (and its reply says so) before the close. How often backs off with the post's age: after 1,
  2, 4, 8 … times ``first`` (the bot's ``reread_after``), then every ``LONGEST_GAP``. Most fixes
  come soon after the reply, and the close reads everything anyway.

Each thread's cycle keeps in its row what that takes (``OpenRound``). The ingest of each poll
reads what falls due for every thread in one batch (Reddit: 100 posts a request), keeps the
versions in the inbox as it keeps a listing's, and moves each thread's next re-read on. A
re-read due waits (up to ``MAY_WAIT``) for a batch that goes out anyway: a close's, or one
of a full request; a batch takes along the threads whose re-read falls due soon, while they
fit in its requests. A close the ingest could not foresee is re-read by its cycle.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

LONGEST_GAP = timedelta(hours=4)  # between two re-reads of a post that got an error reply
RIDE_ALONG = timedelta(minutes=30)  # how soon a re-read may fall due to go with a batch
MAY_WAIT = timedelta(minutes=10)  # how long a re-read due may wait for a batch to go anyway


@dataclass(frozen=True, slots=True, kw_only=True)
class OpenRound:
    """What the re-reads need of a thread's open round: its live posts, the posts that got
    an error reply (with their times), and when it closes by itself (its deadline, if it
    holds an action)."""

    posts: tuple[str, ...]
    errors: tuple[tuple[str, datetime], ...] = ()
    closes_at: datetime | None = None

    def encode(self) -> str:
        """As the thread's row keeps it."""
        return json.dumps({
            "posts": list(self.posts),
            "errors": [[post, at.isoformat()] for post, at in self.errors],
            "closes_at": self.closes_at.isoformat() if self.closes_at else None,
        }, separators=(",", ":"))

    @staticmethod
    def decode(text: str | None) -> OpenRound | None:
        """From the thread's row (None: no open round, or nothing kept yet)."""
        if not text:
            return None
        data = json.loads(text)
        closes = data.get("closes_at")
        return OpenRound(
            posts=tuple(data["posts"]),
            errors=tuple((post, datetime.fromisoformat(at)) for post, at in data["errors"]),
            closes_at=datetime.fromisoformat(closes) if closes else None,
        )


def next_reread(errors: Iterable[tuple[str, datetime]], *, now: datetime,
                first: timedelta) -> datetime | None:
    """When the posts that got an error reply are next read again (None: there are none)."""
    return min((_next_after(at, now=now, first=first) for _post, at in errors), default=None)


def _next_after(at: datetime, *, now: datetime, first: timedelta) -> datetime:
    """The first moment after ``now`` of one post's schedule: ``at`` + first, 2 first, 4 first
    … up to LONGEST_GAP apart, then every LONGEST_GAP."""
    gap = min(first, LONGEST_GAP)
    due = at + gap
    while due <= now:
        if gap < LONGEST_GAP:
            gap = min(gap * 2, LONGEST_GAP)
            due = at + gap
        else:
            due += LONGEST_GAP
    return due


@dataclass(frozen=True, slots=True, kw_only=True)
class Candidate:
    """A thread whose posts may be read again in this poll."""

    thread_id: int
    key: str
    round: OpenRound
    reread_at: datetime | None
    closing: bool  # a closing line of its GM is in this poll's listing


@dataclass(frozen=True, slots=True, kw_only=True)
class Batch:
    """The posts to read again, by thread key, and the threads whose next re-read moves on."""

    wanted: dict[str, list[str]] = field(default_factory=dict)
    moved: dict[int, datetime | None] = field(default_factory=dict)  # thread id -> next

    @property
    def size(self) -> int:
        """How many posts it reads."""
        return sum(len(ids) for ids in self.wanted.values())


def plan_batch(candidates: Sequence[Candidate], *, now: datetime, first: timedelta,
               per_request: int) -> Batch:
    """What to read again now: the rounds that close (every live post); the re-reads due (the
    posts that got an error reply), if a batch goes anyway, they fill a request, or one of them
    has waited ``MAY_WAIT``; then, while they fit in the same requests, the re-reads due within
    ``RIDE_ALONG``, soonest first."""
    batch = Batch()
    due: list[Candidate] = []
    later: list[Candidate] = []
    for c in candidates:
        if c.closing or (c.round.closes_at is not None and now >= c.round.closes_at):
            _take(batch, c, list(c.round.posts), now=now, first=first)
        elif c.reread_at is not None and c.round.errors:
            (due if now >= c.reread_at else later).append(c)
    waited = any(c.reread_at is not None and now - c.reread_at >= MAY_WAIT for c in due)
    if not (batch.size or waited or sum(len(c.round.errors) for c in due) >= per_request):
        return batch
    for c in due:
        _take(batch, c, [post for post, _at in c.round.errors], now=now, first=first)
    room = math.ceil(batch.size / per_request) * per_request - batch.size
    for c in sorted(later, key=lambda c: (c.reread_at, c.thread_id)):
        if c.reread_at is None or c.reread_at > now + RIDE_ALONG:
            continue
        if len(c.round.errors) > room:
            continue
        _take(batch, c, [post for post, _at in c.round.errors], now=now, first=first)
        room -= len(c.round.errors)
    return batch


def _take(batch: Batch, c: Candidate, ids: list[str], *, now: datetime,
          first: timedelta) -> None:
    if ids:
        batch.wanted[c.key] = list(dict.fromkeys(ids))
    batch.moved[c.thread_id] = next_reread(c.round.errors, now=now, first=first)
