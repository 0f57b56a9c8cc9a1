"""Issue 26 item 16: each command's error names its own command and shows its own example
(`!difficulty p99 12` was answered with `!void`'s text and example)."""

from __future__ import annotations

from pathlib import Path

from replayed import post, replay
from sample_campaigns import TEST_KEEP


def test_a_difficulty_for_a_post_not_in_the_round_names_difficulty(tmp_path: Path) -> None:
    played = replay(
        tmp_path,
        TEST_KEEP,
        [
            post("g1", "gm_sam", "!encounter skirmish", 0),
            post("g2", "gm_sam", "!difficulty p99 12", 1),
            post("g3", "gm_sam", "!void p98", 2),
        ],
    )
    (difficulty,) = played.to("g2")
    assert (
        'There is no post "p99" in the open round, so this `!difficulty` did nothing' in difficulty
    )
    assert "`!difficulty p7 12`" in difficulty
    assert "void" not in difficulty and "struck" not in difficulty
    (void,) = played.to("g3")
    assert "nothing was struck" in void and "`!void def456`" in void


def test_a_name_already_taken_shows_the_example_of_its_own_command(tmp_path: Path) -> None:
    played = replay(
        tmp_path,
        TEST_KEEP,
        [post("g1", "gm_sam", "!feature Aria\n!npc Bram body 1 mind 1", 0)],
    )
    (reply,) = played.to("g1")
    feature, npc = reply.split("-----")
    assert 'already a character or feature called "Aria"' in feature
    assert "`!feature Door tn 4 constraint 5`" in feature and "!npc" not in feature
    assert "`!npc Imp A body 2 mind 1 side foes`" in npc
