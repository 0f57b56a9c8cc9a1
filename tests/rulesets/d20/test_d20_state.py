"""Dice pools (RULES A8), resistances (A9), condition tracks (A10) and the round (A11)."""

from __future__ import annotations

import pytest
from scripted_dice import ScriptedDice

from pbp.rules.dice.source import Roller
from pbp.rulesets.d20.rules.actions import MOVE, ActionCost, Activity, RoundBudget, spend
from pbp.rulesets.d20.rules.checks import Check, Difficulty, resolve_check
from pbp.rulesets.d20.rules.conditions import (
    DEFAULT_TRACKS,
    RECOVERY,
    Conditions,
    Recovery,
    Track,
    load_tracks,
    recovery_attempt_allowed,
    step,
)
from pbp.rulesets.d20.rules.errors import PoolNotUsable, RoundBudgetExceeded
from pbp.rulesets.d20.rules.pools import DicePool, retry_with_pool, roll_negative_pool, roll_pool
from pbp.rulesets.d20.rules.resistances import Resistance, resist, resistance_dc, severity


def rolls(*values: int) -> Roller:
    return ScriptedDice(list(values)).for_key("p1", 0)


# --- RULES A8: dice pools ---------------------------------------------------------------------


def failed_check() -> tuple[Check, Difficulty]:
    return Check(bonus=4, condition=-2), Difficulty(base=18)


def test_a8_pool_retries_a_failed_check_keeping_the_highest_die() -> None:
    check, dc = failed_check()
    failed = resolve_check(check=check, dc=dc, roll=7)
    assert failed.outcome == "failure"
    retry = retry_with_pool(failed=failed, pool=DicePool(size=3), roller=rolls(5, 17, 12))
    assert (retry.dice, retry.kept) == ((5, 17, 12), 17)
    assert (retry.result.modifier, retry.result.total, retry.result.dc) == (2, 19, 18)
    assert retry.result.outcome == "success"
    assert retry.pool_after == DicePool(size=2)


def test_a8_pool_loses_a_die_even_when_the_retry_fails() -> None:
    check, dc = failed_check()
    failed = resolve_check(check=check, dc=dc, roll=7)
    retry = retry_with_pool(failed=failed, pool=DicePool(size=2), roller=rolls(3, 9))
    assert (retry.kept, retry.result.outcome, retry.pool_after.size) == (9, "failure", 1)


def test_a8_pool_of_zero_cannot_be_used_nor_a_successful_check_retried() -> None:
    check, dc = failed_check()
    failed = resolve_check(check=check, dc=dc, roll=7)
    with pytest.raises(PoolNotUsable) as empty:
        retry_with_pool(failed=failed, pool=DicePool(size=0), roller=rolls())
    assert empty.value.code == "pool_empty"
    passed = resolve_check(check=check, dc=dc, roll=20)
    with pytest.raises(PoolNotUsable) as succeeded:
        retry_with_pool(failed=passed, pool=DicePool(size=3), roller=rolls())
    assert succeeded.value.code == "pool_needs_failed_check"


def test_a8_negative_pool_keeps_the_lowest_and_does_not_shrink() -> None:
    check = Check(bonus=5)
    result = roll_negative_pool(
        check=check, dc=Difficulty(base=15), pool=DicePool(size=-3), roller=rolls(18, 4, 11)
    )
    assert (result.dice, result.kept, result.result.total) == ((18, 4, 11), 4, 9)
    assert result.result.outcome == "failure"
    assert result.pool_after == DicePool(size=-3)
    with pytest.raises(PoolNotUsable):
        roll_negative_pool(
            check=check, dc=Difficulty(base=15), pool=DicePool(size=2), roller=rolls()
        )


def test_a8_roll_pool_keeps_highest_or_lowest_by_the_pool_sign() -> None:
    assert roll_pool(pool=DicePool(size=2), roller=rolls(6, 15)) == ((6, 15), 15)
    assert roll_pool(pool=DicePool(size=-2), roller=rolls(6, 15)) == ((6, 15), 6)
    with pytest.raises(PoolNotUsable):
        roll_pool(pool=DicePool(size=0), roller=rolls())


# --- RULES A9: resistances --------------------------------------------------------------------


