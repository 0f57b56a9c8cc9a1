"""The real bot on the local forum: a post has at most one reply from the bot, edited as the
post changes (issue: a confirmation an edit made false stayed up beside a second reply), across
polls, restarts, a close and a state rebuilt by a newer pbp."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from service_table import SETUP, Table

from pbp.forums.base import ForumPost
from pbp.store.schema import ThreadRow


def own(table: Table, post_id: str) -> list[ForumPost]:
    """The bot's replies under a post on the forum: not the summary its `!close` gets, nor the
    answer to a command it asked (key POST-LINE), which are replies of their own."""
    answer = re.compile(rf"{re.escape(post_id)}-\d+$")
    return [
        r
        for r in table.reply_to(post_id)
        if not (r.reply_key or "").startswith("summary-") and not answer.match(r.reply_key or "")
    ]


def said(table: Table, post_id: str) -> str:
    """The one reply under ``post_id``, checking that every post has at most one."""
    for post in {r.reply_to for r in table.replies() if r.reply_to is not None}:
        assert len(own(table, post)) <= 1, [(r.reply_key, r.body) for r in own(table, post)]
    replies = own(table, post_id)
    assert len(replies) == 1, [r.body for r in replies]
    return replies[0].body


@pytest.mark.parametrize("ack", ["all", "errors"])
def test_one_reply_follows_a_post_through_edits_a_restart_a_delete_and_the_close(
    tmp_path: Path, ack: str
) -> None:
    table = Table(tmp_path, ack=ack)
    table.post("gm_sam", SETUP, 0)
    post = table.post("alice", "Aria lunges. [physical: attack Goblin]", 1)
    table.poll(2)
    if ack == "all":
        assert said(table, post) == (
            "Read: `[physical: attack Goblin]`. They act when the round closes.\n"
        )
    else:
        assert own(table, post) == []

    table.edit(post, "Aria lunges. [phisical: attack Goblin]", 3)
    table.poll(4)
    assert "Did you mean **physical**?" in said(table, post)

    table.restart()  # a new process: the reply's key comes back with the state
    table.edit(post, "Aria lunges again. [physical: attack Goblin]", 5)
    table.poll(6)
    assert (
        said(table, post)
        == {
            "all": "Fixed: read `[physical: attack Goblin]`. They act when the round closes.\n",
            "errors": "Fixed: the edited post now holds `[physical: attack Goblin]`, and it will "
            "act when the round closes.\n",
        }[ack]
    )

    gone = table.post("bob", "[phisical: attack Goblin]", 7)
    table.poll(8)
    assert "Did you mean **physical**?" in said(table, gone)
    table.delete(gone, 9)
    table.poll(10)
    assert said(table, gone) == (
        "This post was deleted before the round closed: its tags do not count this round.\n"
    )

    table.post("gm_sam", "!close", 11)
    table.poll(12)
    before = said(table, post)
    assert "Fixed" in before
    assert [a["post"] for a in table.ledger()["rounds"][0]["actions"]] == [post]
    table.edit(post, "[mental: attack Goblin]", 13)  # after the close: changes nothing
    table.poll(14)
    assert said(table, post) == before
    assert len([r for r in table.replies() if r.reply_to == post]) == 1
    assert len([r for r in table.replies() if r.reply_to == gone]) == 1


def test_the_closes_re_check_edits_a_confirmation_it_made_false(tmp_path: Path) -> None:
    table = Table(tmp_path, ack="all")
    table.post("gm_sam", SETUP, 0)
    first = table.post("alice", "[move: Goblin]", 1)
    later = table.post("alice", "[physical: attack Goblin]", 2)
    table.poll(3)
    assert said(table, later).startswith("Read: `[physical: attack Goblin]`")
    # the earlier post now takes the action the later one was confirmed for: only the close,
    # which checks every post again in post order, sees it
    table.edit(first, "[physical: attack Goblin]", 4)
    table.poll(5)
    assert said(table, later).startswith("Read: `[physical: attack Goblin]`")
    table.post("gm_sam", "!close", 6)
    table.poll(7)
    text = said(table, later)
    assert text.startswith("The round has closed, and as this post read then")
    assert f"already used the physical action this round (in post {first})" in text
    assert [r["post"] for r in table.ledger()["rejected"]] == [later]


def test_a_gm_post_gets_one_reply_for_its_commands_and_its_tags(tmp_path: Path) -> None:
    table = Table(tmp_path)
    gm = table.post(
        "gm_sam", f"{SETUP}\n!npc Orc body 2 mind 1\n[phisical: attack Aria | as Orc]", 0
    )
    table.poll(1)
    done, error = said(table, gm).split("\n\n-----\n\n")
    assert done.startswith("Done:") and "**Orc** joins the scene" in done
    assert "Did you mean **physical**?" in error
    table.edit(gm, f"{SETUP}\n!npc Orc body 2 mind 1\n[mental: attack Aria | as Orc]", 2)
    table.poll(3)
    done_now, fixed = said(table, gm).split("\n\n-----\n\n")
    assert done_now == done and fixed.startswith(
        "Fixed: the edited post now holds `[mental: attack Aria | as Orc]`"
    )


@pytest.mark.parametrize("ack", ["all", "errors"])
def test_a_reply_posted_before_an_upgrade_is_edited_not_posted_again(
    tmp_path: Path, ack: str
) -> None:
    table = Table(tmp_path, ack=ack)
    table.post("gm_sam", SETUP, 0)
    body = "[physical: attack Goblin]" if ack == "all" else "[phisical: attack Goblin]"
    post = table.post("alice", body, 1)
    table.poll(2)
    (first,) = own(table, post)
    with table.store.session() as s:  # a snapshot an older pbp wrote: the state is rebuilt
        s.query(ThreadRow).one().snapshot_format = 1
    table.restart()
    table.edit(post, "[mental: attack Goblin]" if ack == "all" else "[physical: attack Goblin]", 3)
    table.poll(4)
    (now,) = own(table, post)
    assert (now.id, now.reply_key) == (first.id, first.reply_key)
    assert now.body != first.body and now.body.startswith(("Read", "Fixed"))
