"""The local forum's posts and private messages, kept in the bot's database (implements
``LocalStorage``)."""

from __future__ import annotations

import typing
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from functools import cache
from typing import Any

from sqlalchemy import Connection, String, Table, bindparam, cast, func, select, update

from pbp.errors import ForumError
from pbp.forums.base import ForumPost, PrivateMessage
from pbp.store.compiled import execute
from pbp.store.database import Store
from pbp.store.schema import LocalMessageRow, LocalPostRow
from pbp.store.upsert import dialect_insert

POSTS = typing.cast(Table, LocalPostRow.__table__)
MESSAGES = typing.cast(Table, LocalMessageRow.__table__)


def _post(row: Any) -> ForumPost:
    """A post from its row (an object of the session, or a row of the table)."""
    return ForumPost(
        id=row.id,
        thread=row.thread,
        author=row.author,
        body=row.body,
        created_at=row.created_at,
        edited_at=row.edited_at,
        deleted_at=row.deleted_at,
        reply_to=row.reply_to,
        reply_key=row.reply_key,
    )


def _message(row: Any) -> PrivateMessage:
    return PrivateMessage(
        id=f"m{row.id}",
        thread=row.thread,
        to=row.recipient,
        subject=row.subject,
        body=row.body,
        key=row.key,
        sent_at=row.sent_at,
    )


