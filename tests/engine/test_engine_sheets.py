"""Numbers a tag leaves to the character sheets (issue: every ruleset first-class): a d20 or
Epic Path skill bonus, an opponent's, a d20 attack bonus and Defense. A number the sheet lacks
is refused with what to write instead; a number written in the tag always wins."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest
from engine_helpers import BOT, event_of
from scripted_dice import ScriptedDice

from pbp.campaign.loader import parse_campaign
from pbp.engine.post_contents import ProblemsContent
from pbp.engine.state import EngineState
from pbp.engine.step import initial_state, step
from pbp.errors import ConfigError
from pbp.rulesets.abstract.engine.model import AbstractReport
from pbp.rulesets.d20.engine.model import D20Report
from pbp.rulesets.d20.tags import AttackRollTag, CheckTag
from pbp.tags import format_tag
from pbp.tags.model import Source

SHEETS = """
[campaign]
name = "Sheets"
gms = ["gm_sam"]
ruleset = "{ruleset}"

[[characters]]
name = "Aria"
player = "alice"
attack = 5
defense = 13
skills = {{ Stealth = 6, "Disable Device" = 4, Athletics = 12, Climb = 3 }}

[[characters]]
name = "Bram"
player = "bob"

[[characters]]
name = "Goblin"
defense = 12
skills = {{ Perception = 2 }}
"""


def run(
    ruleset: str,
    posts: Iterable[tuple[str, str]],
    dice: dict[Any, list[int]],
    *,
    sheets: str = SHEETS,
) -> Any:
    """Posts ``(author, body)`` then the GM's close, with scripted dice: (state, problems)."""
    campaign = parse_campaign(sheets.format(ruleset=ruleset), path="s.toml")
    state: EngineState = initial_state(campaign, bot=BOT)
    script = ScriptedDice(dice)
    problems: list[Any] = []
    rows = [("post", f"p{i}", author, i, body) for i, (author, body) in enumerate(posts)]
    rows.append(("post", "close", "gm_sam", len(rows), "!close"))
    for row in rows:
        event = event_of(row)
        state, effects = step(state, event, dice=lambda _n: script, now=event.at)
        problems += [
            p for e in effects if isinstance(e.content, ProblemsContent) for p in e.content.problems
        ]
    return state, problems


def test_a_d20_check_without_a_bonus_takes_the_sheets() -> None:
    state, problems = run(
        "d20",
        [
            ("alice", "[check: stealth vs 15]"),
            ("alice", "[check: Stealth vs Goblin Perception]"),
            ("gm_sam", "[check: Perception +1 vs 15 | as Goblin]"),  # written: it wins
        ],
        {("p0", 0): [9], ("p1", 0): [10, 10], ("p2", 0): [9]},
    )
    assert problems == []
    d20 = state.closed[0].report.parts.get(D20Report)
    alone, opposed, written = (e.record for e in d20.entries)
    assert (alone.modifier, alone.total, alone.outcome) == (6, 15, "success")
    assert (opposed.modifier, opposed.opponent_modifier) == (6, 2)
    assert (written.actor, written.modifier, written.total) == ("Goblin", 1, 10)


def test_a_d20_attack_takes_the_attack_bonus_and_the_targets_defense() -> None:
    state, problems = run(
        "d20",
        [("alice", "[attack: Goblin] [attack: +2 vs Goblin]")],
        {("p0", 0): [7], ("p0", 1): [9]},
    )
    assert problems == []
    first, second = (e.record for e in state.closed[0].report.parts.get(D20Report).entries)
    assert (first.modifier, first.dc, first.total, first.outcome) == (5, 12, 12, "success")
    assert (second.modifier, second.dc, second.total, second.outcome) == (2, 12, 11, "failure")


def test_a_number_the_sheet_lacks_is_refused_with_the_tag_to_write() -> None:
    _state, problems = run(
        "d20",
        [
            ("bob", "[check: Stealth vs 15]"),
            ("alice", "[check: Stealth vs Bram Perception]"),
            ("bob", "[attack: Goblin]"),
            ("alice", "[attack: +3 vs Bram]"),
        ],
        {},
    )
    causes = [(p.cause, f"{p.owner}'s sheet has no {p.what}") for p in problems]
    assert causes == [
        ("not_on_sheet", "Bram's sheet has no Stealth bonus"),
        ("not_on_sheet", "Bram's sheet has no Perception bonus"),
        ("not_on_sheet", "Bram's sheet has no attack bonus"),
        ("not_on_sheet", "Bram's sheet has no Defense"),
    ]


