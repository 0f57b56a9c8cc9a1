"""Opposed checks (RULES A1) and comparison checks (RULES A12)."""

from __future__ import annotations

from dataclasses import field
from typing import Literal

from pbp.rules.dice.source import Roller
from pbp.rulesets.d20.rules.checks import Check, Situation, Take, refuse_take
from pbp.rulesets.d20.rules.results import Modifier, Outcome, Reason, outcome_of
from pbp.values import frozen_value

Winner = Literal["first", "second"]


def fifty_fifty(roller: Roller) -> tuple[int, Winner]:
    """The seed's even chance: roll d20, 1–10 the first side wins, 11–20 the second.

    "High" and "low" are fixed before rolling: the first side (the initiator) is always low.
    """
    roll = roller.roll(20)
    return roll, "first" if roll <= 10 else "second"


@frozen_value
class OpposedSide:
    """One side of an opposed check. ``take`` 10 is how a passive side (a Resistance) checks."""

    check: Check
    take: Take | None = None
    situation: Situation = field(default_factory=Situation)


@frozen_value
class SideResult:
    """One side's numbers: the d20 (None when taken), the modifier and the total."""

    roll: int | None
    taken: Take | None
    modifier: int
    modifiers: tuple[Modifier, ...]
    total: int


@frozen_value
class OpposedResult:
    """Both sides, who won and why; ``outcome`` is the initiator's."""

    initiator: SideResult
    opponent: SideResult
    winner: Literal["initiator", "opponent"]
    outcome: Outcome
    reason: Reason
    tie_roll: int | None


def opposed_check(
    *, initiator: OpposedSide, opponent: OpposedSide, roller: Roller
) -> OpposedResult:
    """Both sides roll (initiator first); the higher total wins (RULES A1).

    Ties: the higher total modifier wins; equal modifiers → a 50/50 d20 (1–10 the initiator).
    No side is favoured for being the initiator or the defender. Raises ``TakeNotAllowed``
    for take 1 or take 20 (RULES A4: never on an opposed check) and for take 10 under pressure.
    """
    first = _side(initiator, roller)
    second = _side(opponent, roller)
    # RULES A1: higher total, then higher total modifier, then an even chance.
    if first.total != second.total:
        won, reason, tie_roll = first.total > second.total, Reason.HIGHER_TOTAL, None
    elif first.modifier != second.modifier:
        won, reason, tie_roll = first.modifier > second.modifier, Reason.HIGHER_MODIFIER, None
    else:
        tie_roll, winner = fifty_fifty(roller)
        won, reason = winner == "first", Reason.TIE_ROLL
    return OpposedResult(
        initiator=first,
        opponent=second,
        winner="initiator" if won else "opponent",
        outcome=outcome_of(won),
        reason=reason,
        tie_roll=tie_roll,
    )


def _side(side: OpposedSide, roller: Roller) -> SideResult:
    check = side.check
    if side.take is not None:
        refuse_take(take=side.take, situation=side.situation, check=check, dc=None, opposed=True)
    die = side.take if side.take is not None else roller.roll(20)
    return SideResult(
        roll=None if side.take is not None else die,
        taken=side.take,
        modifier=check.total_modifier,
        modifiers=check.modifiers,
        total=die + check.total_modifier,
    )


@frozen_value
class ComparisonResult:
    """A comparison check: each score (boosts included), who won and why."""

    first_score: int
    second_score: int
    winner: Winner
    outcome: Outcome  # the first side's
    reason: Reason
    tie_roll: int | None


def compare_scores(
    *, first: int, second: int, roller: Roller, first_boost: int = 0, second_boost: int = 0
) -> ComparisonResult:
    """No roll: the higher score wins; equal scores → a 50/50 d20 (RULES A12).

    ``*_boost`` is a temporary raise of the score (Hero Dice, whose rules were not found:
    entered by hand). The roller is used only on a tie.
    """
    a, b = first + first_boost, second + second_boost
    if a != b:
        winner: Winner = "first" if a > b else "second"
        tie_roll, reason = None, Reason.HIGHER_SCORE
    else:
        (tie_roll, winner), reason = fifty_fifty(roller), Reason.TIE_ROLL
    return ComparisonResult(
        first_score=a,
        second_score=b,
        winner=winner,
        outcome=outcome_of(winner == "first"),
        reason=reason,
        tie_roll=tie_roll,
    )
