"""The interval's skill roll and its action dice (RULES E1–E3, seed 000).

One d20 (the skill roll, or an unmodified d20 for five spell slots), a result, a number of
action dice, and those d6s rolled. Rolls come only from a :class:`Roller`.

Hostile input: a modifier of +100000 would ask for 20000 dice. :data:`MAX_DICE` is a hard cap
on one pool; :func:`dice_count` raises ``ValueError`` beyond it, before any d6 is rolled.
:data:`MAX_MODIFIER` is the largest modifier that stays within the cap even on a natural 20
with the smallest divisor (5), so a caller that refuses bigger modifiers never meets the error.
"""

from __future__ import annotations

from pbp.rules.dice.source import Roller
from pbp.values import frozen_value

# RULES E1, E3: the proper skill (and five spell slots) divide by 5, a bailiwick by 10,
# another skill the GM allowed by 12.
DIVISORS: dict[str, int] = {"skill": 5, "bailiwick": 10, "other": 12, "spell": 5}

MIN_DICE = 2  # RULES E1: "no matter how poorly you roll"
MAX_DICE = 60  # hard cap on one pool (ARCHITECTURE practice 5: the core enforces its limits)
NATURAL_20_BONUS = 5  # RULES E2

# The largest modifier with (20 + 5 + m) // 5 <= MAX_DICE: m = 5 * MAX_DICE + 4 - 25 = 279.
MAX_MODIFIER = DIVISORS["skill"] * MAX_DICE + (DIVISORS["skill"] - 1) - 20 - NATURAL_20_BONUS


@frozen_value
class SkillRoll:
    """One interval's d20: the die, the modifier used, the result, its divisor and dice count.

    For five spell slots the modifier is recorded as 0 (RULES E3: an unmodified d20).
    """

    roll: int
    modifier: int
    result: int
    divisor: int
    count: int


def _check_d20(roll: int) -> None:
    if not 1 <= roll <= 20:
        raise ValueError(f"a d20 shows 1 to 20, not {roll}")


def skill_result(*, roll: int, modifier: int) -> int:
    """The skill roll's result: d20 + modifier, +5 more on a natural 20.

    RULES E2: a natural 20 adds +5; a natural 1 has no extra effect (the roll has no DC of its
    own and the two-die minimum already covers a poor roll).
    """
    _check_d20(roll)
    bonus = NATURAL_20_BONUS if roll == 20 else 0
    return roll + modifier + bonus


def dice_count(*, result: int, divisor: int) -> int:
    """How many action dice a result gives: ``max(2, result // divisor)`` (RULES E1).

    Floor division, so a negative result still gives 2. Raises ``ValueError`` for a divisor
    below 1 or a count above :data:`MAX_DICE`.
    """
    if divisor < 1:
        raise ValueError(f"the divisor must be at least 1, not {divisor}")
    count = max(MIN_DICE, result // divisor)
    if count > MAX_DICE:
        raise ValueError(
            f"a result of {result} gives {count} action dice; at most {MAX_DICE} are rolled "
            f"(keep the modifier at or below +{MAX_MODIFIER})"
        )
    return count


def divisor_for(source: str) -> int:
    """The divisor of a source (``skill``, ``bailiwick``, ``other``, ``spell``); else ValueError."""
    try:
        return DIVISORS[source]
    except KeyError:
        known = ", ".join(sorted(DIVISORS))
        raise ValueError(f"unknown source {source!r}; expected one of {known}") from None


def count_for(*, roll: int, modifier: int, source: str) -> SkillRoll:
    """The :class:`SkillRoll` a d20 showing ``roll`` makes, without rolling anything.

    RULES E3: five spell slots roll an unmodified d20 (no modifier, no natural-20 bonus),
    divided by 5 with the usual minimum of 2.
    """
    divisor = divisor_for(source)
    if source == "spell":
        _check_d20(roll)
        modifier, result = 0, roll
    else:
        result = skill_result(roll=roll, modifier=modifier)
    count = dice_count(result=result, divisor=divisor)
    return SkillRoll(roll=roll, modifier=modifier, result=result, divisor=divisor, count=count)


def roll_action_dice(
    *, modifier: int, source: str, roller: Roller
) -> tuple[SkillRoll, tuple[int, ...]]:
    """Roll one interval's d20, then its action dice, in that order (RULES E1–E3).

    Returns the skill roll and the d6s in the order rolled. For ``source="spell"`` the
    modifier is ignored. Unknown source, or more than :data:`MAX_DICE` dice: ``ValueError``
    (an unknown source is refused before anything is rolled).
    """
    divisor_for(source)  # refuse an unknown source before the d20 is rolled
    skill = count_for(roll=roller.roll(20), modifier=modifier, source=source)
    dice = tuple(roller.roll(6) for _ in range(skill.count))
    return skill, dice
