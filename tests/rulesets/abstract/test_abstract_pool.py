"""The interval's skill roll and action dice (RULES E1–E3)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scripted_dice import ScriptedDice

from pbp.rulesets.abstract.rules.pool import (
    DIVISORS,
    MAX_DICE,
    MAX_MODIFIER,
    SkillRoll,
    dice_count,
    roll_action_dice,
    skill_result,
)


def test_e1_the_worked_example_27_on_the_proper_skill_gives_five_dice() -> None:
    # RULES E5's example starts from E1: 27 on the proper skill -> 5 dice.
    assert dice_count(result=27, divisor=DIVISORS["skill"]) == 5


def test_e1_divisors_per_source() -> None:
    assert DIVISORS == {"skill": 5, "bailiwick": 10, "other": 12, "spell": 5}
    assert dice_count(result=39, divisor=DIVISORS["bailiwick"]) == 3
    assert dice_count(result=47, divisor=DIVISORS["other"]) == 3
    assert dice_count(result=48, divisor=DIVISORS["other"]) == 4


def test_e1_rounds_down_and_never_gives_fewer_than_two_dice() -> None:
    assert dice_count(result=29, divisor=5) == 5
    assert dice_count(result=14, divisor=5) == 2
    assert dice_count(result=3, divisor=5) == 2
    assert dice_count(result=0, divisor=5) == 2
    assert dice_count(result=-7, divisor=5) == 2  # floor of a negative result: still 2


@given(st.integers(-100, 300), st.sampled_from(sorted(set(DIVISORS.values()))))
def test_e1_count_is_floor_of_result_over_divisor_at_least_two(result: int, divisor: int) -> None:
    assert dice_count(result=result, divisor=divisor) == max(2, result // divisor)


def test_e2_natural_20_adds_five_natural_1_adds_nothing() -> None:
    assert skill_result(roll=20, modifier=3) == 28
    assert skill_result(roll=19, modifier=3) == 22
    assert skill_result(roll=1, modifier=3) == 4
    assert skill_result(roll=1, modifier=-4) == -3


def test_skill_result_refuses_a_d20_face_that_does_not_exist() -> None:
    with pytest.raises(ValueError, match="d20"):
        skill_result(roll=21, modifier=0)


def test_roll_action_dice_rolls_the_d20_first_then_one_d6_per_die_in_rolled_order() -> None:
    # The scripted dice refuse a 14 on a d6, so this also checks the order of the rolls.
    dice = ScriptedDice([14, 6, 1, 4, 2, 6])
    skill, pool = roll_action_dice(modifier=13, source="skill", roller=dice.for_key("p1", 0))
    assert skill == SkillRoll(roll=14, modifier=13, result=27, divisor=5, count=5)
    assert pool == (6, 1, 4, 2, 6)
    assert dice.unused == 0


def test_roll_action_dice_bailiwick_and_other_divide_more() -> None:
    dice = ScriptedDice([18, 3, 3, 3, 4, 4, 4])
    bail, pool = roll_action_dice(modifier=12, source="bailiwick", roller=dice.for_key("a"))
    assert (bail.result, bail.divisor, bail.count, pool) == (30, 10, 3, (3, 3, 3))
    other, pool = roll_action_dice(modifier=-3, source="other", roller=dice.for_key("b"))
    assert (other.result, other.divisor, other.count, pool) == (1, 12, 2, (4, 4))


def test_roll_action_dice_natural_20_counts_its_bonus() -> None:
    dice = ScriptedDice([20, *[1] * 6])
    skill, pool = roll_action_dice(modifier=5, source="skill", roller=dice.for_key("p1", 0))
    assert (skill.result, skill.count, len(pool)) == (30, 6, 6)


def test_e3_spell_slots_roll_an_unmodified_d20_over_five() -> None:
    dice = ScriptedDice([20, 6, 6, 6, 6, 17, 2, 2, 3])
    skill, pool = roll_action_dice(modifier=40, source="spell", roller=dice.for_key("a"))
    # RULES E3: no modifier and no natural-20 bonus: 20 // 5 = 4 dice.
    assert skill == SkillRoll(roll=20, modifier=0, result=20, divisor=5, count=4)
    assert pool == (6, 6, 6, 6)
    skill, pool = roll_action_dice(modifier=40, source="spell", roller=dice.for_key("b"))
    assert (skill.result, skill.count, pool) == (17, 3, (2, 2, 3))


def test_e3_a_low_spell_roll_still_gets_the_two_die_minimum() -> None:
    dice = ScriptedDice([4, 3, 5])
    skill, pool = roll_action_dice(modifier=0, source="spell", roller=dice.for_key("a"))
    assert (skill.result, skill.count, pool) == (4, 2, (3, 5))


def test_an_unknown_source_is_refused_before_anything_is_rolled() -> None:
    dice = ScriptedDice([10, 3, 3])
    with pytest.raises(ValueError, match="unknown source"):
        roll_action_dice(modifier=0, source="profession", roller=dice.for_key("a"))
    assert dice.unused == 3


def test_max_modifier_is_the_largest_that_fits_the_dice_cap_on_a_natural_20() -> None:
    assert skill_result(roll=20, modifier=MAX_MODIFIER) // 5 == MAX_DICE
    assert skill_result(roll=20, modifier=MAX_MODIFIER + 1) // 5 > MAX_DICE
    dice = ScriptedDice([20, *[3] * MAX_DICE])
    skill, pool = roll_action_dice(modifier=MAX_MODIFIER, source="skill", roller=dice.for_key("a"))
    assert skill.count == len(pool) == MAX_DICE


def test_a_hostile_modifier_is_refused_before_any_d6_is_rolled() -> None:
    dice = ScriptedDice([20, 6, 6])
    with pytest.raises(ValueError, match=f"at most {MAX_DICE}"):
        roll_action_dice(modifier=100000, source="skill", roller=dice.for_key("a"))
    assert dice.unused == 2  # only the d20 was rolled
    with pytest.raises(ValueError, match=f"at most {MAX_DICE}"):
        dice_count(result=MAX_DICE * 5 + 5, divisor=5)


@settings(max_examples=100)
@given(st.integers(1, 20), st.integers(-30, MAX_MODIFIER), st.sampled_from(sorted(DIVISORS)))
def test_roll_action_dice_rolls_exactly_count_dice(roll: int, modifier: int, source: str) -> None:
    dice = ScriptedDice([roll, *[1] * MAX_DICE])
    skill, pool = roll_action_dice(modifier=modifier, source=source, roller=dice.for_key("a"))
    assert len(pool) == skill.count >= 2
    assert dice.unused == MAX_DICE - skill.count