def test_a9_resistance_is_a_static_dc_of_ten_plus_parts() -> None:
    fortitude = resistance_dc(
        resistance=Resistance.FORTITUDE, ability_modifier=2, ranks=3, bonuses=1
    )
    assert fortitude.value == 16
    toughness = resistance_dc(resistance=Resistance.TOUGHNESS, ranks=4)
    assert toughness.value == 14


def test_a9_defense_and_toughness_take_no_ability_modifier() -> None:
    with pytest.raises(ValueError):
        resistance_dc(resistance=Resistance.DEFENSE, ability_modifier=2, ranks=1)


def test_a9_effect_meeting_the_resistance_gets_through() -> None:
    dc = resistance_dc(resistance=Resistance.WILL, ability_modifier=1, ranks=2)  # 13
    assert resist(effect_total=13, dc=dc).outcome == "success"
    missed = resist(effect_total=12, dc=dc)
    assert (missed.outcome, missed.margin) == ("failure", -1)


def test_a9_toughness_severity_comes_from_a_table() -> None:
    table = [(0, "glancing"), (5, "stunning"), (10, "knockout")]
    assert severity(margin=-1, table=table) is None
    assert severity(margin=0, table=table) == "glancing"
    assert severity(margin=7, table=table) == "stunning"
    assert severity(margin=15, table=table) == "knockout"


# --- RULES A10: condition tracks --------------------------------------------------------------


def test_a10_five_independent_tracks_step_and_stay_within_bounds() -> None:
    assert list(Track) == [
        Track.INJURY,
        Track.COMBAT_ADVANTAGE,
        Track.ACTION,
        Track.CHECK,
        Track.MOVEMENT,
    ]
    hurt = step(Conditions(), track=Track.INJURY, by=2)
    assert (hurt.injury, hurt.movement) == (2, 0)
    assert hurt.name(Track.INJURY) == DEFAULT_TRACKS[Track.INJURY].steps[2]
    worst = step(hurt, track=Track.INJURY, by=99)
    assert worst.injury == len(DEFAULT_TRACKS[Track.INJURY].steps) - 1
    assert step(worst, track=Track.INJURY, by=-99).injury == 0


def test_a10_tracks_load_from_data() -> None:
    data = {track.value: ["fine", "shaken", "down"] for track in Track}
    tracks = load_tracks(data)
    moved = step(Conditions(), track=Track.MOVEMENT, by=5, tracks=tracks)
    assert moved.name(Track.MOVEMENT, tracks=tracks) == "down"
    with pytest.raises(ValueError):
        load_tracks({"injury": ["a", "b"]})


def test_a10_recovery_cadence_per_track() -> None:
    assert RECOVERY[Track.INJURY] is Recovery.REST_OR_CARE
    assert RECOVERY[Track.COMBAT_ADVANTAGE] is Recovery.ACTION_AND_OPPOSED_CHECK
    assert recovery_attempt_allowed(track=Track.ACTION, attempts_this_round=0)
    assert not recovery_attempt_allowed(track=Track.ACTION, attempts_this_round=1)
    assert not recovery_attempt_allowed(track=Track.INJURY, attempts_this_round=0)


# --- RULES A11: the round ---------------------------------------------------------------------


ATTACK = Activity(name="attack", cost=ActionCost.ONE)


def test_a11_two_actions_per_round_and_a_move_is_one() -> None:
    budget = spend(spend(RoundBudget(), activity=MOVE), activity=ATTACK)
    assert (budget.used, budget.left) == (2, 0)
    with pytest.raises(RoundBudgetExceeded) as caught:
        spend(budget, activity=MOVE)  # moving again after the attack would split the move
    assert caught.value.code == "round_no_actions_left"


def test_a11_two_action_activity_uses_the_whole_round() -> None:
    charge = Activity(name="charge", cost=ActionCost.TWO)
    assert spend(RoundBudget(), activity=charge).left == 0
    with pytest.raises(RoundBudgetExceeded):
        spend(spend(RoundBudget(), activity=MOVE), activity=charge)


def test_a11_free_actions_are_unlimited_unless_the_gm_limits_them() -> None:
    talk = Activity(name="talk", cost=ActionCost.FREE)
    budget = RoundBudget()
    for _ in range(10):
        budget = spend(budget, activity=talk)
    assert budget.left == 2
    limited = spend(RoundBudget(free_limit=1), activity=talk)
    with pytest.raises(RoundBudgetExceeded) as caught:
        spend(limited, activity=Activity(name="dodge", cost=ActionCost.REACTION))
    assert caught.value.code == "round_free_limit"
