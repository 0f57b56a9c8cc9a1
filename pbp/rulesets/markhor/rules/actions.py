"""Battle action points and reactions (RULES M7; the seed's Battle Turns; the Actions page).

AP are counted in half-points (ints) so that quick actions (0.5 AP) stay exact and the budget
stays plain, hashable, storable numbers; ``ap_left`` gives the value as a ``Fraction`` for
display.

The Actions page: "Action points are equal to a character's Stamina+3. Action points on your
turn cap out at 6. Additional action points beyond this may be used in Reactions." So an entity
regains Stamina + 3 AP at the start of its turn, may spend at most 6 of them on that turn, and
keeps whatever is unspent for reactions until its next turn.
"""

from __future__ import annotations

from enum import StrEnum
from fractions import Fraction

from pbp.rulesets.markhor.rules.errors import ActionRefused
from pbp.values import frozen_value, replace

BASE_AP = 3
TURN_CAP = 6  # AP an entity may spend on its own turn


class Cost(StrEnum):
    """The action types of the Actions page and what each costs."""

    STANDARD = "standard"  # 1 AP, on one's own turn or as a reaction
    FULL = "full"  # 1 AP, own turn only
    GREAT = "great"  # 2 AP, own turn only
    QUICK = "quick"  # 0.5 AP, either

    @property
    def halves(self) -> int:
        """The cost in half action points."""
        return _HALVES[self]

    @property
    def ap(self) -> Fraction:
        """The cost in action points (1/2 for a quick action)."""
        return Fraction(self.halves, 2)

    @property
    def as_reaction(self) -> bool:
        """Whether this action may be taken as a reaction (only standard and quick)."""
        return self in (Cost.STANDARD, Cost.QUICK)


_HALVES = {Cost.STANDARD: 2, Cost.FULL: 2, Cost.GREAT: 4, Cost.QUICK: 1}


def action_points(*, stamina: int) -> int:
    """The AP an entity regains at the start of its turn: Stamina + 3, never below 0.

    At most :data:`TURN_CAP` (6) of them can be spent on its own turn; any more are only for
    reactions (the Actions page).
    """
    return max(0, stamina + BASE_AP)


@frozen_value
class TurnBudget:
    """An entity's action points in a battle.

    ``halves`` is the AP left (in half-points), ``spent_on_turn`` the half-points spent on its
    current own turn (for the cap of 6), ``had_first_turn`` whether its first turn has begun,
    ``own_turn`` the turn it is taking or took last (when the engine says so), and
    ``last_reaction_turn`` the turn of its last reaction since then.
    """

    halves: int = 0
    spent_on_turn: int = 0
    had_first_turn: bool = False
    own_turn: int | None = None
    last_reaction_turn: int | None = None

    @property
    def ap_left(self) -> Fraction:
        """The AP left, e.g. ``Fraction(7, 2)`` for 3.5."""
        return Fraction(self.halves, 2)


def start_turn(budget: TurnBudget, *, stamina: int, turn: int | None = None) -> TurnBudget:
    """Begin the entity's turn: it regains all its AP (the seed's Battle Turns).

    ``turn`` optionally names this turn, so that :func:`react` refuses a reaction on it. The
    record of the last reaction is cleared: between two own turns every other turn comes once.
    """
    return TurnBudget(
        halves=2 * action_points(stamina=stamina),
        spent_on_turn=0,
        had_first_turn=True,
        own_turn=turn,
        last_reaction_turn=None,
    )


def spend_on_turn(budget: TurnBudget, cost: Cost) -> TurnBudget:
    """Spend AP on an action of the entity's own turn (every action type may be used there).

    Raises :class:`ActionRefused` ``ap_short`` when too few AP are left and ``turn_ap_cap``
    when the action would take the turn past 6 AP spent.
    """
    _check_affordable(budget, cost)
    if budget.spent_on_turn + cost.halves > 2 * TURN_CAP:
        raise ActionRefused(
            code="turn_ap_cap",
            detail=f"{cost.value} costs {cost.ap} AP; "
            f"{Fraction(budget.spent_on_turn, 2)} of {TURN_CAP} already spent this turn",
        )
    return replace(
        budget,
        halves=budget.halves - cost.halves,
        spent_on_turn=budget.spent_on_turn + cost.halves,
    )


def react(budget: TurnBudget, cost: Cost, *, turn: int) -> TurnBudget:
    """Spend unspent AP on a reaction during another entity's turn ``turn`` (RULES M7).

    Refused (:class:`ActionRefused`) before the entity's first turn, on its own turn, for a
    second reaction in the same turn, for an action type that cannot react (full, great), and
    when too few AP are left. ``turn`` identifies the turn: a running turn count, or the
    turn's index in the round (the record is cleared at each own turn).
    """
    if not budget.had_first_turn:
        raise ActionRefused(code="reaction_before_first_turn", detail="no turn taken yet")
    if budget.own_turn is not None and turn == budget.own_turn:
        raise ActionRefused(code="reaction_on_own_turn", detail=f"turn {turn} is its own")
    if budget.last_reaction_turn == turn:
        raise ActionRefused(code="one_reaction_per_turn", detail=f"already reacted in turn {turn}")
    if not cost.as_reaction:
        raise ActionRefused(code="not_as_reaction", detail=f"a {cost.value} action")
    _check_affordable(budget, cost)
    return replace(budget, halves=budget.halves - cost.halves, last_reaction_turn=turn)


def _check_affordable(budget: TurnBudget, cost: Cost) -> None:
    if cost.halves > budget.halves:
        raise ActionRefused(
            code="ap_short", detail=f"{cost.value} costs {cost.ap} AP, {budget.ap_left} left"
        )
