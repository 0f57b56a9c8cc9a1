"""Posting the replies the outbox holds, each exactly once.

An attempt is recorded (and committed) before the forum is asked. If the process dies after the
forum took the reply but before it was marked posted, or the forum committed it and answered
with an error, the next delivery sees the attempt and asks the forum for a reply with that key
before posting again. So every reply is posted, and none twice.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from pbp.errors import ForumError
from pbp.forums.base import Forum
from pbp.store.database import Store
from pbp.store.repository import Repository
from pbp.store.schema import ReplyRow

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True, kw_only=True)
class Delivered:
    """A reply posted or edited on the forum."""

    key: str
    forum_id: str
    to: str | None
    text: str
    edited: bool


def forum_key(row: ReplyRow) -> str:
    """The key a reply carries on the forum (unique within its thread)."""
    return row.key if row.revision == 1 else f"{row.key}~{row.revision}"


def deliver(store: Store, forum: Forum, *, thread_id: int, thread: str,
            now: datetime) -> list[Delivered]:
    """Post or edit every undelivered reply of a thread, oldest first.

    Stops at the first temporary forum error (the rest keep their order and go next poll). A
    permanent error on a reply to a post (the post is gone) posts it in the thread next time;
    any other permanent error marks the reply failed, with the reason, and goes on.
    """
    with store.session() as s:
        repo = Repository(s)
        rows = [r for r in repo.undelivered(thread_id) if r.status != "failed"]
        tried = {r.id: r.attempts > 0 for r in rows}
        repo.count_attempts(list(tried))  # committed before the forum is asked
    done: list[Delivered] = []
    for reply_id, tried_before in tried.items():
        try:
            delivered = _deliver_one(store, forum, reply_id=reply_id, thread=thread, now=now,
                                     tried_before=tried_before)
        except ForumError as exc:
            _record_error(store, reply_id, exc)
            if exc.temporary:
                log.warning("thread %s: the forum failed (%s); retrying next poll", thread, exc)
                break
            log.error("thread %s: a reply could not be posted: %s", thread, exc)
            continue
        if delivered is not None:
            done.append(delivered)
    return done


def _deliver_one(store: Store, forum: Forum, *, reply_id: int, thread: str, now: datetime,
                 tried_before: bool) -> Delivered | None:
    with store.session() as s:
        row = Repository(s).reply(reply_id)
        if row is None or row.status == "posted":
            return None
        key, status, to, text = forum_key(row), row.status, row.to_post, row.text
        forum_id = row.forum_reply_id
    if status == "edit-pending":
        assert forum_id is not None
        forum.edit_reply(thread=thread, reply_id=forum_id, text=text)
    else:
        found = forum.find_reply(thread=thread, key=key) if tried_before else None
        forum_id = found or forum.reply(thread=thread, to=to, text=text, key=key)
    with store.session() as s:
        row = Repository(s).reply(reply_id)
        assert row is not None
        if row.text != text:  # edited again meanwhile: the new text still has to go out
            row.status, row.forum_reply_id = "edit-pending", forum_id
        else:
            row.status, row.forum_reply_id = "posted", forum_id
        row.posted_at = row.posted_at or now
        row.last_error = None
    return Delivered(key=key, forum_id=forum_id, to=to, text=text,
                     edited=status == "edit-pending")


def _record_error(store: Store, reply_id: int, exc: ForumError) -> None:
    with store.session() as s:
        row = Repository(s).reply(reply_id)
        if row is not None:
            row.last_error = str(exc)
            if exc.temporary:
                return
            if row.status == "pending" and row.to_post is not None:
                row.to_post = None  # the post it answers is gone: say it in the thread instead
            else:
                row.status = "failed"
