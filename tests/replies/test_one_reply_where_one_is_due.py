"""Issue 26 item 13: one reply where one is due: a GM post whose closing command gets the
round's summary gets no separate "Done" reply; what its commands did is in the summary."""

from __future__ import annotations

from pathlib import Path

from replayed import post, replay
from sample_campaigns import TEST_KEEP


def test_encounter_end_gets_one_reply_the_summary(tmp_path: Path) -> None:
    played = replay(
        tmp_path,
        TEST_KEEP,
        [
            post("p0", "alice", "[mental: attack Goblin]", 0),
            post("g1", "gm_sam", "!encounter end", 1),
        ],
    )
    (summary,) = played.to("g1")
    assert summary.startswith("## Round 1: results")
    assert "The encounter is over: everyone takes a short rest" in summary
    assert "Done:" not in summary


def test_a_new_scene_that_closes_the_round_is_said_in_its_summary(tmp_path: Path) -> None:
    played = replay(
        tmp_path,
        TEST_KEEP,
        [
            post("p0", "alice", "[mental: attack Goblin]", 0),
            post("g1", "gm_sam", "!npc Rat body 1 mind 1\n!encounter abstract interval 1 day", 1),
        ],
    )
    (summary,) = played.to("g1")
    commands = summary.split("**The GM's commands**")[1]
    assert "- **Rat** joins the scene (foes)." in commands
    assert "- A new scene: an abstract encounter, one interval every day." in commands


def test_a_gm_post_that_closes_nothing_keeps_its_done_reply(tmp_path: Path) -> None:
    played = replay(tmp_path, TEST_KEEP, [post("g1", "gm_sam", "!encounter abstract", 0)])
    (done,) = played.to("g1")
    assert done.startswith("Done:") and "A new scene: an abstract encounter" in done


def test_the_post_that_makes_everyone_acted_gets_one_reply_with_the_notice(
    tmp_path: Path,
) -> None:
    # an error reply and the "every character has acted" notice were two replies to one post
    played = replay(
        tmp_path,
        TEST_KEEP,
        [
            post("p1", "alice", "[mental: attack Goblin]", 1),
            post("p2", "bob", "[mental: attack Goblin] and [phisical: attack Goblin]", 2),
        ],
    )
    (said,) = played.to("p2")
    assert "phisical" in said and "Every character has acted in round 1. u/gm_sam" in said
    assert not any("Every character has acted" in r for r in played.replies.values() if r != said)


def test_a_good_post_that_makes_everyone_acted_still_gets_the_thread_notice(
    tmp_path: Path,
) -> None:
    played = replay(
        tmp_path,
        TEST_KEEP,
        [post("p1", "alice", "[pass]", 1), post("p2", "bob", "[pass]", 2)],
    )
    assert played.to("p2") == []
    assert any("Every character has acted in round 1" in r for r in played.replies.values())
