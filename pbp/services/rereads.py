"""Re-reads: the open rounds' posts read again on a forum whose listing shows no edits
(SPEC §8), for every thread at once, in as few requests as the forum allows.

Two needs:
- **the close**: before a round closes (a GM's closing line in the listing, or the deadline of
  a round with an action), every live post of the round is read again, so the version
  current at the close counts (SPEC §4.3);
- **the reply**: a post whose reply an edit could make untrue (it reports problems an edit
  may fix, or confirms tags an edit may break) is read again now and then, so that the reply
  follows the post before the close. Each such post has its own schedule, which backs off
  with its age: ``first`` (the bot's ``reread_after``), 2, 4, 8 … times that after it was
  written, up to ``LONGEST_GAP`` apart, then every ``LONGEST_GAP``. Most fixes come soon after
  the reply, and the close reads everything anyway.

Each thread's cycle keeps in its row what that takes (``OpenRound``), and when its next
re-read falls due (``reread_at``, the soonest of its posts'). The ingest of each poll reads
what falls due for every thread in one batch (Reddit: 100 posts a request), keeps the versions
in the inbox as it keeps a listing's, and moves the schedules on. A re-read due waits (up to
``MAY_WAIT``) for a batch that goes out anyway, a close's or one of a full request; a batch
takes along, while they fit in its requests, the posts whose re-read falls due within
``RIDE_ALONG`` (read early, in place of that one). A close the ingest could not foresee is
read by its own cycle.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import field
from datetime import datetime, timedelta

from pbp.engine.post_contents import AckContent, DoneContent, FixedContent
from pbp.engine.state import PostRecord
from pbp.values import frozen_value, replace

LONGEST_GAP = timedelta(hours=4)  # between two re-reads of a post that got an error reply
RIDE_ALONG = timedelta(minutes=30)  # how soon a re-read may fall due to go with a batch
MAY_WAIT = timedelta(minutes=10)  # how long a re-read due may wait for a batch to go anyway


@frozen_value
class Watched:
    """A post of the open round whose reply an edit could make untrue (``may_go_stale``): when
    it was written and when it is read again next."""

    post: str
    at: datetime
    due: datetime


@frozen_value
class OpenRound:
    """What the re-reads need of a thread's open round: its live posts, those whose reply an
    edit could make untrue, and when it closes by itself (its deadline, if it holds an
    action)."""

    posts: tuple[str, ...]
    watched: tuple[Watched, ...] = ()
    closes_at: datetime | None = None

    @property
    def reread_at(self) -> datetime | None:
        """When one of its posts is read again next (None: none will be)."""
        return min((e.due for e in self.watched), default=None)

    def encode(self) -> str:
        """As the thread's row keeps it."""
        return json.dumps(
            {
                "posts": list(self.posts),
                "watched": [[e.post, e.at.isoformat(), e.due.isoformat()] for e in self.watched],
                "closes_at": self.closes_at.isoformat() if self.closes_at else None,
            },
            separators=(",", ":"),
        )

    @staticmethod
    def decode(text: str | None) -> OpenRound | None:
        """From the thread's row (None: no open round, or nothing kept yet)."""
        if not text:
            return None
        data = json.loads(text)
        closes = data.get("closes_at")
        return OpenRound(
            posts=tuple(data["posts"]),
            watched=tuple(
                Watched(post=post, at=datetime.fromisoformat(at), due=datetime.fromisoformat(due))
                for post, at, due in data.get("watched", ())
            ),
            closes_at=datetime.fromisoformat(closes) if closes else None,
        )


def may_go_stale(post: PostRecord) -> bool:
    """Whether an edit could make the post's reply untrue: it reports problems of its tags (an
    edit may fix them; its command lines act from their first version), or confirms its tags
    (an edit may break them)."""
    if post.deleted or post.reply is None:
        return False
    content = post.reply.content
    said = content.then if isinstance(content, DoneContent) else content
    return bool(post.problems) or isinstance(said, AckContent | FixedContent)


