"""One post, at most one reply from the bot, its text following the post: a confirmation an
edit made false becomes the error, a fix says what the post holds now, a struck or deleted post's
reply says it does not count, and the close edits it once more when its verdict changed.

Every test here watches the thread as the forum would hold it (``ThreadRun.posted``) after each
event: never two replies under one post, never a reply lost into the thread."""

from __future__ import annotations

import re
from typing import Any

import pytest
from engine_helpers import Row, event_of, thread
from thread_run import PostedReply, actions_of

SETUP: Row = ("post", "p1", "gm_sam", 1, "The goblin snarls.\n!group Aria, Goblin")
THREAD_KEYS = ("cheatsheet", "summary-", "reminder-", "all-acted-")


def under(run: Any, post_id: str) -> list[PostedReply]:
    """The bot's own replies under one post, as the forum holds them now: not the round's
    summary its ``!close`` gets, nor the answer to a command it asked (``!status``, ``!ack
    on``: key ``POST-LINE``), which are replies of their own."""
    answer = re.compile(rf"{re.escape(post_id)}-\d+$")
    return [
        r
        for r in run.posted.values()
        if r.to == post_id and not r.key.startswith("summary-") and not answer.match(r.key)
    ]


def one(run: Any, post_id: str) -> str:
    """The text of the one reply under ``post_id`` (there must be exactly one)."""
    replies = under(run, post_id)
    assert len(replies) == 1, [(r.key, r.text) for r in replies]
    return replies[0].text


def feed(run: Any, row: Row) -> Any:
    """One event, then the thread checked: at most one reply under each post, and none
    posted into the thread by an edit whose reply was never posted."""
    run.feed(event_of(row))
    posts = {r.to for r in run.posted.values() if r.to is not None}
    for post_id in posts:
        assert len(under(run, post_id)) <= 1, (post_id, [r.key for r in under(run, post_id)])
    strays = [
        r.key for r in run.posted.values() if r.to is None and not r.key.startswith(THREAD_KEYS)
    ]
    assert strays == []
    return run


def play(rows: list[Row], *, ack: str) -> Any:
    run = thread([], ack=ack)
    for row in rows:
        feed(run, row)
    return run


def test_a_confirmation_an_edit_made_false_is_edited_into_the_error_then_into_the_fix() -> None:
    # the case: ack = all, "Read: … They act when the round closes", then a typo
    run = play(
        [SETUP, ("post", "p2", "alice", 2, "Aria lunges. [physical: attack Goblin]")], ack="all"
    )
    assert one(run, "p2") == "Read: `[physical: attack Goblin]`. They act when the round closes.\n"
    feed(run, ("edit", "p2", None, 3, "Aria lunges. [phisical: attack Goblin]"))
    text = one(run, "p2")
    assert "Did you mean **physical**?" in text and "Read:" not in text
    feed(run, ("edit", "p2", None, 4, "Aria lunges hard. [physical: attack Goblin]"))
    assert one(run, "p2") == (
        "Fixed: read `[physical: attack Goblin]`. They act when the round closes.\n"
    )
    feed(run, ("post", "p3", "gm_sam", 5, "!close"))
    assert "Fixed: read `[physical: attack Goblin]`" in one(run, "p2")  # the close agrees
    assert [r.key for r in under(run, "p2")] == ["ack-p2"]  # the key it was first posted under


def test_a_confirmation_follows_the_tags_an_edit_puts_in_or_takes_out() -> None:
    run = play(
        [
            SETUP,
            ("post", "p2", "alice", 2, "[physical: attack Goblin]"),
            ("edit", "p2", None, 3, "[physical: attack Goblin]\n[mental: attack Goblin]"),
        ],
        ack="all",
    )
    assert one(run, "p2") == (
        "Read: `[physical: attack Goblin]`, `[mental: attack Goblin]`. "
        "They act when the round closes.\n"
    )
    feed(run, ("edit", "p2", None, 4, "Aria thinks better of it."))
    assert one(run, "p2") == (
        "This post holds no tag now: nothing in it acts when the round closes.\n"
    )


def test_under_ack_all_a_post_whose_edit_adds_a_good_tag_is_confirmed() -> None:
    run = play([SETUP, ("post", "p2", "alice", 2, "Aria waits.")], ack="all")
    assert under(run, "p2") == []
    feed(run, ("edit", "p2", None, 3, "Aria waits, then [physical: attack Goblin]"))
    assert one(run, "p2").startswith("Read: `[physical: attack Goblin]`")


def test_under_ack_errors_a_fix_says_what_is_true_of_the_post_now() -> None:
    run = play([SETUP, ("post", "p2", "alice", 2, "[phisical: attack Goblin]")], ack="errors")
    assert "Did you mean **physical**?" in one(run, "p2")
    feed(run, ("edit", "p2", None, 3, "[physical: attack Goblin]"))
    assert one(run, "p2") == (
        "Fixed: the edited post now holds `[physical: attack Goblin]`, and it will act when the "
        "round closes.\n"
    )
    feed(run, ("edit", "p2", None, 4, "On second thought, Aria waits."))
    # its tags will not act: there are none
    assert one(run, "p2") == (
        "The edited post holds no tag now, so nothing in it acts when the round closes.\n"
    )
    feed(run, ("edit", "p2", None, 5, "[phisical: attack Goblin]"))
    assert "Did you mean **physical**?" in one(run, "p2")


