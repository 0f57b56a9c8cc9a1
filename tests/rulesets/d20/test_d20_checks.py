"""d20 Advanced DC checks, condition modifiers, tools, take 1/10/20 (RULES A2–A4, A6, A7)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scripted_dice import ScriptedDice

from pbp.errors import PbpError
from pbp.rulesets.d20.rules.checks import (
    Check,
    Difficulty,
    Situation,
    Tools,
    roll_check,
    take_check,
    tools_modifier,
)
from pbp.rulesets.d20.rules.errors import TakeNotAllowed
from pbp.rulesets.d20.rules.results import Modifier, Reason


def roller(*rolls: int) -> ScriptedDice:
    return ScriptedDice({("p1", 0): rolls})


def test_a2_dc_check_meets_or_beats_the_dc() -> None:
    # RULES A2: d20 + modifiers >= DC succeeds; the seed's example: DC 15 needs 15 or better.
    dice = roller(10)
    met = roll_check(check=Check(bonus=5), dc=Difficulty(base=15), roller=dice.for_key("p1", 0))
    assert (met.roll, met.modifier, met.total, met.dc) == (10, 5, 15, 15)
    assert (met.outcome, met.reason, met.margin) == ("success", Reason.MET_DC, 0)
    missed = roll_check(
        check=Check(bonus=5), dc=Difficulty(base=16), roller=roller(10).for_key("p1", 0)
    )
    assert (missed.total, missed.outcome, missed.reason) == (15, "failure", Reason.BELOW_DC)


def test_a2_naturals_do_not_matter_on_a_dc_check() -> None:
    # RULES A2: a natural 1 with a big bonus still succeeds, a natural 20 can still fail.
    one = roll_check(
        check=Check(bonus=20), dc=Difficulty(base=15), roller=roller(1).for_key("p1", 0)
    )
    assert one.outcome == "success"
    twenty = roll_check(
        check=Check(bonus=0), dc=Difficulty(base=25), roller=roller(20).for_key("p1", 0)
    )
    assert twenty.outcome == "failure"


@settings(max_examples=200)
@given(st.integers(1, 20), st.integers(-10, 30), st.integers(0, 55))
def test_a2_outcome_is_total_against_dc(roll: int, bonus: int, dc: int) -> None:
    result = roll_check(
        check=Check(bonus=bonus), dc=Difficulty(base=dc), roller=roller(roll).for_key("p1", 0)
    )
    assert result.total == roll + bonus
    assert (result.outcome == "success") == (roll + bonus >= dc)


def test_a6_condition_modifiers_are_kept_apart_for_check_and_dc() -> None:
    # RULES A6: +2 to the check and −2 to the DC give the same chance but are stored apart.
    on_check = roll_check(
        check=Check(bonus=3, condition=2),
        dc=Difficulty(base=15),
        roller=roller(10).for_key("p1", 0),
    )
    on_dc = roll_check(
        check=Check(bonus=3),
        dc=Difficulty(base=15, condition=-2),
        roller=roller(10).for_key("p1", 0),
    )
    assert (on_check.total, on_check.dc) == (15, 15)
    assert (on_dc.total, on_dc.dc) == (13, 13)
    assert on_check.outcome == on_dc.outcome == "success"
    assert Modifier(name="condition", value=2) in on_check.modifiers
    assert on_dc.modifiers == (Modifier(name="bonus", value=3),)
    assert (on_dc.difficulty.base, on_dc.difficulty.condition) == (15, -2)


@pytest.mark.parametrize(
    ("tools", "feat", "penalty"),
    [
        (Tools.PROPER, False, 0),
        (Tools.NONE, False, -5),
        (Tools.IMPROVISED, False, -2),
        (Tools.NONE, True, 0),
        (Tools.IMPROVISED, True, 0),
    ],
)
def test_a7_tools_penalties(tools: Tools, feat: bool, penalty: int) -> None:
    # RULES A7: no tools −5, improvised −2, the Improvised Tools feat: no penalty.
    assert tools_modifier(tools=tools, improvised_tools_feat=feat) == penalty
    check = Check(bonus=6, tools=tools, improvised_tools_feat=feat)
    result = roll_check(check=check, dc=Difficulty(base=10), roller=roller(10).for_key("p1", 0))
    assert result.total == 16 + penalty


def test_a7_missing_tools_can_turn_a_success_into_a_failure() -> None:
    check = Check(bonus=5, tools=Tools.NONE)
    result = roll_check(check=check, dc=Difficulty(base=15), roller=roller(10).for_key("p1", 0))
    assert (result.modifier, result.total, result.outcome) == (0, 10, "failure")
    assert Modifier(name="tools", value=-5) in result.modifiers


def test_a3_take_1_succeeds_without_a_roll_when_the_bonus_meets_dc_minus_1() -> None:
    # RULES A3: bonus >= DC − 1 → result bonus + 1, a success, allowed even under pressure.
    result = take_check(
        check=Check(bonus=14), dc=Difficulty(base=15), take=1, situation=Situation(pressure=True)
    )
    assert (result.roll, result.taken, result.total, result.outcome) == (None, 1, 15, "success")
    assert result.reason == Reason.TAKE_1


def test_a3_take_1_is_refused_when_the_bonus_is_too_low() -> None:
    with pytest.raises(TakeNotAllowed) as caught:
        take_check(check=Check(bonus=13), dc=Difficulty(base=15), take=1, situation=Situation())
    assert caught.value.code == "take_1_bonus_too_low"
    assert isinstance(caught.value, PbpError)


def test_a4_take_10_gives_bonus_plus_10_without_a_roll() -> None:
    result = take_check(
        check=Check(bonus=0), dc=Difficulty(base=10), take=10, situation=Situation()
    )
    assert (result.roll, result.taken, result.total, result.outcome) == (None, 10, 10, "success")


def test_a4_take_10_is_forbidden_under_pressure_unless_skill_mastery() -> None:
    with pytest.raises(TakeNotAllowed) as caught:
        take_check(
            check=Check(bonus=5),
            dc=Difficulty(base=10),
            take=10,
            situation=Situation(pressure=True),
        )
    assert caught.value.code == "take_10_under_pressure"
    mastered = take_check(
        check=Check(bonus=5),
        dc=Difficulty(base=10),
        take=10,
        situation=Situation(pressure=True, skill_mastery=True),
    )
    assert mastered.total == 15


def test_a4_take_20_gives_bonus_plus_20_only_without_penalty_for_failure() -> None:
    result = take_check(
        check=Check(bonus=3), dc=Difficulty(base=25), take=20, situation=Situation()
    )
    assert (result.total, result.outcome) == (23, "failure")
    with pytest.raises(TakeNotAllowed) as penalty:
        take_check(
            check=Check(bonus=3),
            dc=Difficulty(base=20),
            take=20,
            situation=Situation(failure_has_penalty=True),
        )
    assert penalty.value.code == "take_20_penalty"
    with pytest.raises(TakeNotAllowed) as rushed:
        take_check(
            check=Check(bonus=3),
            dc=Difficulty(base=20),
            take=20,
            situation=Situation(time_allows=False),
        )
    assert rushed.value.code == "take_20_no_time"
