"""Posting the replies the outbox holds, each exactly once.

An attempt is recorded (and committed) before the forum is asked. If the process dies after the
forum took the reply but before it was marked posted, or the forum committed it and answered
with an error, the next delivery sees the attempt and asks the forum for a reply with that key
before posting again. A reply the forum already holds under that key (found so, or found when
the thread was read whole with a store that had no record of it) is edited to the text owed
instead of posted again. So every reply is posted, and none twice. A private message (a row
with a recipient) is sent the same way: looked for under its key before any retry, never
edited.

A delivery sends inside the forum's ``sending()`` block (the local forum takes all of it in one
transaction) and records what the forum took and refused at its end, inside it: on the local
forum that is the same transaction, so a reply is posted and recorded as posted together, or
neither is (and inside the unit of work of the thread's cycle, the bot's, with all of it).
Only what the forum took in a block that ended is recorded as posted: a block that raised may
have taken its replies with it, and the attempts counted make the next delivery look each one
up first.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from pbp.errors import ForumError
from pbp.forums.base import Forum
from pbp.store.database import Store
from pbp.store.inbox import Inbox
from pbp.store.leases import Leases
from pbp.store.records import ReplyRecord
from pbp.store.repository import Owing, Repository, Sent
from pbp.values import frozen_value

log = logging.getLogger(__name__)


@frozen_value
class Delivered:
    """A reply posted or edited on the forum (or a private message sent to ``private_to``)."""

    key: str
    forum_id: str
    to: str | None
    text: str
    edited: bool
    private_to: str | None = None


class KeyedReply(Protocol):
    """A reply's key and revision (its row, as an object or as values)."""

    @property
    def key(self) -> str: ...
    @property
    def revision(self) -> int: ...


def forum_key(row: KeyedReply) -> str:
    """The key a reply carries on the forum (unique within its thread)."""
    return row.key if row.revision == 1 else f"{row.key}~{row.revision}"


@frozen_value
class Owed:
    """A reply to send, as read before the forum is asked."""

    id: int
    key: str
    status: str
    to: str | None
    text: str
    forum_id: str | None
    tried_before: bool
    found: str | None  # the id of a reply with this key the forum was seen to hold
    since: datetime  # its first attempt (or, before that was kept, when it was queued)
    to_user: str | None = None  # a private message's recipient
    subject: str = ""


@dataclass(slots=True)
class Delivery:
    """What one delivery did: the replies sent, the ones refused for good (to report to the
    operator), and the temporary failure that made the rest wait, if any."""

    sent: list[Delivered]
    refused: list[str]
    waiting: str | None = None


def owed_replies(
    repo: Repository,
    thread_id: int,
    *,
    now: datetime,
    count: bool = True,
    owed_before: bool = True,
) -> list[Owed]:
    """The replies of a thread to post or edit now, oldest first, each with an attempt counted
    (committed with the unit of work, before the forum is asked) at ``now``; with each, the
    reply the forum was seen to hold under its key (read in the same statement).

    ``count=False``: for a delivery in this same unit of work to a forum in the bot's
    database (``deliver(counted=False)``), which counts the attempts with what it records:
    the forum's posts, the attempts and the sent marks commit together or not at all.

    ``owed_before=False``: the thread owed nothing, and the forum was seen to hold no reply
    it has no row of, when the unit of work began; the replies its cycle wrote are then all
    it owes, and they are not read again when the repository knows them all."""
    written = None if owed_before else repo.owed_here(thread_id)
    rows = repo.owed(thread_id) if written is None else [(r, None) for r in written]
    owed = [
        Owed(
            id=r.id,
            key=forum_key(r),
            status=r.status,
            to=r.to_post,
            text=r.text,
            forum_id=r.forum_reply_id,
            tried_before=r.attempts > 0,
            found=found if r.status == "pending" else None,
            since=(r.tried_at or r.created_at) if r.attempts > 0 else now,
            to_user=r.to_user,
            subject=r.subject or "",
        )
        for r, found in rows
        if r.status != "failed"
    ]
    if count:
        repo.count_attempts([o.id for o in owed], at=now)
    return owed


