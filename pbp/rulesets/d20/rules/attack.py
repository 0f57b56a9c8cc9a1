"""Attack rolls: d20 + attack bonus vs Defense; naturals matter here only (RULES A2)."""

from __future__ import annotations

from pbp.rules.dice.source import Roller
from pbp.rulesets.d20.rules.checks import Check, Difficulty
from pbp.rulesets.d20.rules.results import Modifier, Outcome, Reason, outcome_of
from pbp.values import frozen_value


@frozen_value
class AttackResult:
    """An attack roll with every number; ``critical_threat`` on a natural 20."""

    roll: int
    modifier: int
    modifiers: tuple[Modifier, ...]
    total: int
    dc: int
    outcome: Outcome
    reason: Reason
    critical_threat: bool


def resolve_attack(*, attack: Check, defense: Difficulty, roll: int) -> AttackResult:
    """An attack with an already-rolled d20.

    RULES A2 / seed: total >= Defense hits; a natural 20 always hits and threatens a critical,
    a natural 1 always misses, whatever the total.
    """
    if not 1 <= roll <= 20:
        raise ValueError(f"a d20 shows 1 to 20, not {roll}")
    total = roll + attack.total_modifier
    match roll:
        case 20:
            hit, reason = True, Reason.NATURAL_20
        case 1:
            hit, reason = False, Reason.NATURAL_1
        case _:
            hit = total >= defense.value
            reason = Reason.MET_DC if hit else Reason.BELOW_DC
    return AttackResult(
        roll=roll,
        modifier=attack.total_modifier,
        modifiers=attack.modifiers,
        total=total,
        dc=defense.value,
        outcome=outcome_of(hit),
        reason=reason,
        critical_threat=roll == 20,
    )


def roll_attack(*, attack: Check, defense: Difficulty, roller: Roller) -> AttackResult:
    """Roll an attack: d20 + attack bonus against the target's Defense."""
    return resolve_attack(attack=attack, defense=defense, roll=roller.roll(20))
