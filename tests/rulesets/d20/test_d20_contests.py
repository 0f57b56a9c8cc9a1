"""Opposed checks (RULES A1), comparison checks (A12), aid another (A5) and attack rolls."""

from __future__ import annotations

import pytest
from scripted_dice import ScriptedDice, ScriptedDiceError

from pbp.rules.dice.source import Roller
from pbp.rulesets.d20.rules.aid import aid_bonus, resolve_aid, roll_aid, total_aid
from pbp.rulesets.d20.rules.attack import roll_attack
from pbp.rulesets.d20.rules.checks import Check, Difficulty, Situation, roll_check
from pbp.rulesets.d20.rules.errors import D20Error, TakeNotAllowed
from pbp.rulesets.d20.rules.opposed import OpposedSide, compare_scores, opposed_check
from pbp.rulesets.d20.rules.results import Reason


def rolls(*values: int) -> Roller:
    return ScriptedDice(list(values)).for_key("p1", 0)


# --- RULES A1: opposed checks -----------------------------------------------------------------


def test_a1_opposed_higher_total_wins() -> None:
    result = opposed_check(
        initiator=OpposedSide(check=Check(bonus=7)),
        opponent=OpposedSide(check=Check(bonus=3)),
        roller=rolls(8, 11),
    )
    assert (result.initiator.roll, result.initiator.total) == (8, 15)
    assert (result.opponent.roll, result.opponent.total) == (11, 14)
    assert (result.winner, result.outcome, result.reason) == (
        "initiator",
        "success",
        Reason.HIGHER_TOTAL,
    )
    assert result.tie_roll is None


def test_a1_opposed_tie_goes_to_the_higher_total_modifier() -> None:
    # Equal totals 15: the opponent's +3 with a +2 condition (5) beats the initiator's +4.
    result = opposed_check(
        initiator=OpposedSide(check=Check(bonus=4)),
        opponent=OpposedSide(check=Check(bonus=3, condition=2)),
        roller=rolls(11, 10),
    )
    assert result.initiator.total == result.opponent.total == 15
    assert (result.winner, result.outcome, result.reason) == (
        "opponent",
        "failure",
        Reason.HIGHER_MODIFIER,
    )


@pytest.mark.parametrize(
    ("tie_roll", "winner"),
    [(1, "initiator"), (10, "initiator"), (11, "opponent"), (20, "opponent")],
)
def test_a1_opposed_equal_totals_and_modifiers_roll_fifty_fifty(tie_roll: int, winner: str) -> None:
    result = opposed_check(
        initiator=OpposedSide(check=Check(bonus=5)),
        opponent=OpposedSide(check=Check(bonus=5)),
        roller=rolls(9, 9, tie_roll),
    )
    assert (result.winner, result.reason, result.tie_roll) == (winner, Reason.TIE_ROLL, tie_roll)


def test_a1_opposed_check_does_not_favour_the_initiator_or_defender() -> None:
    # Swapping the sides swaps the winner: nobody wins a tie for being first.
    a, b = OpposedSide(check=Check(bonus=2)), OpposedSide(check=Check(bonus=6))
    forward = opposed_check(initiator=a, opponent=b, roller=rolls(14, 10))
    backward = opposed_check(initiator=b, opponent=a, roller=rolls(10, 14))
    assert forward.winner == "opponent"
    assert backward.winner == "initiator"


def test_a4_opposed_passive_side_may_take_10_but_never_20() -> None:
    result = opposed_check(
        initiator=OpposedSide(check=Check(bonus=7)),
        opponent=OpposedSide(check=Check(bonus=3), take=10),
        roller=rolls(5),
    )
    assert (result.opponent.roll, result.opponent.taken, result.opponent.total) == (None, 10, 13)
    assert result.outcome == "failure"
    with pytest.raises(TakeNotAllowed) as caught:
        opposed_check(
            initiator=OpposedSide(check=Check(bonus=7), take=20),
            opponent=OpposedSide(check=Check(bonus=3)),
            roller=rolls(),
        )
    assert caught.value.code == "take_20_opposed"
    with pytest.raises(TakeNotAllowed):
        opposed_check(
            initiator=OpposedSide(
                check=Check(bonus=7), take=10, situation=Situation(pressure=True)
            ),
            opponent=OpposedSide(check=Check(bonus=3)),
            roller=rolls(),
        )


