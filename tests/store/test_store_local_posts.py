"""The store contract, part 4: the local forum's posts (``SqlLocalStorage``).
Each test runs on SQLite and on PostgreSQL."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone

import pytest

from pbp.forums.base import ForumPost
from pbp.forums.local import LocalStorage
from pbp.store import Store
from pbp.store.local_posts import SqlLocalStorage

T0 = datetime(2026, 11, 29, 10, 0, tzinfo=UTC)


def minutes(n: float) -> datetime:
    return T0 + timedelta(minutes=n)


def post(
    thread: str,
    author: str,
    body: str,
    n: int,
    *,
    id: str = "",
    key: str | None = None,
    to: str | None = None,
) -> ForumPost:
    return ForumPost(
        id=id,
        thread=thread,
        author=author,
        body=body,
        created_at=minutes(n),
        reply_key=key,
        reply_to=to,
    )


@pytest.fixture
def storage(store: Store) -> LocalStorage:
    return SqlLocalStorage(store)


def test_new_posts_get_numbered_ids_and_replies_their_own_prefix(storage: LocalStorage) -> None:
    first = storage.add_post(post("keep-1", "alice", "hello", 1))
    chosen = storage.add_post(post("keep-1", "bob", "hi", 2, id="p3"))
    third = storage.add_post(post("keep-1", "cara", "hey", 3))
    reply = storage.add_post(post("keep-1", "pbp_bot", "noted", 4, key="problem-p1", to="p1"))

    assert [first.id, chosen.id, third.id, reply.id] == ["p1", "p3", "p4", "pbp-4"]
    assert reply == replace(
        post("keep-1", "pbp_bot", "noted", 4, key="problem-p1", to="p1"), id="pbp-4"
    )


def test_a_stored_post_reads_back_whole_and_in_utc(storage: LocalStorage) -> None:
    tokyo = timezone(timedelta(hours=9))
    written = ForumPost(
        id="p7",
        thread="keep-1",
        author="alice",
        body="[physical: attack Goblin]",
        created_at=minutes(1).astimezone(tokyo),
        edited_at=minutes(2),
        deleted_at=minutes(3),
        reply_to="p2",
        reply_key=None,
    )
    storage.add_post(written)

    read = storage.get_post("p7")

    assert read == written
    assert read is not None and read.created_at.tzinfo is UTC
    assert storage.get_post("p8") is None


def test_changed_since_lists_the_asked_threads_in_change_order(storage: LocalStorage) -> None:
    p1 = storage.add_post(post("keep-1", "alice", "one", 1))
    storage.add_post(post("keep-2", "bob", "elsewhere", 2))
    p3 = storage.add_post(post("keep-1", "cara", "three", 3))

    posts, cursor = storage.changed_since(["keep-1"], seq=0)
    assert [p.id for p in posts] == [p1.id, p3.id]
    assert cursor == 3

    storage.save_post(replace(p1, body="one, edited", edited_at=minutes(4)))
    changed, after_edit = storage.changed_since(["keep-1"], seq=cursor)
    assert [(p.id, p.body, p.edited_at) for p in changed] == [(p1.id, "one, edited", minutes(4))]
    assert after_edit == 4

    everything, _ = storage.changed_since(["keep-1", "keep-2"], seq=0)
    assert [p.id for p in everything] == ["p2", p3.id, p1.id]
    assert storage.changed_since(["keep-1"], seq=after_edit) == ([], after_edit)
    assert storage.changed_since(["keep-3"], seq=0) == ([], after_edit)


def test_a_deleted_post_is_listed_again_as_deleted(storage: LocalStorage) -> None:
    p1 = storage.add_post(post("keep-1", "alice", "one", 1))

    storage.save_post(replace(p1, body="", deleted_at=minutes(5)))

    posts, _ = storage.changed_since(["keep-1"], seq=1)
    assert [(p.id, p.body, p.deleted) for p in posts] == [("p1", "", True)]


def test_an_edit_is_a_new_version_of_a_post_not_deleted(storage: LocalStorage) -> None:
    p1 = storage.add_post(post("keep-1", "alice", "one", 1))
    p2 = storage.add_post(post("keep-1", "bob", "two", 2))
    storage.save_post(replace(p2, body="", deleted_at=minutes(5)))
    _, seq = storage.changed_since(["keep-1"], seq=0)

    assert storage.edit_post(p1.id, body="one, fixed", edited_at=minutes(6))
    assert not storage.edit_post(p2.id, body="back", edited_at=minutes(6))  # deleted
    assert not storage.edit_post("p404", body="x", edited_at=minutes(6))

    posts, after = storage.changed_since(["keep-1"], seq=seq)
    assert posts == [replace(p1, body="one, fixed", edited_at=minutes(6))] and after == seq + 1
    assert storage.get_post(p2.id) == replace(p2, body="", deleted_at=minutes(5))


def test_saving_an_unknown_post_is_an_error(storage: LocalStorage) -> None:
    with pytest.raises(KeyError):
        storage.save_post(post("keep-1", "alice", "one", 1, id="p404"))


def test_thread_posts_keeps_creation_order_after_edits(storage: LocalStorage) -> None:
    p1 = storage.add_post(post("keep-1", "alice", "one", 1))
    storage.add_post(post("keep-2", "bob", "elsewhere", 2))
    p3 = storage.add_post(post("keep-1", "cara", "three", 3))
    storage.save_post(replace(p1, body="one, edited", edited_at=minutes(4)))

    assert [(p.id, p.body) for p in storage.thread_posts("keep-1")] == [
        (p1.id, "one, edited"),
        (p3.id, "three"),
    ]
    assert storage.thread_posts("keep-3") == []


def test_find_key_finds_the_reply_in_its_thread_only(storage: LocalStorage) -> None:
    storage.add_post(post("keep-1", "alice", "one", 1))
    reply = storage.add_post(post("keep-1", "pbp_bot", "summary", 2, key="summary-1"))
    storage.add_post(post("keep-2", "pbp_bot", "other summary", 3, key="summary-2"))

    assert storage.find_key("keep-1", "summary-1") == reply
    assert storage.find_key("keep-2", "summary-1") is None
    assert storage.find_key("keep-1", "summary-9") is None