def deliver(
    store: Store,
    forum: Forum,
    *,
    thread_id: int,
    thread: str,
    now: datetime,
    owner: str | None = None,
    owed: list[Owed] | None = None,
    counted: bool = True,
) -> Delivery:
    """Post or edit every undelivered reply of a thread, oldest first (nothing unless
    ``owner``, when given, still holds the thread's lease). ``owed``: the replies as
    ``owed_replies`` read them in a unit of work committed since (else they are read now);
    ``counted=False``: read without their attempts counted, in the unit of work this delivery
    records in (a forum in the bot's database), so they are counted with the record.

    Stops at the first temporary forum error (the rest keep their order and go next poll). A
    permanent error on a reply to a post (the post is gone) posts it in the thread next time;
    any other permanent error marks the reply failed, with the reason, and goes on.
    """
    if owed is None:
        with store.session() as s:
            if owner is not None and Leases(s).hold(thread_id, owner=owner) is None:
                return Delivery(sent=[], refused=[])  # another worker runs the thread now
            owed = owed_replies(Repository(s), thread_id, now=now)
    delivery = Delivery(sent=[], refused=[])
    if not owed:
        return delivery  # nothing to send: the forum is not asked (nor opened) at all
    if not counted and not forum.in_bot_database:  # the attempts must commit before it asks
        raise ValueError("only a forum in the bot's database counts attempts with the record")
    uncounted = [] if counted else owed  # attempts to count with the record
    done: list[tuple[Owed, str]] = []  # (reply, its id on the forum)
    failed: list[tuple[Owed, ForumError]] = []
    recorded = False
    try:
        with forum.sending():  # on the forum when the block ends; if it raises, maybe not
            _send_all(forum, owed, thread=thread, delivery=delivery, done=done, failed=failed)
            if done or failed:  # a forum in the bot's database: in the same transaction
                _record(store, done, failed, thread_id=thread_id, now=now, uncounted=uncounted)
        recorded = True
    except BaseException:
        # what the forum took inside the block may be gone with it: not recorded as posted,
        # its attempt is counted, so the next delivery looks it up by key before posting
        done.clear()
        raise
    finally:  # what the forum refused is recorded even then
        if not recorded and failed:
            _record(store, done, failed, thread_id=thread_id, now=now, uncounted=uncounted)
    return delivery


class PostedBefore(Exception):
    """A key held back to be posted first had a row already: its reply went out under the
    wrong key on the forum (so the unit of work that posted it must not be kept)."""


def post_first(
    forum: Forum, repo: Repository, held: Sequence[Owing], *, thread: str, now: datetime
) -> Delivery:
    """Send the replies a thread's cycle held back (``Repository.held_replies``: all it owes,
    the thread owing nothing before), on a forum in the bot's database, inside that cycle's
    unit of work, and write their rows as posted: the same rows, posts and order as
    ``owed_replies`` and ``deliver`` would make of them, with no sent marks to write. An
    edit's row is written first (its id on the forum comes with it), the forum is asked in
    the order of the rows (the edited one is older), and the new rows go in last, each with
    its id there and its key's first revision (``PostedBefore`` if a key had a row).

    Whatever fails raises, the forum's refusals too: none of the unit of work is kept, and
    the usual way runs (and records them)."""
    delivery = Delivery(sent=[], refused=[])
    stored: set[int] = set()  # the edits of keys with a row
    with forum.sending():
        for i, o in enumerate(held):
            if o.edit and (row := repo.edit_posted(o, at=now)) is not None:
                stored.add(i)
                _edit_first(forum, row, o.text, thread=thread, delivery=delivery)
        new: list[tuple[Owing, str]] = []
        for i, o in enumerate(held):
            if i in stored:
                continue
            to = None if o.edit else o.to  # (an edit of a key with no row: in the thread)
            forum_id = forum.reply(thread=thread, to=to, text=o.text, key=o.key)
            new.append((o, forum_id))
            delivery.sent.append(
                Delivered(key=o.key, forum_id=forum_id, to=to, text=o.text, edited=False)
            )
        written = repo.insert_posted(new, at=now)
    if any(r.revision != 1 for r in written):
        raise PostedBefore(f"thread {thread}: a key posted before went out as new")
    return delivery


def _edit_first(
    forum: Forum, row: ReplyRecord, text: str, *, thread: str, delivery: Delivery
) -> None:
    """Edit on the forum a posted reply whose row ``edit_posted`` just wrote (one given up
    is not sent, as ``owed_replies`` leaves it out)."""
    if row.status == "failed":
        return
    if row.status != "posted" or row.forum_reply_id is None:
        raise ValueError(f"reply {row.key} was owed before its thread's cycle")
    key = forum_key(row)
    forum.edit_reply(thread=thread, reply_id=row.forum_reply_id, text=text, key=key)
    delivery.sent.append(
        Delivered(key=key, forum_id=row.forum_reply_id, to=row.to_post, text=text, edited=True)
    )