def test_an_epic_path_roll_without_a_bonus_takes_the_sheets() -> None:
    state, problems = run(
        "abstract",
        [
            ("gm_sam", "!task Breach the gate dc 40"),
            ("alice", "[abstract: Athletics on Breach the gate | bank]"),
            ("bob", "[abstract: Athletics on Breach the gate]"),
        ],
        {("p1", 0): [10, 3, 3, 3, 3, 3]},
    )
    assert [(p.cause, p.actor, p.skill) for p in problems] == [
        ("not_on_sheet", "Bram", "Athletics")
    ]
    [entry] = state.closed[0].report.parts.get(AbstractReport).entries
    assert (entry.record.bonus, entry.record.result) == (12, 22)


def test_a_tag_that_leaves_its_bonus_to_the_sheet_reads_back_the_same() -> None:
    source = Source(index=0, line=1, column=1, text="")
    check = CheckTag(source=source, skill="Stealth", modifier=None, dc=15)
    assert format_tag(check) == "[check: Stealth vs 15]"
    attack = AttackRollTag(source=source, modifier=None, defense=None, target="Goblin")
    assert format_tag(attack) == "[attack: Goblin]"


@pytest.mark.parametrize(
    ("skills", "message"),
    [
        ('{ Stealth = "six" }', "skills.Stealth"),
        ("{ Stealth = 1000 }", "is beyond ±999"),
        ('{ "Bad|Name" = 2 }', 'skill "Bad|Name" contains |'),
        ('{ Stealth = 2, " Stealth" = 3 }', 'skill "Stealth" is given twice'),
    ],
)
def test_a_wrong_skills_table_is_a_line_precise_error(skills: str, message: str) -> None:
    text = SHEETS.format(ruleset="d20").replace("skills = { Perception = 2 }", f"skills = {skills}")
    with pytest.raises(ConfigError) as caught:
        parse_campaign(text, path="s.toml")
    assert message in str(caught.value) and "(line 21)" in str(caught.value), str(caught.value)


COMPARE = SHEETS.replace(
    "Athletics = 12, Climb = 3 }", "Athletics = 12, Climb = 3, Strength = 14 }"
).replace(
    "skills = {{ Perception = 2 }}", "skills = {{ Perception = 2, Strength = 14, Fortitude = 3 }}"
)


def run_compare(posts: list[tuple[str, str]], dice: dict[Any, list[int]]) -> Any:
    return run("d20", posts, dice, sheets=COMPARE)


def test_a_comparison_check_rolls_nothing_unless_the_scores_tie() -> None:
    # RULES A12: the higher score wins, no roll; equal scores, a 50/50 d20; a boost (Hero
    # Dice, by hand) raises one's own score
    state, problems = run_compare(
        [
            ("alice", "[compare: Strength 16 vs Goblin 12]"),
            ("bob", "[compare: Strength 10 vs Goblin 12 | boost 2]"),
            ("gm_sam", "[compare: Strength vs Aria | as Goblin]"),  # 14 and 14, from the sheets
        ],
        {("p1", 0): [3], ("p2", 0): [15]},
    )
    assert problems == []
    higher, boosted, tie = (e.record for e in state.closed[0].report.parts.get(D20Report).entries)
    assert (higher.total, higher.opponent_total, higher.outcome, higher.rolls) == (
        16,
        12,
        "success",
        (),
    )
    assert (boosted.total, boosted.modifier, boosted.reason, boosted.tie_roll) == (
        12,
        2,
        "tie_roll",
        3,
    )
    assert (tie.total, tie.opponent_total, tie.reason, tie.tie_roll) == (14, 14, "tie_roll", 15)


def test_an_effect_roll_meets_a_resistances_static_dc_of_ten_plus_the_rank() -> None:
    # RULES A9: DC = 10 + Goblin's Fortitude rank 3 = 13; the effect meets or beats it
    state, problems = run_compare(
        [
            ("alice", "[effect: +6 vs Goblin Fortitude] [effect: vs 20]"),
            ("bob", "[effect: +2 vs Goblin Will]"),
        ],
        {("p0", 0): [7], ("p0", 1): [14]},
    )
    [(cause, detail)] = [(p.cause, f"{p.owner}'s sheet has no {p.what}") for p in problems]
    assert (cause, detail) == ("not_on_sheet", "Goblin's sheet has no Will rank")
    first, second = (e.record for e in state.closed[0].report.parts.get(D20Report).entries)
    assert (first.total, first.dc, first.outcome, first.margin, first.resistance) == (
        13,
        13,
        "success",
        0,
        "fortitude",
    )
    assert (second.modifier, second.total, second.dc, second.outcome) == (5, 19, 20, "failure")
