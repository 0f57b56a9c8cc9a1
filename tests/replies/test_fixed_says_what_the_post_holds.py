"""Issue 26 item 7: the reply to a fixed post says what the post now holds: the tags that
remain, or that no tag is left (and why its brackets did not count), never "its tags will act"
of a post without a tag."""

from __future__ import annotations

from pathlib import Path

from replayed import edit, post, replay
from sample_campaigns import TEST_KEEP


def test_an_edit_that_leaves_no_tag_says_so(tmp_path: Path) -> None:
    played = replay(
        tmp_path,
        TEST_KEEP,
        [
            post("g1", "gm_sam", "!group Aria, Goblin", 0),
            post("p1", "alice", "[m: attack Goblin with 3, attack Bram with 2]", 1),
            edit("p1", "[m attack Goblin with 3, attack Bram with 2]", 2),
            post("p2", "bob", "[p: atack archer | bonus 2]", 3),
            edit("p2", "Bram waits.", 4),
        ],
    )
    (split,) = played.to("p1")
    assert split.startswith("The edited post holds no tag now, so nothing in it acts")
    assert "Its brackets read as prose" in split and "colon" in split
    assert "will act" not in split
    (waits,) = played.to("p2")
    assert waits == "The edited post holds no tag now, so nothing in it acts when the round closes."


def test_an_edit_that_fixes_a_tag_names_the_tags_that_remain(tmp_path: Path) -> None:
    played = replay(
        tmp_path,
        TEST_KEEP,
        [
            post("g1", "gm_sam", "!group Aria, Goblin", 0),
            post("p1", "alice", "[physical: atack Goblin] [mental: attack Goblin]", 1),
            edit("p1", "[p attack the air] [mental: attack Goblin]", 2),
        ],
    )
    (fixed,) = played.to("p1")
    assert fixed == (
        "Fixed: the edited post now holds `[mental: attack Goblin]`, and it will act when the "
        "round closes."
    )