def _send_all(
    forum: Forum,
    owed: list[Owed],
    *,
    thread: str,
    delivery: Delivery,
    done: list[tuple[Owed, str]],
    failed: list[tuple[Owed, ForumError]],
) -> None:
    """Send each reply in order, noting what the forum took (``done``) and refused
    (``failed``), up to the first temporary error."""
    for reply in owed:
        try:
            forum_id = _send_one(forum, reply, thread=thread)
        except ForumError as exc:
            failed.append((reply, exc))
            if exc.temporary:
                log.warning("thread %s: the forum failed (%s); retrying next poll", thread, exc)
                delivery.waiting = f"reply {reply.key} waits for the next poll: {exc}"
                return
            if _gives_up(reply):
                log.error("thread %s: reply %s refused for good: %s", thread, reply.key, exc)
                delivery.refused.append(f"reply {reply.key} refused for good: {exc}")
            else:
                log.warning(
                    "thread %s: reply %s goes in the thread instead: %s", thread, reply.key, exc
                )
            continue
        done.append((reply, forum_id))
        delivery.sent.append(
            Delivered(
                key=reply.key,
                forum_id=forum_id,
                to=reply.to,
                text=reply.text,
                edited=reply.status == "edit-pending",
                private_to=reply.to_user,
            )
        )


def _send_one(forum: Forum, reply: Owed, *, thread: str) -> str:
    """Post or edit one reply, or send one private message; its id on the forum."""
    if reply.to_user is not None and reply.status == "edit-pending":  # a copy replaced
        assert reply.forum_id is not None
        forum.edit_private(thread=thread, message_id=reply.forum_id, text=reply.text, key=reply.key)
        return reply.forum_id
    if reply.to_user is not None:  # a private message: sent once
        sent = (
            forum.find_private(thread=thread, to=reply.to_user, key=reply.key, since=reply.since)
            if reply.tried_before
            else None
        )
        return sent or forum.send_private(
            thread=thread, to=reply.to_user, subject=reply.subject, text=reply.text, key=reply.key
        )
    if reply.status == "edit-pending":
        assert reply.forum_id is not None
        forum.edit_reply(thread=thread, reply_id=reply.forum_id, text=reply.text, key=reply.key)
        return reply.forum_id
    found = reply.found or (
        forum.find_reply(thread=thread, key=reply.key, to=reply.to, since=reply.since)
        if reply.tried_before
        else None
    )
    if found is not None:  # on the forum already, maybe with an older text: make it ours
        forum.edit_reply(thread=thread, reply_id=found, text=reply.text, key=reply.key)
        return found
    return forum.reply(thread=thread, to=reply.to, text=reply.text, key=reply.key)


def _gives_up(reply: Owed) -> bool:
    """Whether a permanent error ends the reply (one to a post that is gone goes in the
    thread instead)."""
    return not (reply.status == "pending" and reply.to is not None)


def _record(
    store: Store,
    done: list[tuple[Owed, str]],
    failed: list[tuple[Owed, ForumError]],
    *,
    thread_id: int,
    now: datetime,
    uncounted: list[Owed],
) -> None:
    """What the forum took and what it refused, in one unit of work after the delivery (an
    attempt was counted before each: a crash before this commits costs a key lookup next
    time, never a second post). ``uncounted``: the replies read in this same unit of work
    without their attempts counted (a forum in the bot's database): counted now, a sent one's
    in its sent mark (one statement), as ``owed_replies`` would have counted them."""
    with store.session() as s:
        repo, inbox = Repository(s), Inbox(s)
        sent_ids = {reply.id for reply, _ in done}
        repo.count_attempts([o.id for o in uncounted if o.id not in sent_ids], at=now)
        repo.mark_all_sent(
            [
                Sent(reply_id=reply.id, forum_id=forum_id, text=reply.text)
                for reply, forum_id in done
            ],
            at=now,
            count=bool(uncounted),
        )
        for reply, _ in done:
            if reply.found is not None:
                inbox.forget_found(thread_id, reply.key)
        for reply, exc in failed:
            _record_error(repo, reply, exc)


def _record_error(repo: Repository, reply: Owed, exc: ForumError) -> None:
    """Note the error on the reply: a temporary one waits, a permanent one on a reply to a
    post moves it into the thread, any other gives it up."""
    row = repo.reply(reply.id)
    if row is None:
        return
    if exc.temporary:
        repo.record_reply_error(row, error=str(exc))
    elif row.status == "pending" and row.to_post is not None:
        # the post it answers is gone: say it in the thread instead
        repo.record_reply_error(row, error=str(exc), into_thread=True)
    else:
        repo.record_reply_error(row, error=str(exc), give_up=True)
