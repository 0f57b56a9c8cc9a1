"""The d20 Advanced scene in the round engine: checks, takes, opposed checks, attacks, aid,
generic rolls, all resolved at the close with the round's keyed dice (RULES §3, SPEC §2.3, §6)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest
from engine_helpers import BOT, Row, event_of, ledger, make_campaign, thread
from scripted_dice import ScriptedDice
from thread_run import ClosedReports, actions_of

from pbp.campaign.loader import parse_campaign
from pbp.campaign.model import Campaign
from pbp.engine.post_contents import ProblemsContent
from pbp.engine.report import RoundReport
from pbp.engine.state import EngineState
from pbp.engine.step import initial_state, step
from pbp.rules.dice.seeded import Key, SeededDice, derive_roll
from pbp.rules.dice.source import Dice
from pbp.rulesets.d20.engine.model import D20Entry, D20Report, D20State

D20_TOML = """
[campaign]
name = "Test Keep"
gms = ["gm_sam"]
ruleset = "d20"

[[characters]]
name = "Aria"
player = "alice"
body = 5
mind = 3
dice_pool = 2

[[characters]]
name = "Bram"
player = "bob"
body = 3
mind = 4

[[characters]]
name = "Goblin"
body = 3
mind = 1
"""


def d20_campaign() -> Campaign:
    return parse_campaign(D20_TOML, path="d20.toml")


class Run:
    """A d20 thread fed through ``step`` with the dice a test chooses."""

    def __init__(self, dice: Mapping[Key, Sequence[int]] | None, campaign: Campaign) -> None:
        self.script = ScriptedDice(dice) if dice is not None else None
        self.asked: list[int] = []
        self.state: EngineState = initial_state(campaign, bot=BOT)
        self.reports = ClosedReports()
        self.problems: list[ProblemsContent] = []

    def dice(self, number: int) -> Dice:
        self.asked.append(number)
        return self.script if self.script is not None else SeededDice(f"seed-{number}")

    def feed(self, rows: Iterable[Row]) -> Run:
        for row in rows:
            event = event_of(row)
            self.state, effects = step(self.state, event, dice=self.dice, now=event.at)
            self.reports.see(effects)
            self.problems += [e.content for e in effects if isinstance(e.content, ProblemsContent)]
        return self

    def report(self, number: int = 1) -> RoundReport:
        return self.reports[number]

    def entries(self, number: int = 1) -> tuple[D20Entry, ...]:
        return self.report(number).parts.get(D20Report).entries

    def codes(self) -> list[tuple[str, str]]:
        return [(p.code, getattr(p, "cause", "")) for c in self.problems for p in c.problems]


def d20(
    posts: Iterable[tuple[str, str, str]],
    *,
    dice: Mapping[Key, Sequence[int]] | None = None,
    close: bool = True,
) -> Run:
    """Posts ``(id, author, body)`` in a d20 thread, one minute apart, then the GM's close."""
    rows: list[Row] = [
        ("post", pid, author, i + 1, body) for i, (pid, author, body) in enumerate(posts)
    ]
    if close:
        rows.append(("post", "close", "gm_sam", len(rows) + 1, "!close"))
    return Run(dice, d20_campaign()).feed(rows)


def numbers(entry: D20Entry) -> tuple[Any, ...]:
    r = entry.record
    return (r.actor, r.verb, r.roll, r.total, r.dc, r.outcome)


def test_take_10_meets_the_dc_and_no_tools_cost_five() -> None:
    run = d20([
        ("p2", "alice", "[check: Climb +4 vs 14 | take 10]"),
        ("p3", "bob", "[check: Climb +4 vs 14 | take 10 | tools none]"),
    ])  # fmt: skip
    assert [numbers(e) for e in run.entries()] == [
        ("Aria", "check", 10, 14, 14, "success"),  # RULES A4: 4 + 10 meets DC 14
        ("Bram", "check", 10, 9, 14, "failure"),  # RULES A7: no tools −5
    ]
    assert run.asked == []  # nothing rolled, so the round's dice were never needed


def test_rolled_check_is_the_seeded_d20_of_its_key() -> None:
    run = d20([("p2", "alice", "[check: Perception +5 vs 15]")])
    (entry,) = run.entries()
    roll = derive_roll(seed="seed-1", key=("p2", 0), index=0, sides=20)
    assert (entry.record.roll, entry.record.total) == (roll, roll + 5)
    assert entry.record.outcome == ("success" if roll + 5 >= 15 else "failure")
    assert [(r.key, r.index, r.sides, r.value) for r in entry.record.rolls] == [
        (("p2", 0), 0, 20, roll)
    ]
    again = d20([("p2", "alice", "[check: Perception +5 vs 15]")])
    assert again.entries()[0].record == entry.record