def test_under_ack_errors_a_good_post_gets_no_reply_through_its_edits() -> None:
    run = play(
        [
            SETUP,
            ("post", "p2", "alice", 2, "[physical: attack Goblin]"),
            ("edit", "p2", None, 3, "[mental: attack Goblin]"),
            ("post", "p3", "gm_sam", 4, "!close"),
        ],
        ack="errors",
    )
    assert under(run, "p2") == []


@pytest.mark.parametrize("ack", ["all", "errors"])
def test_a_deleted_posts_reply_says_it_does_not_count(ack: str) -> None:
    body = "[physical: attack Goblin]" if ack == "all" else "[phisical: attack Goblin]"
    run = play([SETUP, ("post", "p2", "alice", 2, body), ("delete", "p2", None, 3)], ack=ack)
    assert one(run, "p2") == (
        "This post was deleted before the round closed: its tags do not count this round.\n"
    )
    feed(run, ("post", "p3", "gm_sam", 4, "!close"))
    assert "deleted" in one(run, "p2")


def test_a_deleted_post_without_a_reply_gets_none() -> None:
    run = play(
        [SETUP, ("post", "p2", "alice", 2, "[physical: attack Goblin]"), ("delete", "p2", None, 3)],
        ack="errors",
    )
    assert under(run, "p2") == []


def test_after_the_close_edits_and_deletes_leave_the_reply_as_the_close_read_the_post() -> None:
    run = play(
        [
            SETUP,
            ("post", "p2", "alice", 2, "[physical: attack Goblin]"),
            ("post", "p3", "gm_sam", 3, "!close"),
        ],
        ack="all",
    )
    before = one(run, "p2")
    feed(run, ("edit", "p2", None, 4, "[phisical: attack Goblin]"))  # flagged, changes nothing
    feed(run, ("delete", "p2", None, 5))
    assert one(run, "p2") == before
    assert under(run, "p2")[0].edits == 0


@pytest.mark.parametrize("ack", ["all", "errors"])
def test_a_struck_post_has_one_reply_that_says_so_and_an_edit_does_not_change_it(
    ack: str,
) -> None:
    run = play(
        [
            SETUP,
            ("post", "p2", "alice", 2, "[physical: attack Goblin]"),
            ("post", "p3", "gm_sam", 3, "!void p2 wrong scene"),
        ],
        ack=ack,
    )
    struck = (
        "The GM struck this post with `!void`: its tags do not act this round. "
        "The GM's reason: wrong scene\n"
    )
    assert one(run, "p2") == struck
    feed(run, ("edit", "p2", None, 4, "[phisical: attack Goblin]"))
    feed(run, ("post", "p4", "gm_sam", 5, "!close"))
    assert one(run, "p2") == struck


def test_a_tag_refused_when_read_that_acts_at_the_close_has_its_reply_say_so() -> None:
    # RULES §6: the Ogre's attack is refused while Aria declares a move away; her Threatened
    # check fails at the close, so at its turn the attack is valid and acts
    run = play([
        ("post", "p1", "gm_sam", 1, "!group Aria, Ogre"),
        ("post", "p2", "alice", 2, "[move: away, body]"),
        ("post", "p3", "gm_sam", 3, "[physical: attack Aria | as Ogre]"),
    ], ack="all")  # fmt: skip
    assert "Aria is not in the same group as Ogre" in one(run, "p3")
    feed(run, ("post", "p4", "gm_sam", 4, "!close"))
    assert one(run, "p3").startswith("At the close this post's tags were valid after all")


def test_a_confirmation_the_closes_re_check_makes_false_is_edited_into_the_error() -> None:
    # p3 is confirmed; then p2, before it, is edited to use the same action: only the close,
    # which checks every post again in post order, sees that p3's attack is taken
    run = play(
        [
            SETUP,
            ("post", "p2", "alice", 2, "[move: Goblin]"),
            ("post", "p3", "alice", 3, "[physical: attack Goblin]"),
            ("edit", "p2", None, 4, "[physical: attack Goblin]"),
        ],
        ack="all",
    )
    assert one(run, "p3").startswith("Read: `[physical: attack Goblin]`")
    feed(run, ("post", "p4", "gm_sam", 5, "!close"))
    text = one(run, "p3")
    assert text.startswith("The round has closed, and as this post read then")
    assert "already used the physical action this round (in post p2)" in text
    assert [r.post_id for r in run.reports[1].rejected] == ["p3"]


