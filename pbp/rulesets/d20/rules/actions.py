"""The round's action budget (RULES A11): two actions; a move is one action."""

from __future__ import annotations

from enum import StrEnum

from pbp.rulesets.d20.rules.errors import RoundBudgetExceeded
from pbp.values import frozen_value, replace

ACTIONS_PER_ROUND = 2


class ActionCost(StrEnum):
    """What an activity costs (the seed's action types)."""

    FREE = "free"
    REACTION = "reaction"
    ONE = "one"
    TWO = "two"

    @property
    def actions(self) -> int:
        """Actions spent: free actions and reactions spend none."""
        return {"one": 1, "two": 2}.get(self.value, 0)


@frozen_value
class Activity:
    """Something a character does in a round."""

    name: str
    cost: ActionCost
    is_move: bool = False


MOVE = Activity(name="move", cost=ActionCost.ONE, is_move=True)


@frozen_value
class RoundBudget:
    """What a character has done this round, and what is left."""

    actions: int = ACTIONS_PER_ROUND
    used: int = 0
    free_used: int = 0
    free_limit: int | None = None  # unlimited unless the GM limits free actions and reactions
    done: tuple[Activity, ...] = ()

    @property
    def left(self) -> int:
        """Actions still to spend this round."""
        return self.actions - self.used


def spend(budget: RoundBudget, *, activity: Activity) -> RoundBudget:
    """Add ``activity`` to the round, or raise :class:`RoundBudgetExceeded` (RULES A11).

    A move costs one action like any other, before or after the other action; a two-action
    activity uses the whole round; free actions and reactions cost nothing up to the GM's limit.
    """
    cost = activity.cost.actions
    if cost > budget.left:
        raise RoundBudgetExceeded(
            code="round_no_actions_left",
            detail=f"{activity.name} needs {cost} action(s), {budget.left} left",
        )
    free = 0 if cost else 1
    if free and budget.free_limit is not None and budget.free_used >= budget.free_limit:
        raise RoundBudgetExceeded(
            code="round_free_limit", detail=f"at most {budget.free_limit} free actions"
        )
    return replace(
        budget,
        used=budget.used + cost,
        free_used=budget.free_used + free,
        done=(*budget.done, activity),
    )
