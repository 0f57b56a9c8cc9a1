"""RULES §7.5 "A `!bonus` earlier in the round" (SPEC 2.5, §6 "the close is authoritative"):
points a GM's `!bonus` grants at an earlier place in the post order can be spent by a tag at a
later place in the same round; a `!bonus` after the tag, or one struck by `!void`, grants
nothing to it."""

from __future__ import annotations

from engine_helpers import thread

# Aria (bonus_pool 2 on her sheet, cap 1 a check) and Bram (none) stand with the Goblin
GROUP = ("post", "g0", "gm_sam", 0, "!group Aria, Bram, Goblin")


def _said(run: object, key: str) -> str:
    return run.posted[key].text  # type: ignore[attr-defined]


def test_RULES7_a_bonus_granted_earlier_in_the_round_is_spent_by_a_later_tag() -> None:
    run = thread(
        [
            GROUP,
            ("post", "g1", "gm_sam", 1, "!bonus Bram +2"),
            ("post", "p1", "bob", 2, "Bram strikes. [physical: attack Goblin | bonus 1]"),
            ("post", "c1", "gm_sam", 3, "!close"),
        ]
    )
    assert "problems-p1" not in run.posted  # accepted when read: no error reply
    summary = _said(run, "summary-1")
    assert "Bram spends 1 bonus point" in summary, summary
    assert "Not accepted" not in summary


def test_RULES7_a_bonus_granted_after_the_tag_does_not_reach_it() -> None:
    run = thread(
        [
            GROUP,
            ("post", "p1", "bob", 1, "Bram strikes. [physical: attack Goblin | bonus 1]"),
            ("post", "g1", "gm_sam", 2, "!bonus Bram +2"),
            ("post", "c1", "gm_sam", 3, "!close"),
        ]
    )
    assert "0 bonus points" in _said(run, "problems-p1")
    assert "Not accepted" in _said(run, "summary-1")


def test_RULES7_a_struck_bonus_grants_nothing() -> None:
    run = thread(
        [
            GROUP,
            ("post", "g1", "gm_sam", 1, "!bonus Bram +2"),
            ("post", "p1", "bob", 2, "Bram strikes. [physical: attack Goblin | bonus 1]"),
            ("post", "g2", "gm_sam", 3, "!void g1"),
            ("post", "c1", "gm_sam", 4, "!close"),
        ]
    )
    summary = _said(run, "summary-1")
    assert "Not accepted" in summary and "Bram spends" not in summary, summary


def test_RULES7_a_bonus_taken_away_earlier_is_not_there_to_spend() -> None:
    run = thread(
        [
            GROUP,
            ("post", "g1", "gm_sam", 1, "!bonus Aria -2"),
            ("post", "p1", "alice", 2, "Aria strikes. [physical: attack Goblin | bonus 1]"),
            ("post", "c1", "gm_sam", 3, "!close"),
        ]
    )
    assert "problems-p1" in run.posted
    assert "Aria spends" not in _said(run, "summary-1")
