"""Dice pools (RULES A8): retry a failed check with N d20 keep highest; negative pools."""

from __future__ import annotations

from pbp.rules.dice.source import Roller
from pbp.rulesets.d20.rules.checks import Check, CheckResult, Difficulty, resolve_check
from pbp.rulesets.d20.rules.errors import PoolNotUsable
from pbp.values import frozen_value


@frozen_value
class DicePool:
    """A character's dice pool. A negative size is a negative pool (taint) of that many dice."""

    size: int

    @property
    def negative(self) -> bool:
        """Whether this is a harmful pool, rolled keep-lowest."""
        return self.size < 0

    @property
    def dice(self) -> int:
        """How many d20 the pool rolls."""
        return abs(self.size)


@frozen_value
class PoolRoll:
    """A pool roll: every d20, the one kept, the check it made, the pool before and after."""

    dice: tuple[int, ...]
    kept: int
    result: CheckResult
    pool_before: DicePool
    pool_after: DicePool


def roll_pool(*, pool: DicePool, roller: Roller) -> tuple[tuple[int, ...], int]:
    """Roll the pool's d20s; the kept die is the highest, or the lowest for a negative pool.

    For checks the helpers below do not cover (an opposed check retried with a pool).
    """
    if pool.size == 0:
        raise PoolNotUsable(code="pool_empty", detail="a pool of 0 cannot be used")
    dice = tuple(roller.roll(20) for _ in range(pool.dice))
    return dice, min(dice) if pool.negative else max(dice)


def retry_with_pool(*, failed: CheckResult, pool: DicePool, roller: Roller) -> PoolRoll:
    """Retry a failed check once with the pool (RULES A8).

    Roll N d20 (N = the pool's size), keep the highest, add the same modifiers against the same
    DC; the pool then loses one die whatever the result. A pool of 0 (or a negative pool)
    cannot be used, and a check that succeeded cannot be retried.
    """
    if failed.outcome != "failure":
        raise PoolNotUsable(code="pool_needs_failed_check", detail="only a failed check retries")
    if pool.size <= 0:
        raise PoolNotUsable(code="pool_empty", detail=f"a pool of {pool.size} cannot be used")
    dice, kept = roll_pool(pool=pool, roller=roller)
    result = resolve_check(check=failed.check, dc=failed.difficulty, roll=kept)
    return PoolRoll(
        dice=dice,
        kept=kept,
        result=result,
        pool_before=pool,
        pool_after=DicePool(size=pool.size - 1),  # RULES A8: one die lost whatever the result
    )


def roll_negative_pool(*, check: Check, dc: Difficulty, pool: DicePool, roller: Roller) -> PoolRoll:
    """A check under a negative pool: N d20, keep the lowest as the die (RULES A8).

    The pool does not shrink by use.
    """
    if not pool.negative:
        raise PoolNotUsable(code="pool_not_negative", detail=f"a pool of {pool.size} is no harm")
    dice, kept = roll_pool(pool=pool, roller=roller)
    result = resolve_check(check=check, dc=dc, roll=kept)
    return PoolRoll(dice=dice, kept=kept, result=result, pool_before=pool, pool_after=pool)
