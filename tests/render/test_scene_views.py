"""Each scene shows its own values in `!status`, `!sheet` and the summary, rendered from a
thread played through the engine: no Distat column (Body, Mind, EAV/EPV, groups) appears
outside Distat, and hide-npcs hides an NPC's numbers in every scene."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from thread_run import new_run

from pbp.campaign.loader import parse_campaign
from pbp.engine.events import PostArrived
from pbp.services.seeds import round_seeds

ROSTER = """
[[characters]]
name = "Aria"
player = "alice"
constitution = 2
wisdom = 1
stamina = 1
hp = 14
wp = 6
dice_pool = 3

[[characters]]
name = "Bram"
player = "bob"

[[characters]]
name = "Goblin"
constitution = 1
wisdom = 1
hp = 9
"""
DISTAT_WORDS = ("Body", "Mind", "EAV", "EPV", "Stands", "zeroed")


def campaign(ruleset: str) -> Any:
    head = f'[campaign]\nname = "Keep"\ngms = ["gm_sam"]\nruleset = "{ruleset}"\n'
    return parse_campaign(head + ROSTER, path="k.toml")


def replies(ruleset: str, rounds: list[tuple[str, str]]) -> dict[str, str]:
    """Posts (author, body), then `!status` and `!sheet Aria Goblin`, a close, and the same
    again in the next round: every reply's text by key."""
    posts: list[tuple[str, str, str]] = []
    for number in (1, 2):
        posts += [(f"r{number}a{i}", author, body) for i, (author, body) in enumerate(rounds)]
        posts += [
            (f"s{number}", "bob", "!status\n!sheet Aria\n!sheet Goblin"),
            (f"c{number}", "gm_sam", "!close"),
        ]
    run = new_run(campaign(ruleset), seed_for=round_seeds("1"), bot="pbp_bot")
    start = datetime(2026, 11, 29, 10, 0, tzinfo=UTC)
    for minute, (post_id, author, body) in enumerate(posts):
        run.feed(
            PostArrived(
                post_id=post_id, author=author, body=body, at=start + timedelta(minutes=minute)
            )
        )
    return {key: reply.text for key, reply in run.posted.items()}


SCENES = {
    "d20": (
        [("alice", "[check: Climb +4 vs 14] [aid: Bram Climb +3]")],
        [
            "| Character | Side | Dice pool | Aid waiting |",
            "| Aria | party | 3 of 3 |",
            "+2 Climb (from Aria)",
        ],
        ["- Dice pool: 3 of 3"],
    ),
    "abstract": (
        [
            ("gm_sam", "!task Breach the gate dc 40\n!task Tunnel dc 20 secret"),
            ("alice", "[abstract: Athletics +12 on Breach the gate | bank]"),
        ],
        [
            "| Character | Side | Banked pips |",
            "Task Breach the gate: DC 40, open.",
            "Task Tunnel: DC ?, open.",
        ],
        ["- Banked pips:"],
    ),
    "skirmish": (
        [("alice", "[attack: Goblin]")],
        [
            "| Character | Side | Skirmish HP | Skirmish WP | State |",
            "| Goblin | foes | ? | ? |",
            "Turn order: ",
        ],
        ["- Constitution: 2", "- Skirmish HP and WP: 2 and 1"],
    ),
    "battle": (
        [("alice", "[attack: Goblin | damage 2]")],
        [
            "| Character | Side | HP | WP | AP a turn | State |",
            "| Aria | party | 14 | 6 | 4 | in the fight |",
            "| Goblin | foes | ? | ? | ? |",
        ],
        ["- Stamina: 1", "- HP and WP: 14 and 6"],
    ),
}


@pytest.mark.parametrize("ruleset", list(SCENES))
def test_status_sheet_and_summary_show_the_scenes_own_values(ruleset: str) -> None:
    posts, status_lines, sheet_lines = SCENES[ruleset]
    texts = replies(ruleset, posts)
    status = texts["s2-1"]  # the second round's: after the first close
    for line in status_lines:
        assert line in status, status
    sheet = texts["s2-2"]
    for line in sheet_lines:
        assert line in sheet, sheet
    assert "The GM keeps this character's numbers hidden." in texts["s2-3"]  # Goblin, an NPC
    shown = [status, sheet, texts["summary-1"], texts["summary-2"]]
    for text in shown:
        for word in DISTAT_WORDS:
            assert word not in text, (word, text)


def test_a_distat_scene_keeps_its_body_and_mind_columns() -> None:
    texts = replies(
        "distat", [("gm_sam", "!group Aria, Goblin"), ("alice", "[physical: attack Goblin]")]
    )
    assert "| Character | Stands | Body (EAV/EPV) | Mind (EAV/EPV) | State |" in texts["s2-1"]
    assert "| Aria | with Goblin |" in texts["s2-1"] and "| Bram | alone |" in texts["s2-1"]
    assert "| Body |" in texts["s2-2"]
    assert "Body (EAV/EPV)" in texts["summary-1"]
