"""A battle's rows say each number once: a flat damage or heal amount shows no "4 → 4", a
single d24 no "13 → 13" (only dice or advantage show what was kept), and a battle sheet lists
the scores a battle reads (Intuition, Stamina), not a skirmish's (Constitution, Wisdom)."""

from __future__ import annotations

from thread_run import play_posts

BATTLE = """
[campaign]
name = "Spire"
gms = ["gm"]
ruleset = "battle"
visibility = "open"
[[characters]]
name = "Aria"
player = "alice"
intuition = 2
stamina = 1
hp = 14
wp = 6
[[characters]]
name = "Chief"
intuition = 1
hp = 9
wp = 3
"""


def replies(posts: list[tuple[str, str]]) -> dict[str, str]:
    return play_posts(BATTLE, posts, seed="3")


def rows(summary: str) -> list[str]:
    return [line for line in summary.splitlines() if line.startswith("| ") and "|--" not in line]


def test_a_flat_amount_and_a_single_die_are_said_once() -> None:
    summary = replies(
        [
            ("alice", "[attack: Chief | damage 2] [cast: heal Chief | amount 1]"),
            ("gm", "[attack: Aria | as Chief | damage 4]\n!difficulty p1 Aria 1\n!close"),
        ]
    )["summary-1"]
    (chief,) = (r for r in rows(summary) if "attacks Aria" in r)
    (hit,) = (r for r in rows(summary) if "attacks Chief" in r)
    (heal,) = (r for r in rows(summary) if "heals Chief" in r)
    assert "Aria −4 HP" in chief and "→" not in chief
    assert "Chief −2 HP" in hit and "→" not in hit and "(d24: " in hit and " vs 1)" in hit
    assert "Chief +1 HP" in heal and "→" not in heal


def test_dice_show_what_they_rolled() -> None:
    summary = replies(
        [
            ("alice", "[attack: Chief | damage 2d6 | adv]"),
            ("gm", "!difficulty p1 1\n!close"),  # advantage needs a roll the GM calls for
        ]
    )["summary-1"]
    (hit,) = (r for r in rows(summary) if "attacks" in r)
    assert "(advantage: " in hit and "→" in hit  # the two d24s, then the one kept
    assert "(2d6 → " in hit


def test_a_battle_sheet_lists_the_scores_a_battle_reads() -> None:
    sheet = next(
        text
        for key, text in replies([("alice", "!sheet Aria")]).items()
        if "Aria" in text and "HP and WP" in text
    )
    assert "Intuition: 2" in sheet and "Stamina: 1" in sheet
    assert "Constitution" not in sheet and "Wisdom" not in sheet
