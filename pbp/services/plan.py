"""What a batch of forum posts means to the engine: arrivals, edits and deletes, in time order.

Each post is compared with the newest version the bot has seen (its body hash), so a post seen
again unchanged is nothing, a new text is an edit and a post gone is a delete; every version is
handled once, however often a listing or a re-read shows it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from datetime import datetime

from pbp.engine.events import PostArrived, PostDeleted, PostEdited
from pbp.forums.base import ForumPost
from pbp.store.records import KnownPost
from pbp.values import frozen_value

PostEvent = PostArrived | PostEdited | PostDeleted


def body_hash(body: str) -> str:
    """The hash every version of a post is kept under (its text may be purged)."""
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


@frozen_value
class Planned:
    """One post version to handle: the engine event, or None for a post deleted before the
    bot ever saw it (recorded, never acted on)."""

    event: PostEvent | None
    post_id: str
    version: int
    author: str
    body: str
    at: datetime
    deleted: bool

    @property
    def kind(self) -> str:
        """``post``, ``edit`` or ``delete``: the event's name in the thread's log."""
        match self.event:
            case PostArrived():
                return "post"
            case PostEdited():
                return "edit"
            case _:
                return "delete"


def plan(
    posts: Iterable[ForumPost], *, known: Mapping[str, KnownPost], bot: str, now: datetime
) -> list[Planned]:
    """The versions among ``posts`` not handled yet, as events sorted by time.

    ``posts`` may repeat a post (a listing and a re-read): the last copy of each wins. The
    bot's own posts are never read.
    """
    latest: dict[str, ForumPost] = {}
    for post in posts:
        if post.author.casefold() != bot.casefold():
            latest[post.id] = post
    planned = [p for p in (_one(post, known.get(post.id), now) for post in latest.values()) if p]
    order = {post_id: i for i, post_id in enumerate(latest)}
    return sorted(planned, key=lambda p: (p.at, order[p.post_id]))


def _one(post: ForumPost, seen: KnownPost | None, now: datetime) -> Planned | None:
    if seen is None:
        event = (
            None
            if post.deleted
            else PostArrived(
                post_id=post.id, author=post.author, at=post.created_at, body=post.body
            )
        )
        return Planned(
            event=event,
            post_id=post.id,
            version=1,
            author=post.author,
            body=post.body,
            at=post.created_at,
            deleted=post.deleted,
        )
    if seen.deleted:
        return None
    version = seen.version + 1
    if post.deleted:
        at = post.deleted_at or now
        return Planned(
            event=PostDeleted(post_id=post.id, at=at),
            post_id=post.id,
            version=version,
            author=seen.author,
            body="",
            at=at,
            deleted=True,
        )
    if body_hash(post.body) == seen.body_hash:
        return None
    at = post.edited_at or now
    return Planned(
        event=PostEdited(post_id=post.id, at=at, body=post.body),
        post_id=post.id,
        version=version,
        author=seen.author,
        body=post.body,
        at=at,
        deleted=False,
    )
