"""RULES §7 "a colonless tag whose verb is misspelt": reported as a typo with the corrected tag
when the rest reads as a valid tag; prose otherwise (SPEC §2)."""

from __future__ import annotations

from pathlib import Path

from replayed import post, replay
from sample_campaigns import TEST_KEEP


def test_rules_7_a_colonless_tag_whose_verb_is_misspelt(tmp_path: Path) -> None:
    played = replay(
        tmp_path,
        TEST_KEEP,
        [
            post("g1", "gm_sam", "!group Aria, Goblin", 0),
            post("p1", "alice", "Aria lunges. [phsyical attack Goblin]", 1),
            post("p2", "alice", "Aria lunges. [phsyical attack Gob | bonus 1]", 2),
            post("p3", "bob", "Bram waits. [phsyical attack the air]", 3),
            post("p4", "bob", "Bram waits. [phsyical attack Goblin bonus x]", 4),
        ],
    )
    (first,) = played.to("p1")
    assert "Did you mean **physical**?" in first
    assert "`[physical attack Goblin]`" in first  # the writer's tag with the one fix
    (second,) = played.to("p2")
    assert "`[physical attack Gob | bonus 1]`" in second
    assert played.to("p3") == [] and played.to("p4") == []  # the rest is no tag: prose
