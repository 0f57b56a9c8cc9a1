"""What resolving an intent produced: one record per check, in order."""

from __future__ import annotations

from typing import Literal

from pbp.rulesets.distat.rules.effects import Effect
from pbp.rulesets.distat.rules.intents import Stat
from pbp.rulesets.distat.rules.violations import Violation
from pbp.values import frozen_value

Verb = Literal["physical", "mental", "move", "identify", "pass"]
Outcome = Literal["success", "failure", "void"]


@frozen_value
class Damage:
    """Damage points dealt to one stat of one character."""

    character: str
    stat: Stat
    amount: int


@frozen_value
class CheckRecord:
    """One resolved check (or a move or pass that needed none).

    ``active`` and ``passive`` are the numbers compared, every modifier included (a stat check
    or an Identify: ``passive`` is the target number). ``reason`` says why a record is void.
    """

    actor: str
    verb: Verb
    maneuver: str | None
    target: str | None
    stat: Stat | None
    active: int | None
    passive: int | None
    outcome: Outcome
    damage: tuple[Damage, ...] = ()
    reason: Violation | None = None
    talent: str | None = None
    effects: tuple[Effect, ...] = ()
    against: str | None = None  # whose number ``passive`` is, when not the target's (a threat)