def test_an_error_the_closes_re_check_clears_is_edited_into_the_fix() -> None:
    # p3's attack is refused (p2 took the action); p2 is deleted, so at the close p3 is valid
    run = play(
        [
            SETUP,
            ("post", "p2", "alice", 2, "[physical: attack Goblin]"),
            ("post", "p3", "alice", 3, "[physical: attack Goblin]"),
            ("delete", "p2", None, 4),
        ],
        ack="errors",
    )
    assert "already used the physical action" in one(run, "p3")
    feed(run, ("post", "p4", "gm_sam", 5, "!close"))
    assert one(run, "p3") == (
        "Fixed: the post as it stood at the close held `[physical: attack Goblin]`, and it went "
        "into the close: the round's summary says what it did.\n"
    )
    assert [a.post_id for a in actions_of(run.reports[1])] == ["p3"]


def test_under_ack_none_nothing_is_posted_unless_the_player_asked_and_then_it_stays_true() -> None:
    run = play(
        [
            SETUP,
            ("post", "p2", "alice", 2, "[phisical: attack Goblin]"),
            ("edit", "p2", None, 3, "[physical: attack Goblin]"),
            ("post", "p3", "bob", 4, "!ack on\n[mental: attack Goblin]"),
        ],
        ack="none",
    )
    assert under(run, "p2") == []
    assert one(run, "p3").startswith("Read: `[mental: attack Goblin]`")
    assert run.posted["p3-1"].text.startswith("Confirmations on for bob")  # its command's answer
    feed(run, ("edit", "p3", None, 5, "!ack on\n[mentl: attack Goblin]"))
    assert "Did you mean **mental**?" in one(run, "p3")


def test_ack_off_mid_round_keeps_a_confirmation_true_in_the_tables_words() -> None:
    run = play(
        [
            SETUP,
            ("post", "p2", "alice", 2, "!ack on"),
            ("post", "p3", "alice", 3, "[physical: attack Goblin]"),
            ("post", "p4", "alice", 4, "!ack off"),
        ],
        ack="errors",
    )
    assert one(run, "p3").startswith("Read: `[physical: attack Goblin]`")
    feed(run, ("edit", "p3", None, 5, "[phisical: attack Goblin]"))
    assert "Did you mean **physical**?" in one(run, "p3")
    feed(run, ("edit", "p3", None, 6, "[physical: attack Goblin]"))
    assert one(run, "p3") == (
        "Fixed: the edited post now holds `[physical: attack Goblin]`, and it will act when the "
        "round closes.\n"
    )


def test_a_gm_posts_done_lines_and_its_tags_problems_share_one_reply() -> None:
    run = play(
        [
            SETUP,
            ("post", "p2", "gm_sam", 2, "!npc Orc body 2 mind 1\n[phisical: attack Aria | as Orc]"),
        ],
        ack="errors",
    )
    done, error = one(run, "p2").split("\n\n-----\n\n")
    assert done == "Done:\n\n- **Orc** joins the scene (foes)."
    assert "Did you mean **physical**?" in error
    feed(run, ("edit", "p2", None, 3, "!npc Orc body 2 mind 1\n[mental: attack Aria | as Orc]"))
    assert one(run, "p2") == (
        "Done:\n\n- **Orc** joins the scene (foes).\n\n-----\n\n"
        "Fixed: the edited post now holds `[mental: attack Aria | as Orc]`, and it will act "
        "when the round closes.\n"
    )


def test_a_refused_undo_and_the_gms_set_up_share_one_reply() -> None:
    run = play([SETUP, ("post", "p2", "gm_sam", 2, "!feature Door\n!undo")], ack="errors")
    done, refused = one(run, "p2").split("\n\n-----\n\n")
    assert "**Door** is now part of the scene" in done
    assert "undo" in refused.lower()


def test_undo_reopens_the_posts_with_their_replies_and_an_edit_edits_the_same_one() -> None:
    run = play(
        [
            SETUP,
            ("post", "p2", "alice", 2, "[physical: attack Goblin]"),
            ("post", "p3", "gm_sam", 3, "!close"),
            ("post", "p4", "gm_sam", 4, "Wrong round.\n!undo"),
            ("edit", "p2", None, 5, "[phisical: attack Goblin]"),
        ],
        ack="all",
    )
    assert "Did you mean **physical**?" in one(run, "p2")


def test_every_character_acted_is_said_in_the_posts_own_new_reply_not_a_second_one() -> None:
    run = play(
        [
            SETUP,
            ("post", "p2", "alice", 2, "[physical: attack Goblin]"),
            ("post", "p3", "bob", 3, "[mental: attack Goblin]"),
            ("post", "p4", "cara", 4, "[mental: attack Goblin | as Cora]"),
            ("post", "p5", "cara", 5, "[mental: attack Goblin | as Dax]"),
        ],
        ack="all",
    )
    said = one(run, "p5")  # issue 26 item 13: one reply to the post, not two
    assert said.startswith("Read: ") and "Every character has acted in round 1. u/gm_sam" in said
    assert "all-acted-1" not in run.posted
