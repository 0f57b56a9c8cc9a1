"""DC checks: d20 + modifiers vs a Difficulty Class, and checks without rolls (seed 002)."""

from __future__ import annotations

from dataclasses import field
from enum import StrEnum
from typing import Literal

from pbp.rules.dice.source import Roller
from pbp.rulesets.d20.rules.errors import TakeNotAllowed
from pbp.rulesets.d20.rules.results import Modifier, Outcome, Reason, outcome_of
from pbp.values import frozen_value

Take = Literal[1, 10, 20]


class Tools(StrEnum):
    """What the character works with on a task that needs tools (RULES A7)."""

    PROPER = "proper"
    IMPROVISED = "improvised"
    NONE = "none"


# RULES A7: no tools −5, improvised tools −2; the Improvised Tools feat removes the penalty.
TOOLS_PENALTY: dict[Tools, int] = {Tools.PROPER: 0, Tools.IMPROVISED: -2, Tools.NONE: -5}


def tools_modifier(*, tools: Tools, improvised_tools_feat: bool = False) -> int:
    """The check modifier for working with ``tools`` (RULES A7)."""
    return 0 if improvised_tools_feat else TOOLS_PENALTY[tools]


@frozen_value
class Check:
    """What is added to the d20: the written bonus and the modifiers the rules add to it.

    ``condition`` is the GM's modifier to the *check* (RULES A6: kept apart from a change of the
    DC), ``aid`` the helpers' bonus (RULES A5).
    """

    bonus: int
    condition: int = 0
    tools: Tools = Tools.PROPER
    improvised_tools_feat: bool = False
    aid: int = 0

    @property
    def modifiers(self) -> tuple[Modifier, ...]:
        """The named parts: the bonus always, the others when they are not zero."""
        tools = tools_modifier(tools=self.tools, improvised_tools_feat=self.improvised_tools_feat)
        parts = [
            Modifier(name="bonus", value=self.bonus),
            Modifier(name="condition", value=self.condition),
            Modifier(name="tools", value=tools),
            Modifier(name="aid", value=self.aid),
        ]
        return tuple(part for part in parts if part.name == "bonus" or part.value)

    @property
    def total_modifier(self) -> int:
        """Everything added to the d20 (RULES A1 compares this on a tie)."""
        return sum(part.value for part in self.modifiers)


@frozen_value
class Difficulty:
    """A DC: the base the GM or the rules set, and the GM's condition change (RULES A6)."""

    base: int
    condition: int = 0

    @property
    def value(self) -> int:
        """The DC the total must meet or beat."""
        return self.base + self.condition


@frozen_value
class Situation:
    """What the GM says about the circumstances, for checks without rolls (RULES A4)."""

    pressure: bool = False  # distracted or threatened, e.g. in combat
    skill_mastery: bool = False  # Skill Mastery covers this skill
    failure_has_penalty: bool = False  # failing costs something (an alarm, a fall)
    time_allows: bool = True  # time for twenty tries


@frozen_value
class CheckResult:
    """A resolved DC check with every number. ``roll`` is None when the die was taken."""

    check: Check
    difficulty: Difficulty
    roll: int | None
    taken: Take | None
    modifier: int
    total: int
    dc: int
    outcome: Outcome
    reason: Reason
    modifiers: tuple[Modifier, ...] = field(default=())

    @property
    def margin(self) -> int:
        """How far the total is above (or below, negative) the DC."""
        return self.total - self.dc


def resolve_check(*, check: Check, dc: Difficulty, roll: int) -> CheckResult:
    """A DC check with an already-rolled d20 (RULES A2: meet or beat; naturals do not matter)."""
    if not 1 <= roll <= 20:
        raise ValueError(f"a d20 shows 1 to 20, not {roll}")
    return _result(check=check, dc=dc, die=roll, taken=None)


def roll_check(*, check: Check, dc: Difficulty, roller: Roller) -> CheckResult:
    """Roll d20 + modifiers against ``dc`` (RULES A2)."""
    return resolve_check(check=check, dc=dc, roll=roller.roll(20))


def take_check(*, check: Check, dc: Difficulty, take: Take, situation: Situation) -> CheckResult:
    """A check without a roll: the result is the modifier + ``take`` (RULES A3, A4).

    Raises :class:`TakeNotAllowed` when the rules forbid it here.
    """
    refuse_take(take=take, situation=situation, check=check, dc=dc)
    return _result(check=check, dc=dc, die=take, taken=take)


def refuse_take(
    *, take: Take, situation: Situation, check: Check, dc: Difficulty | None, opposed: bool = False
) -> None:
    """Raise :class:`TakeNotAllowed` if ``take`` is not allowed; return when it is."""
    match take:
        case 1:
            # RULES A3: only when the bonus alone meets DC − 1; allowed even under pressure.
            if opposed or dc is None:
                _refuse(take, "take_1_needs_dc", "take 1 needs a DC, not an opponent")
            elif check.total_modifier < dc.value - 1:
                _refuse(take, "take_1_bonus_too_low", f"take 1 needs a bonus of {dc.value - 1}")
        case 10:
            # RULES A4: not under pressure, unless Skill Mastery covers the skill.
            if situation.pressure and not situation.skill_mastery:
                _refuse(take, "take_10_under_pressure", "take 10 is not allowed under pressure")
        case 20:
            # RULES A4: never opposed; only with no penalty for failure and time to spare.
            if opposed:
                _refuse(take, "take_20_opposed", "take 20 is never allowed on an opposed check")
            if situation.failure_has_penalty:
                _refuse(take, "take_20_penalty", "take 20 needs a task with no penalty to fail")
            if not situation.time_allows or situation.pressure:
                _refuse(take, "take_20_no_time", "take 20 needs time for twenty tries")


def _refuse(take: int, code: str, detail: str) -> None:
    raise TakeNotAllowed(take=take, code=code, detail=detail)


def _result(*, check: Check, dc: Difficulty, die: int, taken: Take | None) -> CheckResult:
    total = die + check.total_modifier
    success = total >= dc.value  # RULES A2: meet or beat
    reason = Reason.MET_DC if success else Reason.BELOW_DC
    if taken == 1:
        reason = Reason.TAKE_1
    return CheckResult(
        check=check,
        difficulty=dc,
        roll=None if taken else die,
        taken=taken,
        modifier=check.total_modifier,
        total=total,
        dc=dc.value,
        outcome=outcome_of(success),
        reason=reason,
        modifiers=check.modifiers,
    )