# --- RULES A12: comparison checks -------------------------------------------------------------


def test_a12_comparison_higher_score_wins_without_a_roll() -> None:
    result = compare_scores(first=4, second=6, roller=rolls())  # no die: an empty script
    assert (result.winner, result.outcome, result.reason, result.tie_roll) == (
        "second",
        "failure",
        Reason.HIGHER_SCORE,
        None,
    )


def test_a12_comparison_boost_raises_a_score() -> None:
    result = compare_scores(first=4, second=6, first_boost=3, roller=rolls())
    assert (result.first_score, result.second_score, result.winner) == (7, 6, "first")


@pytest.mark.parametrize(("tie_roll", "winner"), [(10, "first"), (11, "second")])
def test_a12_comparison_equal_scores_roll_fifty_fifty(tie_roll: int, winner: str) -> None:
    result = compare_scores(first=5, second=5, roller=rolls(tie_roll))
    assert (result.winner, result.reason, result.tie_roll) == (winner, Reason.TIE_ROLL, tie_roll)


# --- RULES A5: aid another --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("result", "bonus"),
    [(9, 0), (10, 2), (19, 2), (20, 3), (29, 3), (30, 4), (39, 4), (40, 5), (-3, 0)],
)
def test_a5_aid_bonus_is_two_plus_one_per_full_ten_over_dc_10(result: int, bonus: int) -> None:
    assert aid_bonus(result) == bonus


def test_a5_worked_example_helpers_stack_to_leader_d20_plus_12() -> None:
    # RULES A5: leader +7 vs DC 25; helpers' results 14 (+2), 23 (+3), 8 (0) → d20 + 12.
    helpers = [
        roll_aid(helper=Check(bonus=4), roller=rolls(10)),  # 14
        roll_aid(helper=Check(bonus=5), roller=rolls(18)),  # 23
        roll_aid(helper=Check(bonus=3), roller=rolls(5)),  # 8
    ]
    assert [h.result.total for h in helpers] == [14, 23, 8]
    assert [h.bonus for h in helpers] == [2, 3, 0]
    assert [h.result.outcome for h in helpers] == ["success", "success", "failure"]
    assert all(h.result.dc == 10 for h in helpers)
    aid = total_aid(helpers)
    leader = roll_check(check=Check(bonus=7, aid=aid), dc=Difficulty(base=25), roller=rolls(13))
    assert (leader.modifier, leader.total, leader.outcome) == (12, 25, "success")


def test_a5_gm_may_limit_the_number_of_helpers() -> None:
    helpers = [resolve_aid(helper=Check(bonus=5), roll=10) for _ in range(3)]
    assert total_aid(helpers, max_helpers=3) == 6  # three results of 15: +2 each
    with pytest.raises(D20Error) as caught:
        total_aid(helpers, max_helpers=2)
    assert caught.value.code == "too_many_helpers"


def test_a5_helpers_always_roll() -> None:
    # No take 10 for a helper: aid asks the roller, so an empty script fails loudly.
    with pytest.raises(ScriptedDiceError):
        roll_aid(helper=Check(bonus=20), roller=rolls())


# --- Attack rolls (RULES A2: naturals matter only here) ----------------------------------------


def test_attack_hits_when_total_meets_defense() -> None:
    hit = roll_attack(attack=Check(bonus=6), defense=Difficulty(base=15), roller=rolls(9))
    assert (hit.roll, hit.total, hit.dc, hit.outcome, hit.reason) == (
        9,
        15,
        15,
        "success",
        Reason.MET_DC,
    )
    miss = roll_attack(attack=Check(bonus=6), defense=Difficulty(base=15), roller=rolls(8))
    assert (miss.outcome, miss.critical_threat) == ("failure", False)


def test_attack_natural_20_always_hits_and_threatens_a_critical() -> None:
    result = roll_attack(attack=Check(bonus=0), defense=Difficulty(base=40), roller=rolls(20))
    assert (result.outcome, result.reason, result.critical_threat) == (
        "success",
        Reason.NATURAL_20,
        True,
    )


def test_attack_natural_1_always_misses() -> None:
    result = roll_attack(attack=Check(bonus=30), defense=Difficulty(base=10), roller=rolls(1))
    assert (result.total, result.outcome, result.reason) == (31, "failure", Reason.NATURAL_1)