def test_opposed_check_tie_goes_to_the_higher_modifier() -> None:
    # RULES A1: 12 + 7 = 19 against 16 + 3 = 19; the initiator's +7 beats +3
    run = d20(
        [("p2", "bob", "[check: Stealth +7 vs Goblin Perception +3]")],
        dice={("p2", 0): [12, 16]},
    )
    (entry,) = run.entries()
    r = entry.record
    assert (r.total, r.opponent, r.opponent_roll, r.opponent_total) == (19, "Goblin", 16, 19)
    assert (r.outcome, r.reason, r.dc) == ("success", "higher_modifier", None)


def test_opposed_check_with_equal_modifiers_rolls_fifty_fifty() -> None:
    # RULES A1: equal totals and modifiers; the third d20 decides, 11-20 the opponent
    run = d20(
        [("p2", "bob", "[check: Stealth +3 vs Goblin Perception +3]")],
        dice={("p2", 0): [10, 10, 15]},
    )
    r = run.entries()[0].record
    assert (r.outcome, r.reason, r.tie_roll) == ("failure", "tie_roll", 15)


def test_natural_20_hits_any_defense_and_natural_1_misses() -> None:
    run = d20(
        [("p2", "alice", "[attack: +2 vs 30]"), ("p3", "bob", "[attack: +20 vs 10]")],
        dice={("p2", 0): [20], ("p3", 0): [1]},
    )
    hit, miss = run.entries()
    assert numbers(hit) == ("Aria", "attack", 20, 22, 30, "success")
    assert hit.record.critical_threat and hit.record.reason == "natural_20"
    assert numbers(miss) == ("Bram", "attack", 1, 21, 10, "failure")
    assert miss.record.reason == "natural_1"


def test_aid_another_adds_its_bonus_to_the_next_check_of_that_skill() -> None:
    # RULES A5: 14 + 3 = 17 vs DC 10 gives +2; Aria's Climb then adds it
    run = d20(
        [
            ("p2", "bob", "[aid: Aria Climb +3]"),
            ("p3", "alice", "[check: Climb +4 vs 20] [check: Swim +1 vs 5]"),
        ],
        dice={("p2", 0): [14], ("p3", 0): [14], ("p3", 1): [4]},
    )
    aid, climb, swim = run.entries()
    assert numbers(aid) == ("Bram", "aid", 14, 17, 10, "success")
    assert aid.record.aid_bonus == 2
    assert (climb.record.modifier, climb.record.total, climb.record.outcome) == (6, 20, "success")
    assert dict(climb.record.modifiers)["aid"] == 2
    assert swim.record.modifier == 1  # another skill gets nothing


def test_failed_check_with_pool_retries_and_the_pool_loses_a_die() -> None:
    # RULES A8: 3 + 2 fails DC 15; the pool of 2 rolls 9 and 14, keeps 14: 16 succeeds
    run = d20([("p2", "alice", "[check: Climb +2 vs 15 | pool]")], dice={("p2", 0): [3, 9, 14]})
    r = run.entries()[0].record
    assert (r.first_roll, r.pool_dice, r.roll, r.total, r.outcome) == (
        3,
        (9, 14),
        14,
        16,
        "success",
    )
    assert r.pool_left == 1 and run.state.slot(D20State).spent("Aria") == 1


def test_generic_roll_is_recorded_with_its_keys() -> None:
    run = d20([("p2", "alice", "[roll: 2d6+1]")], dice={("p2", 0): [3, 5]})
    (entry,) = run.entries()
    assert (entry.record.verb, entry.record.dice, entry.record.total) == ("roll", (3, 5), 9)
    assert [(r.key, r.index, r.value) for r in entry.record.rolls] == [
        (("p2", 0), 0, 3),
        (("p2", 0), 1, 5),
    ]


def test_gm_acts_for_npcs_with_as_and_players_only_for_their_own() -> None:
    run = d20([
        ("p2", "gm_sam", "[check: Climb +1 vs 5 | take 10 | as Goblin]"),
        ("p3", "bob", "[check: Climb +1 vs 5 | take 10 | as Aria]"),
        ("p4", "gm_sam", "[check: Climb +1 vs 5 | take 10]"),
    ])  # fmt: skip
    (entry,) = run.entries()
    assert (entry.record.actor, entry.on_behalf) == ("Goblin", True)
    assert run.codes() == [("not_your_character", ""), ("need_as", "")]


@pytest.mark.parametrize(
    ("body", "cause"),
    [
        ("[check: Climb +4 vs 20 | take 1]", "take_1_bonus_too_low"),
        ("[check: Stealth +4 vs Goblin Perception +2 | take 20]", "take_20_opposed"),
        ("[check: Stealth +4 vs Aria Perception +2]", "opposed_self"),
        ("[aid: Aria Climb +3]", "aid_self"),
        ("[check: Climb +4 vs 20 | pool] [check: Climb +4 vs 20 | pool]", None),
    ],
)
def test_a_tag_the_rules_refuse_is_rejected_on_arrival(body: str, cause: str | None) -> None:
    run = d20([("p2", "alice", body)])
    if cause is None:  # two pooled checks are two actions: both accepted
        assert run.codes() == [] and len(run.entries()) == 2
        return
    assert run.codes() == [("d20_rule", cause)]
    assert run.entries() == ()


