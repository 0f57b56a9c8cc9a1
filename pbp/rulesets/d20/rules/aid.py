"""Aid another (RULES A5): helpers check against DC 10 and add a stacking bonus to the leader."""

from __future__ import annotations

from collections.abc import Iterable

from pbp.rules.dice.source import Roller
from pbp.rulesets.d20.rules.checks import Check, CheckResult, Difficulty, resolve_check
from pbp.rulesets.d20.rules.errors import D20Error
from pbp.values import frozen_value

AID_DC = 10


def aid_bonus(result: int) -> int:
    """The leader's bonus from one helper's check result (RULES A5).

    Below 10 gives nothing; 10–19 gives +2, and each further full 10 points +1 (20–29: +3).
    """
    if result < AID_DC:
        return 0
    return 2 + (result - AID_DC) // 10


@frozen_value
class AidResult:
    """One helper's check against DC 10 and the bonus it grants."""

    result: CheckResult
    bonus: int


def resolve_aid(*, helper: Check, roll: int) -> AidResult:
    """A helper's check with an already-rolled d20. Helpers always roll: no take 10 (RULES A5)."""
    result = resolve_check(check=helper, dc=Difficulty(base=AID_DC), roll=roll)
    return AidResult(result=result, bonus=aid_bonus(result.total))


def roll_aid(*, helper: Check, roller: Roller) -> AidResult:
    """Roll a helper's check against DC 10 (RULES A5)."""
    return resolve_aid(helper=helper, roll=roller.roll(20))


def total_aid(helpers: Iterable[AidResult], *, max_helpers: int | None = None) -> int:
    """The helpers' bonuses added up: they stack (RULES A5). The GM may cap the helpers."""
    helpers = tuple(helpers)
    if max_helpers is not None and len(helpers) > max_helpers:
        raise D20Error(
            code="too_many_helpers", detail=f"{len(helpers)} helpers, at most {max_helpers}"
        )
    return sum(helper.bonus for helper in helpers)
