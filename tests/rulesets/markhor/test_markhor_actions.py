"""Battle action points and reactions (RULES M7, the seed's Battle Turns, the Actions page)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction

import pytest

from pbp.rulesets.markhor.rules.actions import (
    Cost,
    TurnBudget,
    action_points,
    react,
    spend_on_turn,
    start_turn,
)
from pbp.rulesets.markhor.rules.errors import ActionRefused


@contextmanager
def refused(code: str) -> Iterator[None]:
    with pytest.raises(ActionRefused) as error:
        yield
    assert error.value.code == code


def test_action_points_are_stamina_plus_three_and_never_negative() -> None:
    assert action_points(stamina=2) == 5
    assert action_points(stamina=5) == 8
    assert action_points(stamina=-7) == 0


def test_action_costs_follow_the_actions_page() -> None:
    assert [(c.ap, c.as_reaction) for c in Cost] == [
        (Fraction(1), True),
        (Fraction(1), False),
        (Fraction(2), False),
        (Fraction(1, 2), True),
    ]


def test_a_turn_regains_all_ap_and_quick_actions_cost_half_a_point() -> None:
    budget = start_turn(TurnBudget(), stamina=0)
    budget = spend_on_turn(budget, Cost.GREAT)
    budget = spend_on_turn(budget, Cost.QUICK)
    assert budget.ap_left == Fraction(1, 2)
    with refused("ap_short"):
        spend_on_turn(budget, Cost.FULL)
    assert start_turn(budget, stamina=0).ap_left == 3


def test_at_most_six_ap_on_ones_own_turn_the_rest_for_reactions() -> None:
    budget = start_turn(TurnBudget(), stamina=5)  # 8 AP
    for _ in range(3):
        budget = spend_on_turn(budget, Cost.GREAT)
    assert budget.ap_left == 2
    with refused("turn_ap_cap"):
        spend_on_turn(budget, Cost.QUICK)
    budget = react(budget, Cost.STANDARD, turn=1)
    assert budget.ap_left == 1


# --- RULES M7 ---------------------------------------------------------------------------------


def test_m7_no_reaction_before_the_entitys_first_turn() -> None:
    with refused("reaction_before_first_turn"):
        react(TurnBudget(halves=6), Cost.STANDARD, turn=0)


def test_m7_unspent_ap_pay_for_one_reaction_per_other_turn() -> None:
    budget = spend_on_turn(start_turn(TurnBudget(), stamina=1, turn=0), Cost.STANDARD)  # 3 left
    budget = react(budget, Cost.STANDARD, turn=1)
    with refused("one_reaction_per_turn"):
        react(budget, Cost.QUICK, turn=1)
    budget = react(budget, Cost.QUICK, turn=2)
    assert budget.ap_left == Fraction(3, 2)
    with refused("reaction_on_own_turn"):
        react(budget, Cost.QUICK, turn=0)


def test_m7_only_standard_and_quick_actions_can_react() -> None:
    budget = start_turn(TurnBudget(), stamina=3, turn=0)
    for cost in (Cost.FULL, Cost.GREAT):
        with refused("not_as_reaction"):
            react(budget, cost, turn=1)


def test_m7_a_reaction_needs_ap_left() -> None:
    budget = spend_on_turn(start_turn(TurnBudget(), stamina=-1), Cost.GREAT)  # 0 left
    with refused("ap_short"):
        react(budget, Cost.QUICK, turn=1)


def test_m7_the_next_own_turn_clears_the_reaction_record() -> None:
    budget = react(start_turn(TurnBudget(), stamina=0, turn=0), Cost.STANDARD, turn=1)
    budget = start_turn(budget, stamina=0, turn=0)
    assert react(budget, Cost.STANDARD, turn=1).ap_left == 2