def test_third_action_in_a_round_is_rejected() -> None:
    # RULES A11: two actions per round; a generic roll costs none
    run = d20(
        [("p2", "alice", "[attack: +1 vs 5] [roll: d4] [check: Climb +1 vs 5 | take 10]"),
         ("p3", "alice", "[attack: +1 vs 5]")],
        dice={("p2", 0): [10], ("p2", 1): [2]},
    )  # fmt: skip
    assert run.codes() == [("d20_rule", "round_no_actions_left")]
    assert [e.record.verb for e in run.entries()] == ["attack", "roll", "check"]


def test_pressure_forbids_taking_10() -> None:
    run = Run(None, d20_campaign()).feed([
        ("post", "p1", "gm_sam", 1, "!encounter d20 pressure on"),
        ("post", "p2", "alice", 2, "[check: Climb +4 vs 14 | take 10]"),
    ])  # fmt: skip
    assert run.codes() == [("d20_rule", "take_10_under_pressure")]


def test_encounter_d20_switches_a_distat_thread_to_d20_tags() -> None:
    run = Run(None, make_campaign()).feed([
        ("post", "p1", "gm_sam", 1, "!encounter d20"),
        ("post", "p2", "alice", 2, "[check: Climb +4 vs 14 | take 10]"),
        ("post", "p3", "bob", 3, "[move: Aria]"),
        ("post", "p4", "gm_sam", 4, "!close"),
    ])  # fmt: skip
    assert [numbers(e) for e in run.entries()] == [("Aria", "check", 10, 14, 14, "success")]
    assert run.codes() == [("wrong_scene", "")]


def test_distat_thread_is_unchanged_and_never_asks_for_dice() -> None:
    rows: list[Row] = [
        ("post", "p1", "gm_sam", 1, "!group Aria, Goblin"),
        ("post", "p2", "alice", 2, "[physical: attack Goblin]"),
        ("post", "p3", "bob", 3, "[check: Climb +4 vs 14]"),
        ("post", "p4", "gm_sam", 4, "!close"),
    ]
    run = Run(None, make_campaign()).feed(rows)
    report = run.report()
    assert report.parts.get(D20Report).entries == () and run.asked == []
    ((actor, outcome, active, passive),) = [
        (a.record.actor, a.record.outcome, a.record.active, a.record.passive)
        for a in actions_of(report)
    ]
    assert (actor, outcome, active, passive) == ("Aria", "success", 5, 3)
    assert run.codes() == [("wrong_scene", "")]


def test_a_roll_reads_in_a_distat_scene_too() -> None:
    rows: list[Row] = [
        ("post", "p1", "gm_sam", 1, "!group Aria, Goblin"),
        ("post", "p2", "bob", 3, "Loot! [roll: 2d6]"),
        ("post", "p3", "gm_sam", 4, "!close"),
    ]
    run = Run(None, make_campaign()).feed(rows)
    [entry] = run.report().parts.get(D20Report).entries
    assert (entry.post_id, entry.record.verb, entry.record.actor) == ("p2", "roll", "Bram")
    assert run.asked == [1] and run.codes() == []


def test_ledger_and_summary_show_each_d20_result_and_roll_key() -> None:
    rows: list[Row] = [
        ("post", "p1", "gm_sam", 1, "!encounter d20"),
        ("post", "p2", "alice", 2, "[check: Climb +4 vs 14 | take 10] [roll: 2d6+1]"),
        ("post", "p3", "gm_sam", 3, "!close"),
    ]
    run = thread(rows, campaign=d20_campaign())
    book = ledger(run)
    check, roll = book["rounds"][0]["actions"]
    assert {k: check[k] for k in ("post", "actor", "verb", "outcome", "roll", "total", "dc")} == {
        "post": "p2", "actor": "Aria", "verb": "check", "outcome": "success", "roll": 10,
        "total": 14, "dc": 14,
    }  # fmt: skip
    assert check["reason"] is None
    assert roll["verb"] == "roll" and [r["key"] for r in roll["rolls"]] == [["p2", 1], ["p2", 1]]
    summary = book["rounds"][0]["summary"]
    assert "| Aria | check Climb (take 10) | 10 + 4 = **14** vs DC 14 | **success** |" in summary
    first, second = roll["rolls"]
    assert f"`p2·1·0` d6 = {first['value']}; `p2·1·1` d6 = {second['value']}" in summary
