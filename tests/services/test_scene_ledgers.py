"""Each scene's own state of each character in the ledger (SPEC §5): what the d20 and abstract
scenes keep per character, never Distat's status for a character without Distat numbers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from scene_play import play

from pbp.services.verify import verify_ledger

D20_ONLY = """
[campaign]
name = "Keep"
gms = ["gm_sam"]
ruleset = "d20"

[[characters]]
name = "Aria"
player = "alice"
dice_pool = 2
skills = { Stealth = 6, Fortitude = 3 }

[[characters]]
name = "Goblin"
"""


def test_a_d20_only_character_is_active_and_has_its_condition_tracks_and_pool(
    tmp_path: Path,
) -> None:
    played = play(tmp_path, D20_ONLY, [
        ("gm_sam", "[effect: +30 vs Aria Fortitude, inflict injury | as Goblin]"),
        ("alice", "[check: Stealth vs 10]"),
        ("gm_sam", "!close"),
    ])  # fmt: skip
    aria = played.ledger["characters"]["Aria"]
    assert aria["status"] == "active"  # Distat's "zeroed" is not a d20 character's state
    assert aria["d20"]["conditions"]["injury"]["step"] == 1
    assert aria["d20"]["conditions"]["movement"] == {"step": 0, "name": "normal"}
    assert aria["d20"]["dice_pool"] == {"full": 2, "left": 2}
    assert played.ledger["characters"]["Goblin"]["status"] == "active"


ABSTRACT = """
[campaign]
name = "Keep"
gms = ["gm_sam"]
ruleset = "abstract"

[[characters]]
name = "Aria"
player = "alice"
skills = { Athletics = 12 }

[[characters]]
name = "Bram"
player = "bob"
skills = { Athletics = 12 }
"""


def test_every_character_of_an_abstract_scene_has_its_bank(tmp_path: Path) -> None:
    played = play(tmp_path, ABSTRACT, [
        ("gm_sam", "!task Breach dc 20"),
        ("alice", "[abstract: Athletics +4 on Breach]"),
        ("gm_sam", "!close"),
    ])  # fmt: skip
    assert [a["actor"] for a in played.actions(1)] == ["Aria"]
    characters = played.ledger["characters"]
    assert characters["Bram"]["bank"] == 0  # nobody acted for Bram: nothing banked
    assert isinstance(characters["Aria"]["bank"], int)
    assert characters["Aria"]["status"] == characters["Bram"]["status"] == "active"


SKIRMISH = """
[campaign]
name = "Keep"
gms = ["gm_sam"]
ruleset = "skirmish"

[[characters]]
name = "Aria"
player = "alice"
constitution = 3

[[characters]]
name = "Goblin"
constitution = 3
"""


def _counted(ledger: dict[str, Any]) -> tuple[int, int]:
    """The rolls `pbp verify --ledger` finds in round 1's summary and in its ledger."""
    check = verify_ledger(ledger).rounds[0]
    assert check.ok, check.describe()
    summary = sum(1 for r in check.rolls if r.source == "summary")
    return summary, len(check.rolls) - summary


def test_every_die_of_a_summary_is_in_the_ledger_the_gms_oppose(tmp_path: Path) -> None:
    # RULES §7: `!oppose` dice are in the ledger, so `pbp verify --ledger` counts them
    played = play(tmp_path, ABSTRACT, [
        ("gm_sam", "!task Breach dc 20"),
        ("alice", "[abstract: Athletics +4 on Breach]"),
        ("gm_sam", "!oppose Breach 2d6"),
        ("gm_sam", "!close"),
    ])  # fmt: skip
    assert [r["key"] for r in played.ledger["rounds"][0]["rolls"]] == [["p3", "cmd", 1]] * 2
    assert "`p3·cmd·1·0` d6" in played.summary(1)
    own = len(played.actions(1)[0]["rolls"])  # Aria's d20 and action dice
    assert _counted(played.ledger) == (2 + own, 2 + own)


def test_every_die_of_a_summary_is_in_the_ledger_initiative_and_advantage(tmp_path: Path) -> None:
    # RULES §7: initiative (M4) and advantage (M6) d24s alike
    played = play(tmp_path, SKIRMISH, [
        ("alice", "[attack: Goblin | adv]"),
        ("gm_sam", "!difficulty p1 5\n!close"),
    ])  # fmt: skip
    rolls = played.ledger["rounds"][0]["rolls"]
    assert [r["key"] for r in rolls] == [["r1", "initiative", 0], ["r1", "initiative", 1]]
    assert len(played.actions(1)[0]["rolls"]) == 2  # the advantage's two d24s
    assert _counted(played.ledger) == (4, 4)
