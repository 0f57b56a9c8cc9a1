"""A GM's commands are said back to the table: one reply under the GM's post, a line per
command in plain words; under ack = none the round's summary lists them instead; the author
of a struck post is told why."""

from __future__ import annotations

from pathlib import Path

from service_table import SETUP, Table

HIDDEN = """
[campaign]
name = "Test Keep"
gms = ["gm_sam"]
visibility = "hide-npcs"
ruleset = "skirmish"

[[characters]]
name = "Aria"
player = "alice"
body = 5
mind = 3
"""


def _one_reply(table: Table, post_id: str) -> str:
    replies = table.reply_to(post_id)
    assert len(replies) == 1, [r.body for r in replies]
    return replies[0].body


def test_each_set_up_command_of_a_gm_post_gets_a_line_in_one_reply(table: Table) -> None:
    gm = table.post(
        "gm_sam",
        "\n".join(
            [
                "An ogre bursts in.",
                "!npc Ogre body 5 mind 2",
                "!group aria, ogre",
                "!feature Door tn 4",
                "!deadline 24h",
                "!rest night",
            ]
        ),
        0,
    )
    table.poll(1)
    text = _one_reply(table, gm)
    lines = [line for line in text.splitlines() if line.startswith("- ")]
    assert lines == [
        "- **Ogre** joins the scene (foes).",
        "- Now standing together: Aria, Ogre.",
        "- **Door** is now part of the scene (target number 4).",
        "- This round's deadline: 2026-11-30 10:00 UTC.",
        "- A night's rest: every character recovers 2 Body and 2 Mind damage.",
    ]
    assert "body 5" not in text.casefold()  # what an NPC is made of stays with the GM


def test_a_refused_command_gets_no_done_line_and_its_error_is_in_the_same_reply(
    table: Table,
) -> None:
    gm = table.post("gm_sam", "!group Aria, Nobody\n!rest night", 0)
    table.poll(1)
    done, error = _one_reply(table, gm).split("\n\n-----\n\n")
    assert done.startswith("Done:") and "together" not in done and "night's rest" in done
    assert "Nobody" in error and "Nobody" not in done


def test_a_players_post_gets_no_done_reply(table: Table) -> None:
    player = table.post("alice", "[pass]", 0)
    table.poll(1)
    assert table.reply_to(player) == []


def test_a_struck_post_is_told_why_and_the_gm_sees_it_done(table: Table) -> None:
    table.post("gm_sam", SETUP, 0)
    struck = table.post("alice", "[physical: attack Goblin]", 1)
    gm = table.post("gm_sam", f"!void {struck} that attack happened last scene", 2)
    table.poll(3)
    assert _one_reply(table, struck) == (
        "The GM struck this post with `!void`: its tags do not act this round. "
        "The GM's reason: that attack happened last scene\n"
    )
    assert f"Post {struck} by alice is struck" in _one_reply(table, gm)


def test_a_new_scene_and_its_tasks_are_announced(table: Table) -> None:
    gm = table.post(
        "gm_sam",
        "\n".join(
            [
                "The chase is on.",
                "!encounter abstract interval 1 day",
                "!task Gate dc 60",
                "!task Vault dc 90 secret",
            ]
        ),
        0,
    )
    table.poll(1)
    lines = [line for line in _one_reply(table, gm).splitlines() if line.startswith("- ")]
    assert lines == [
        "- A new scene: an abstract encounter, one interval every day.",
        "- Task **Gate**: DC 60.",
        "- Task **Vault**: its DC is kept secret.",
    ]


def test_an_encounter_end_is_said(table: Table) -> None:
    table.post("gm_sam", SETUP, 0)
    table.poll(0.5)  # a thread whose first poll finds a closed round posts no replies for it
    table.post("alice", "[physical: attack Goblin]", 1)
    gm = table.post("gm_sam", "!encounter end", 2)
    table.poll(3)
    (summary,) = [r.body for r in table.reply_to(gm)]  # one reply: the summary says it
    assert summary.startswith("## Round 1")
    assert "- The encounter is over: everyone takes a short rest" in summary


def test_under_ack_none_the_summary_lists_what_the_commands_did(tmp_path: Path) -> None:
    table = Table(tmp_path, ack="none")
    table.post("gm_sam", SETUP + "\n!npc Ogre body 5 mind 2", 0)
    table.poll(0.5)
    struck = table.post("alice", "[physical: attack Goblin]", 1)
    table.post("gm_sam", f"!void {struck} wrong thread", 2)
    table.post("bob", "[pass]", 3)
    table.post("gm_sam", "!close", 4)
    table.poll(5)
    replies = table.replies()
    assert [r.reply_key for r in replies] == ["cheatsheet", "summary-1"]
    summary = replies[1].body
    assert "**The GM's commands**" in summary
    assert "- **Ogre** joins the scene (foes)." in summary
    assert f"- Post {struck} by alice is struck: it does not count this round (wrong thread)." in (
        summary
    )


def test_a_difficulty_under_hide_npcs_keeps_its_number(tmp_path: Path) -> None:
    table = Table(tmp_path, campaign=HIDDEN)
    course = table.post("alice", "[attack: Aria]", 0)
    gm = table.post("gm_sam", f"!difficulty {course} 14", 1)
    table.poll(2)
    text = _one_reply(table, gm)
    assert f"Post {course}: its course rolls against a difficulty the GM set" in text
    assert "14" not in text


def _cheatsheet(table: Table) -> str:
    return next(r.body for r in table.replies() if r.reply_key == "cheatsheet")


def test_the_cheat_sheet_shows_the_deadline_set_with_the_first_post(table: Table) -> None:
    table.post("gm_sam", SETUP + "\n!deadline 48h", 0)
    table.poll(1)
    assert "**Deadline:** 2026-12-01 10:00 UTC" in _cheatsheet(table)


def test_the_cheat_sheet_follows_a_deadline_set_or_moved_later(table: Table) -> None:
    table.post("gm_sam", SETUP, 0)
    table.poll(1)
    assert "Deadline" not in _cheatsheet(table)
    table.post("gm_sam", "!deadline 24h", 2)
    table.poll(3)
    assert "**Deadline:** 2026-11-30 10:00 UTC" in _cheatsheet(table)
    table.post("gm_sam", "!deadline off", 4)
    table.poll(5)
    assert "Deadline" not in _cheatsheet(table)