def next_after(at: datetime, *, now: datetime, first: timedelta) -> datetime:
    """The first moment after ``now`` of the schedule of a post written ``at``: ``at`` +
    first, 2 first, 4 first … up to LONGEST_GAP apart, then every LONGEST_GAP."""
    gap = min(first, LONGEST_GAP)
    due = at + gap
    while due <= now:
        if gap < LONGEST_GAP:
            gap = min(gap * 2, LONGEST_GAP)
            due = at + gap
        else:
            due += LONGEST_GAP
    return due


def schedules(
    posts: Iterable[tuple[str, datetime]],
    *,
    before: OpenRound | None,
    now: datetime,
    first: timedelta,
) -> tuple[Watched, ...]:
    """The schedules of these posts (id, time written): each one kept from ``before`` (what
    the thread's row held), or, for a post new to it, its first moment after ``now``."""
    kept = {e.post: e for e in before.watched} if before is not None else {}
    return tuple(
        kept.get(post) or Watched(post=post, at=at, due=next_after(at, now=now, first=first))
        for post, at in posts
    )


@frozen_value
class Candidate:
    """A thread whose posts may be read again in this poll."""

    thread_id: int
    key: str
    round: OpenRound
    closing: bool  # a closing line of its GM is in this poll's listing


@frozen_value
class Batch:
    """The posts to read again, by thread key, and what each thread read keeps afterwards
    (its schedules moved on), by thread id."""

    wanted: dict[str, list[str]] = field(default_factory=dict)
    moved: dict[int, OpenRound] = field(default_factory=dict)

    @property
    def size(self) -> int:
        """How many posts it reads."""
        return sum(len(ids) for ids in self.wanted.values())


def plan_batch(
    candidates: Sequence[Candidate], *, now: datetime, first: timedelta, per_request: int
) -> Batch:
    """What to read again now: the rounds that close (every live post); the posts due, if a
    batch goes anyway, they fill a request, or one has waited ``MAY_WAIT``; then, while they
    fit in the same requests, the posts due within ``RIDE_ALONG``, soonest first."""
    wanted: dict[int, set[str]] = {}
    closing: set[int] = set()
    due: list[tuple[Candidate, Watched]] = []
    soon: list[tuple[Candidate, Watched]] = []
    for c in candidates:
        if c.closing or (c.round.closes_at is not None and now >= c.round.closes_at):
            wanted[c.thread_id] = set(c.round.posts)
            closing.add(c.thread_id)
            continue
        for post in c.round.watched:
            if post.due <= now:
                due.append((c, post))
            elif post.due <= now + RIDE_ALONG:
                soon.append((c, post))
    waited = any(now - post.due >= MAY_WAIT for _c, post in due)
    if not (wanted or waited or len(due) >= per_request):
        return Batch()
    for c, post in due:
        wanted.setdefault(c.thread_id, set()).add(post.post)
    size = sum(len(ids) for ids in wanted.values())
    room = math.ceil(size / per_request) * per_request - size
    for c, post in sorted(soon, key=lambda pair: (pair[1].due, pair[0].thread_id)):
        if room <= 0:
            break
        if post.post not in wanted.setdefault(c.thread_id, set()):
            wanted[c.thread_id].add(post.post)
            room -= 1
    return _batch(candidates, wanted, closing, now=now, first=first)


def _batch(
    candidates: Sequence[Candidate],
    wanted: dict[int, set[str]],
    closing: set[int],
    *,
    now: datetime,
    first: timedelta,
) -> Batch:
    """The batch, and each thread's schedules moved past what it reads: a post read when due
    (or at a close) next falls due after now; one read early, after the moment it stood for."""
    batch = Batch()
    for c in candidates:
        read = wanted.get(c.thread_id)
        if not read:
            continue
        batch.wanted[c.key] = [p for p in c.round.posts if p in read] + sorted(
            read - set(c.round.posts)
        )
        watched = tuple(
            e
            if e.post not in read and c.thread_id not in closing
            else replace(e, due=next_after(e.at, now=max(now, e.due), first=first))
            for e in c.round.watched
        )
        batch.moved[c.thread_id] = replace(c.round, watched=watched)
    return batch
