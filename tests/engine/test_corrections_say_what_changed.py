"""A GM correction's line in the summary says what it changed, not what was asked: a heal of
damage that is not there changes nothing, a heal beyond the damage heals what was missing, a
pool never goes below 0 (issue: `!heal Cora mind 1` on no damage said "heals 1 Mind damage")."""

from __future__ import annotations

from engine_helpers import thread


def _changes(*commands: str) -> str:
    run = thread(
        [
            ("post", "g1", "gm_sam", 1, "\n".join(commands)),
            ("post", "c1", "gm_sam", 2, "!close"),
        ]
    )
    summary: str = run.posted["summary-1"].text
    return summary


def test_a_heal_of_no_damage_says_nothing_changes() -> None:
    said = _changes("!heal Cora mind 1")
    assert "Cora has no Mind damage to heal (Mind damage stays 0): nothing changes." in said
    assert "heals 1" not in said


def test_a_heal_beyond_the_damage_says_how_much_it_healed() -> None:
    said = _changes("!damage Aria body 1", "!heal Aria body 2")
    assert "Aria heals 1 Body damage, not 2: only 1 was missing (Body damage now 0)." in said


def test_a_heal_within_the_damage_reads_as_before() -> None:
    said = _changes("!damage Aria body 2", "!heal Aria body 1")
    assert "Aria heals 1 Body damage (Body damage now 1)." in said


def test_a_pool_taken_below_zero_says_what_it_lost() -> None:
    said = _changes("!bonus Bram -3")
    assert "Bram's bonus pool −3, now 0 (it loses 0: a pool never goes below 0)." in said
