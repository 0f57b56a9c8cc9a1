"""Every reply posted, none twice: temporary failures, permanent ones, and replies the forum
committed but answered with an error."""

from __future__ import annotations

from collections import Counter

import pytest
from fakes import FlakyForum
from service_table import SETUP, Table


@pytest.fixture
def flaky(table: Table) -> FlakyForum:
    forum = FlakyForum(table.forum)
    table.restart(forum=forum)
    return forum


def _keys(table: Table) -> Counter[str]:
    return Counter(r.reply_key or "" for r in table.replies())


def test_a_reply_the_forum_committed_but_answered_with_an_error_is_not_posted_again(
    table: Table, flaky: FlakyForum
) -> None:
    gm = table.post("gm_sam", SETUP, 0)
    typo = table.post("bob", "[phisical: attack Goblin]", 1)
    flaky.commit_then_fail(1)  # the cheat sheet goes up, the forum says it failed
    report = table.bot.poll_once(table.clock.now)
    assert report.delivered == {}  # the next ones wait, in order
    table.poll(3)
    table.poll(4)
    assert _keys(table) == {"cheatsheet": 1, f"done-{gm}": 1, f"problems-{typo}": 1}
    assert flaky.calls_to("find_reply")  # it looked before posting again


def test_a_temporary_failure_keeps_the_order_and_the_next_poll_posts_the_rest(
    table: Table, flaky: FlakyForum
) -> None:
    gm = table.post("gm_sam", SETUP, 0)
    first = table.post("bob", "[phisical: attack Goblin]", 1)
    second = table.post("alice", "[physycal: attack Goblin]", 2)
    flaky.fail_next("reply", 2)  # the cheat sheet fails, and again on the next poll
    table.poll(3)
    assert table.replies() == []
    table.poll(4)
    assert table.replies() == []
    table.poll(5)
    assert [r.reply_key for r in table.replies()] == [
        "cheatsheet",
        f"done-{gm}",
        f"problems-{first}",
        f"problems-{second}",
    ]


def test_a_reply_to_a_post_that_is_gone_is_posted_in_the_thread(
    table: Table, flaky: FlakyForum
) -> None:
    table.post("gm_sam", SETUP, 0)
    table.poll(1)
    typo = table.post("bob", "[phisical: attack Goblin]", 2)
    # refused in place (none of that unit of work kept), then again the usual way, which
    # records it: the post is gone for good
    flaky.fail_next("reply", 2, temporary=False, message="the comment was deleted")
    table.poll(3)
    table.poll(4)
    [reply] = [r for r in table.replies() if r.reply_key == f"problems-{typo}"]
    assert reply.reply_to is None and "phisical" in reply.body


def test_an_edit_the_forum_refuses_for_good_is_not_retried_forever(
    table: Table, flaky: FlakyForum
) -> None:
    table.post("gm_sam", SETUP, 0)
    typo = table.post("bob", "[phisical: attack Goblin]", 1)
    table.poll(2)
    table.edit(typo, "[physical: attack Goblin]", 3)
    # the fix edits the error reply and the turn board of the opening post: both refused
    flaky.fail_next("edit_reply", 2, temporary=False, message="the thread is archived")
    report = table.bot.poll_once(table.clock.now)
    assert sorted(report.errors) == [  # reported to the operator
        "thread keep-1: reply cheatsheet refused for good: the thread is archived",
        f"thread keep-1: reply problems-{typo} refused for good: the thread is archived",
    ]
    table.poll(5)
    table.poll(6)
    assert len(flaky.calls_to("edit_reply")) == 2
    assert _keys(table)[f"problems-{typo}"] == 1


def test_an_error_reply_edited_before_it_went_out_goes_out_with_the_new_text(
    table: Table, flaky: FlakyForum
) -> None:
    table.post("gm_sam", SETUP, 0)
    typo = table.post("bob", "[phisical: attack Goblin]", 1)
    flaky.fail_next("reply", 1)
    table.poll(2)  # nothing posted
    table.edit(typo, "[physical: attack Goblin]", 3)
    table.poll(4)
    [reply] = table.reply_to(typo)
    assert "phisical" not in reply.body  # posted once, already saying the tag is fixed


def test_a_reply_found_after_a_failed_attempt_gets_the_text_owed_now(
    table: Table, flaky: FlakyForum
) -> None:
    table.post("gm_sam", SETUP, 0)
    table.poll(1)
    typo = table.post("bob", "[phisical: attack Goblin]", 2)
    flaky.commit_then_fail(1)  # the error reply is up, the bot heard of a failure
    table.bot.poll_once(table.clock.now)
    table.edit(typo, "[physical: attack Goblin]", 4)  # fixed before the bot tried again
    table.poll(5)
    [reply] = table.reply_to(typo)
    assert "phisical" not in reply.body  # found by its key and edited, not left stale
    assert _keys(table)[f"problems-{typo}"] == 1
