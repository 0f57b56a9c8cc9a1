"""Issue 26 item 11: `!status` in the same post as Bram's tag does not list Bram as still to
act: the answer counts the post it is in."""

from __future__ import annotations

from pathlib import Path

from replayed import post, replay
from sample_campaigns import TEST_KEEP


def test_status_in_the_post_of_a_tag_counts_that_tag(tmp_path: Path) -> None:
    played = replay(
        tmp_path,
        TEST_KEEP,
        [
            post("g1", "gm_sam", "!feature Gate", 0),
            post("p1", "bob", "Bram runs. [move: Gate]\n!status", 1),
            post("p2", "alice", "[physical: atack Gate]\n!status", 2),  # refused: not counted
        ],
    )
    (bram,) = played.to("p1")
    assert "**Still to act:** Aria" in bram and "Bram" not in bram.split("Still to act")[1]
    aria = played.to("p2")
    assert any("**Still to act:** Aria" in text for text in aria)