class SqlLocalStorage:
    """Each call is its own short transaction, as a web forum's would be (or, inside
    ``batch()``, one transaction for the whole block). Posts and messages are plain rows:
    read and written by statements on a connection, never as objects of a session."""

    in_bot_database = True  # a batch inside a unit of work of the store is part of it

    def __init__(self, store: Store) -> None:
        self._store = store
        self._batch: Connection | None = None

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Every call inside the block in one transaction, committed when it ends, none of
        them kept if it raises (a replay puts the posts made between two polls at once; a
        delivery posts its replies at once)."""
        if self._batch is not None:
            yield
            return
        with self._store.transaction() as conn:
            self._batch = conn
            try:
                yield
            finally:
                self._batch = None

    @contextmanager
    def _writing(self) -> Iterator[Connection]:
        if self._batch is not None:
            yield self._batch
        else:
            with self._store.transaction() as conn:
                yield conn

    @contextmanager
    def _reading(self) -> Iterator[Connection]:
        if self._batch is not None:  # sees what the block wrote
            yield self._batch
        else:
            with self._store.read_transaction() as conn:
                yield conn

    def add_post(self, post: ForumPost) -> ForumPost:
        """Store a new post; an empty id gets ``p<n>`` (a bot reply ``pbp-<n>``), n the post's
        number in the forum. One statement, unless that id is taken (then the next free one)."""
        prefix = "p" if post.reply_key is None else "pbp-"  # the bot's replies stand apart
        values = {
            "thread": post.thread,
            "author": post.author,
            "body": post.body,
            "created_at": post.created_at,
            "edited_at": post.edited_at,
            "deleted_at": post.deleted_at,
            "reply_to": post.reply_to,
            "reply_key": post.reply_key,
        }
        with self._writing() as conn:
            dialect = conn.dialect.name
            if post.id:
                post_id = execute(
                    conn, _statement(dialect, "given"), {**values, "id": post.id}
                ).scalar()
                if post_id is None:
                    raise ForumError(f"post {post.id} already exists", temporary=False)
            else:
                post_id = execute(
                    conn, _statement(dialect, "numbered"), {**values, "prefix": prefix}
                ).scalar()
            if post_id is None:  # p<n> was taken by a post given that id: the next free one
                n = conn.scalar(select(func.coalesce(func.max(POSTS.c.order), 0) + 1))
                post_id = conn.scalar(
                    _statement(dialect, "given"),
                    {**values, "id": self._free_id(conn, prefix, int(n or 1))},
                )
                assert post_id is not None
        return ForumPost(
            id=str(post_id),
            thread=post.thread,
            author=post.author,
            body=post.body,
            created_at=post.created_at,
            edited_at=post.edited_at,
            deleted_at=post.deleted_at,
            reply_to=post.reply_to,
            reply_key=post.reply_key,
        )

    @staticmethod
    def _free_id(conn: Connection, prefix: str, order: int) -> str:
        n = order
        while execute(conn, _one_post(), {"post_id": f"{prefix}{n}"}).first() is not None:
            n += 1
        return f"{prefix}{n}"

    def save_post(self, post: ForumPost) -> None:
        """A new version of a post: its text, edit and delete times, and a new change number."""
        with self._writing() as conn:
            done = execute(
                conn,
                _statement(conn.dialect.name, "save"),
                {
                    "post_id": post.id,
                    "body": post.body,
                    "edited_at": post.edited_at,
                    "deleted_at": post.deleted_at,
                },
            )
            if not done.rowcount:
                raise KeyError(post.id)

    def edit_post(self, post_id: str, *, body: str, edited_at: datetime) -> bool:
        """A new text of a post not deleted, and a new change number, in one statement."""
        with self._writing() as conn:
            done = execute(
                conn,
                _statement(conn.dialect.name, "edit"),
                {"post_id": post_id, "body": body, "edited_at": edited_at},
            )
            return bool(done.rowcount)

    def get_post(self, post_id: str) -> ForumPost | None:
        """One post by id."""
        with self._reading() as conn:
            row = execute(conn, _one_post(), {"post_id": post_id}).first()
            return None if row is None else _post(row)

    def changed_since(
        self, threads: Sequence[str] | None, *, seq: int
    ) -> tuple[list[ForumPost], int]:
        """Posts of ``threads`` (None: of every thread) changed after ``seq``, oldest change
        first."""
        values: dict[str, Any] = {"seq": seq}
        if threads is not None:
            values["threads"] = list(threads)
        with self._reading() as conn:
            rows = execute(conn, _changed(every=threads is None), values).all()
            if rows and threads is None:  # every post changed since: the newest is the last
                return [_post(r) for r in rows], max(rows[-1].seq, seq)
            last = execute(conn, _last_change()).scalar() or 0
            return [_post(r) for r in rows], max(last, seq)

    def thread_posts(self, thread: str) -> list[ForumPost]:
        """Every post of a thread in the order they were made."""
        with self._reading() as conn:
            rows = conn.execute(
                select(POSTS).where(POSTS.c.thread == thread).order_by(POSTS.c.order)
            ).all()
            return [_post(r) for r in rows]

    def thread_posts_since(self, thread: str, since: datetime) -> list[ForumPost]:
        """The posts of a thread made at or after ``since``, in the order they were made."""
        with self._reading() as conn:
            rows = conn.execute(
                select(POSTS)
                .where(POSTS.c.thread == thread, POSTS.c.created_at >= since)
                .order_by(POSTS.c.order)
            ).all()
            return [_post(r) for r in rows]

    def find_key(self, thread: str, key: str) -> ForumPost | None:
        """The reply with ``key`` in a thread."""
        with self._reading() as conn:
            row = conn.execute(
                select(POSTS).where(POSTS.c.thread == thread, POSTS.c.reply_key == key)
            ).first()
            return None if row is None else _post(row)

    def post_counts(self, threads: Sequence[str]) -> dict[str, int]:
        """The number of posts not deleted of each of these threads that has any."""
        wanted = list(dict.fromkeys(threads))
        counts: dict[str, int] = {}
        with self._reading() as conn:
            for i in range(0, len(wanted), 500):  # under every database's parameter limit
                rows = conn.execute(
                    select(POSTS.c.thread, func.count())
                    .where(POSTS.c.thread.in_(wanted[i : i + 500]), POSTS.c.deleted_at.is_(None))
                    .group_by(POSTS.c.thread)
                ).all()
                counts.update((r[0], int(r[1])) for r in rows)
        return counts

    def thread_names(self) -> list[tuple[str, int]]:
        """Every thread with its number of posts, in the order they were started."""
        with self._reading() as conn:
            rows = conn.execute(
                select(POSTS.c.thread, func.count(), func.min(POSTS.c.order))
                .group_by(POSTS.c.thread)
                .order_by(func.min(POSTS.c.order))
            ).all()
            return [(r[0], int(r[1])) for r in rows]

    # -- private messages ---------------------------------------------------------------------

    def add_message(self, message: PrivateMessage) -> PrivateMessage:
        """Store a private message; its id is ``m<n>``."""
        values = {
            "thread": message.thread,
            "recipient": message.to,
            "subject": message.subject,
            "body": message.body,
            "key": message.key,
            "sent_at": message.sent_at,
        }
        with self._writing() as conn:  # a key sent before is no error of the transaction
            made = execute(conn, _message_insert(conn.dialect.name), values).first()
        if made is None:
            raise ForumError(
                f"a message {message.key} was already sent to {message.to}", temporary=False
            )
        return _message(made)

    def edit_message(self, message_id: str, body: str) -> None:
        """Replace the text of message ``m<n>``."""
        number = message_id.removeprefix("m")
        with self._writing() as conn:
            done = conn.execute(
                MESSAGES.update()
                .where(MESSAGES.c.id == (int(number) if number.isdigit() else -1))
                .values(body=body)
            )
        if done.rowcount != 1:
            raise ForumError(f"there is no private message {message_id}", temporary=False)

    def find_message(self, thread: str, to: str, key: str) -> PrivateMessage | None:
        """The message sent ``to`` about ``thread`` under ``key``."""
        with self._reading() as conn:
            row = conn.execute(
                select(MESSAGES).where(
                    MESSAGES.c.thread == thread, MESSAGES.c.recipient == to, MESSAGES.c.key == key
                )
            ).first()
            return None if row is None else _message(row)

    def messages_to(self, to: str, *, thread: str | None = None) -> list[PrivateMessage]:
        """Every message sent to ``to`` (about ``thread``, when given), oldest first."""
        query = select(MESSAGES).where(func.lower(MESSAGES.c.recipient) == to.casefold())
        if thread is not None:
            query = query.where(MESSAGES.c.thread == thread)
        with self._reading() as conn:
            return [_message(r) for r in conn.execute(query.order_by(MESSAGES.c.id))]


@cache
def _statement(dialect: str, kind: str) -> Any:
    """The local forum's writes, built once (each runs for every post): ``given`` and
    ``numbered`` insert a post (with its id, or ``p<n>`` from the ``prefix``) unless the id
    is taken, returning the id; ``save`` writes a new version of a post, ``edit`` a new text
    of one not deleted. Each takes a new change number; each max() is its own subquery
    (SQLite answers a lone max() from its index)."""
    table = POSTS
    times = LocalPostRow.created_at.type
    seq = select(func.coalesce(func.max(table.c.seq), 0) + 1).scalar_subquery()
    if kind == "edit":  # ``save`` of a post not deleted, its deleted_at left as it is (none)
        return (
            update(table)
            .where(table.c.id == bindparam("post_id"), table.c.deleted_at.is_(None))
            .values(seq=seq, body=bindparam("body"), edited_at=bindparam("edited_at", type_=times))
        )
    if kind == "save":
        return (
            update(table)
            .where(table.c.id == bindparam("post_id"))
            .values(
                seq=seq,
                body=bindparam("body"),
                edited_at=bindparam("edited_at", type_=times),
                deleted_at=bindparam("deleted_at", type_=times),
            )
        )
    order = select(func.coalesce(func.max(table.c.order), 0) + 1).scalar_subquery()
    post_id = (
        bindparam("id", type_=String())
        if kind == "given"
        else bindparam("prefix", type_=String()) + cast(order, String)
    )
    return (
        dialect_insert(dialect)(table)
        .values(
            id=post_id,
            seq=seq,
            order=order,
            **{
                name: bindparam(name)
                for name in ("thread", "author", "body", "reply_to", "reply_key")
            },
            **{
                name: bindparam(name, type_=times)
                for name in ("created_at", "edited_at", "deleted_at")
            },
        )
        .on_conflict_do_nothing(index_elements=["id"])
        .returning(table.c.id)
    )


@cache
def _message_insert(dialect: str) -> Any:
    """A private message, unless its key was sent to that user about that thread before;
    returning its row."""
    return (
        dialect_insert(dialect)(MESSAGES)
        .on_conflict_do_nothing(index_elements=["thread", "recipient", "key"])
        .returning(MESSAGES)
    )


@cache
def _changed(*, every: bool) -> Any:
    """The posts changed after a change number (``every``: in every thread, else in the
    threads bound in a list), built once."""
    table = POSTS  # rows of the table, not objects:
    query = select(table).where(table.c.seq > bindparam("seq"))  # read once, never changed
    if not every:
        query = query.where(table.c.thread.in_(bindparam("threads", expanding=True)))
    return query.order_by(table.c.seq)


@cache
def _one_post() -> Any:
    return select(POSTS).where(POSTS.c.id == bindparam("post_id"))


@cache
def _last_change() -> Any:
    return select(func.max(LocalPostRow.seq))
