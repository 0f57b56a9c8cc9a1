"""The local forum's own rules, on each storage; and the in-memory storage matching the SQL one."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from fakes import MemoryLocalStorage
from forum_harness import START, LocalHarness, local_harness, sql_storage
from hypothesis import given, settings
from hypothesis import strategies as st

from pbp.errors import ForumError
from pbp.forums.local import POST_LIMIT
from pbp.store.database import Store
from pbp.store.local_posts import SqlLocalStorage


def post(local: LocalHarness, thread: str = "keep", body: str = "hello", **kw: Any) -> str:
    at = local.clock.advance(minutes=1)
    return local.local.post(thread=thread, author="alice", body=body, at=at, **kw).id


def refusal(action: Callable[[], object]) -> ForumError:
    """The permanent ForumError ``action`` raises."""
    with pytest.raises(ForumError) as caught:
        action()
    assert caught.value.temporary is False
    return caught.value


# -- ids --------------------------------------------------------------------------------------


def test_posts_are_numbered_in_the_forum_and_the_bots_replies_stand_apart(
    local: LocalHarness,
) -> None:
    first = post(local, thread="keep")
    reply = local.local.reply(thread="keep", to=first, text="noted", key="k1")
    other = post(local, thread="tower")

    assert (first, reply, other) == ("p1", "pbp-2", "p3")


def test_a_chosen_id_is_kept_and_numbering_skips_it(local: LocalHarness) -> None:
    chosen = post(local, post_id="p2")
    numbered = post(local)

    assert (chosen, numbered) == ("p2", "p3")


def test_posting_with_an_id_already_used_is_refused(local: LocalHarness) -> None:
    first = post(local, body="the original")

    error = refusal(lambda: post(local, body="a copy", post_id=first))

    assert str(error) == f"post {first} already exists"
    assert [p.body for p in local.local.thread("keep")] == ["the original"]


# -- edits and deletes ------------------------------------------------------------------------


@pytest.mark.parametrize("change", ["edit", "delete"])
def test_changing_a_post_that_does_not_exist_is_refused(local: LocalHarness, change: str) -> None:
    at = local.clock.advance(minutes=1)
    actions = {
        "edit": lambda: local.local.edit("p9", body="new", at=at),
        "delete": lambda: local.local.delete("p9", at=at),
    }

    assert str(refusal(actions[change])) == "there is no post p9"
    assert local.local.get("p9") is None


@pytest.mark.parametrize("change", ["edit", "delete"])
def test_changing_a_deleted_post_is_refused(local: LocalHarness, change: str) -> None:
    gone = post(local, body="[physical: attack Goblin]")
    deleted = local.local.delete(gone, at=local.clock.advance(minutes=1))
    at = local.clock.advance(minutes=1)
    actions = {
        "edit": lambda: local.local.edit(gone, body="back again", at=at),
        "delete": lambda: local.local.delete(gone, at=at),
    }

    assert str(refusal(actions[change])) == f"post {gone} was deleted"
    assert local.local.get(gone) == deleted


def test_editing_a_reply_that_is_missing_or_deleted_is_refused(local: LocalHarness) -> None:
    reply = local.local.reply(thread="keep", to=None, text="summary", key="k1")
    local.local.delete(reply, at=local.clock.advance(minutes=1))

    missing = refusal(
        lambda: local.local.edit_reply(thread="keep", reply_id="pbp-9", text="x", key="k")
    )
    deleted = refusal(
        lambda: local.local.edit_reply(thread="keep", reply_id=reply, text="x", key="k")
    )

    assert str(missing) == "there is no post pbp-9"
    assert str(deleted) == f"post {reply} was deleted"


def test_a_deleted_post_keeps_its_place_in_the_thread(local: LocalHarness) -> None:
    first, second = post(local), post(local)
    local.local.delete(first, at=local.clock.advance(minutes=1))

    thread = local.local.thread("keep")

    assert [p.id for p in thread] == [first, second]
    assert (thread[0].deleted, thread[0].body, thread[0].author) == (True, "", "alice")


# -- what a post may be -----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["", "   "])
def test_a_thread_needs_a_name(local: LocalHarness, name: str) -> None:
    error = refusal(lambda: post(local, thread=name))

    assert str(error) == "a thread name cannot be empty"
    assert local.local.thread(name) == []


def test_a_post_may_hold_up_to_the_limit(local: LocalHarness) -> None:
    full = post(local, body="x" * POST_LIMIT)

    error = refusal(lambda: post(local, body="x" * (POST_LIMIT + 1)))

    assert len(local.local.thread("keep")) == 1
    assert local.local.get(full) is not None
    assert str(error) == (
        f"a post may hold at most {POST_LIMIT} characters (this one has {POST_LIMIT + 1})"
    )


def test_edits_and_replies_over_the_limit_are_refused(local: LocalHarness) -> None:
    first = post(local, body="short")
    long = "y" * (POST_LIMIT + 1)

    refusal(lambda: local.local.edit(first, body=long, at=local.clock.advance(minutes=1)))
    refusal(lambda: local.local.reply(thread="keep", to=first, text=long, key="k1"))

    assert [p.body for p in local.local.thread("keep")] == ["short"]
    assert local.local.find_reply(thread="keep", key="k1", to=first, since=START) is None


# -- the bot's replies and the thread ---------------------------------------------------------


def test_replies_are_stamped_with_the_injected_clock(local: LocalHarness) -> None:
    first = post(local)
    local.clock.now = START + timedelta(hours=5)
    reply = local.local.reply(thread="keep", to=first, text="noted", key="k1")
    posted = local.local.get(reply)
    local.clock.now = START + timedelta(hours=6, seconds=7)
    local.local.edit_reply(thread="keep", reply_id=reply, text="noted again", key="k")
    edited = local.local.get(reply)

    assert posted is not None and edited is not None
    assert (posted.author, posted.created_at, posted.edited_at) == (
        "pbp_bot",
        START + timedelta(hours=5),
        None,
    )
    assert (edited.created_at, edited.edited_at) == (
        START + timedelta(hours=5),
        START + timedelta(hours=6, seconds=7),
    )


def test_thread_is_in_creation_order_with_the_bots_replies(local: LocalHarness) -> None:
    first = post(local, body="[physical: attack Goblin]")
    reply = local.local.reply(thread="keep", to=first, text="Aria attacks.", key="k1")
    elsewhere = post(local, thread="tower")
    second = post(local, body="[move: Goblin]")
    local.local.edit(first, body="[physical: attack Ogre]", at=local.clock.advance(minutes=1))

    thread = local.local.thread("keep")

    assert [p.id for p in thread] == [first, reply, second]
    assert elsewhere not in [p.id for p in thread]
    assert thread[0].body == "[physical: attack Ogre]"


def test_listing_follows_the_order_of_the_last_change(local: LocalHarness) -> None:
    first = post(local)
    second = post(local)
    local.local.edit(first, body="edited", at=local.clock.advance(minutes=1))

    listed = local.local.listing(cursor=None).posts

    assert [p.id for p in listed] == [second, first]


# -- the in-memory storage behaves as the SQL one ---------------------------------------------

THREADS = ("keep", "tower")
KEYS = ("k1", "k2")

Op = tuple[Any, ...]
ops = st.lists(
    st.one_of(
        st.tuples(st.just("post"), st.sampled_from(THREADS), st.sampled_from(["", "p2", "x"])),
        st.tuples(
            st.just("reply"), st.sampled_from(THREADS), st.integers(0, 6), st.sampled_from(KEYS)
        ),
        st.tuples(st.just("edit"), st.integers(0, 6)),
        st.tuples(st.just("delete"), st.integers(0, 6)),
        st.tuples(st.just("edit_reply"), st.integers(0, 6)),
        st.tuples(st.just("listing")),
        st.tuples(st.just("survey"), st.sampled_from([("keep",), ("tower",), THREADS])),
    ),
    max_size=14,
)


def _apply(local: LocalHarness, op: Op, made: list[str], cursors: list[str | None]) -> object:
    """Do one step; return what was seen (a post's id, an error's text, a listing)."""
    forum, at = local.local, local.clock.advance(minutes=1)

    def pick(i: int) -> str:  # one of the posts made so far, or one that was never made
        return made[i % len(made)] if made else "p9"

    try:
        match op:
            case ("post", thread, chosen):
                result: object = forum.post(
                    thread=thread, author="alice", body=f"b{at}", at=at, post_id=chosen
                ).id
            case ("reply", thread, target, key):
                result = forum.reply(thread=thread, to=pick(target), text="r", key=key)
            case ("edit", target):
                result = forum.edit(pick(target), body=f"e{at}", at=at)
            case ("delete", target):
                result = forum.delete(pick(target), at=at)
            case ("edit_reply", target):
                forum.edit_reply(thread="keep", reply_id=pick(target), text=f"er{at}", key="k")
                result = None
            case ("listing",):
                listing = forum.listing(cursor=cursors[-1])
                cursors.append(listing.cursor)
                return listing
            case ("survey", threads):
                return forum.survey(threads)
    except ForumError as exc:
        return f"ForumError: {exc}"
    if isinstance(result, str):
        made.append(result)
    return result


def _seen_after(local: LocalHarness) -> object:
    forum = local.local
    return (
        [forum.thread(t) for t in THREADS],
        [forum.listing(cursor=str(seq)) for seq in range(0, 12)],
        forum.survey(THREADS),
        [forum.find_reply(thread=t, key=k, to=None, since=START) for t in THREADS for k in KEYS],
    )


@settings(max_examples=60, deadline=None)
@given(script=ops)
def test_memory_storage_answers_as_the_sql_storage(script: list[Op]) -> None:
    store = Store("sqlite://", durable=False)
    store.create_schema()
    try:
        sql, memory = local_harness(SqlLocalStorage(store)), local_harness(MemoryLocalStorage())
        seen = []
        for local in (sql, memory):
            made: list[str] = []
            cursors: list[str | None] = [None]
            steps = [_apply(local, op, made, cursors) for op in script]
            seen.append((steps, _seen_after(local)))
    finally:
        store.dispose()

    assert seen[0] == seen[1]


def test_threads_are_listed_in_the_order_they_started_with_their_post_counts(
    local: LocalHarness,
) -> None:
    local.post(thread="tower", author="alice", body="one")
    local.post(thread="keep", author="bob", body="two")
    post = local.post(thread="tower", author="cara", body="three")
    local.local.reply(thread="tower", to=post, text="noted", key="k")
    assert local.local.threads() == [("tower", 3), ("keep", 1)]


# -- a delivery in one transaction ------------------------------------------------------------


def test_a_sending_block_that_raises_leaves_nothing_on_the_sql_forum(tmp_path: Path) -> None:
    with sql_storage(tmp_path) as storage:
        local = local_harness(storage)
        first = post(local, body="[physical: attack Goblin]")
        with pytest.raises(RuntimeError), local.local.sending():
            local.local.reply(thread="keep", to=first, text="noted", key="k1")
            local.local.send_private(
                thread="keep", to="alice", subject="Sheet", text="Aria", key="sheet-1"
            )
            raise RuntimeError("the process died here")

        assert [p.body for p in local.local.thread("keep")] == ["[physical: attack Goblin]"]
        assert local.local.find_reply(thread="keep", key="k1", to=first, since=START) is None
        assert local.local.inbox("alice") == []


def test_a_message_refused_inside_a_sending_block_keeps_the_rest(tmp_path: Path) -> None:
    with sql_storage(tmp_path) as storage:
        local = local_harness(storage)
        first = post(local, body="[physical: attack Goblin]")
        local.local.send_private(
            thread="keep", to="alice", subject="Sheet", text="Aria", key="sheet-1"
        )
        with local.local.sending():
            refusal(
                lambda: local.local.send_private(
                    thread="keep", to="alice", subject="Sheet", text="again", key="sheet-1"
                )
            )
            reply = local.local.reply(thread="keep", to=first, text="noted", key="k1")

        assert local.local.find_reply(thread="keep", key="k1", to=first, since=START) == reply
        assert [m.body for m in local.local.inbox("alice")] == ["Aria"]
