"""Hitpoints and Willpower: skirmish and battle pools, damage, casting, healing (RULES M1–M3)."""

from __future__ import annotations

from pbp.rulesets.markhor.rules.errors import PoolRefused
from pbp.values import frozen_value, replace

# The Hitpoints and Willpower page: full HP = 12 + 3×Vigor, full WP = 12 + 3×Fortitude, each at
# least 3. A sheet that gives no value is read with Vigor/Fortitude unknown, i.e. as 0 → 12.
DEFAULT_BATTLE_POOL = 12
MIN_BATTLE_POOL = 3
# RULES M1: every entity stays in a skirmish for at least one hit.
MIN_SKIRMISH_POOL = 1


@frozen_value
class Pools:
    """An entity's Hitpoints and Willpower (skirmish or battle values); never negative."""

    hp: int
    wp: int

    def __post_init__(self) -> None:
        if self.hp < 0 or self.wp < 0:
            raise ValueError(f"HP and WP cannot be negative (hp={self.hp}, wp={self.wp})")

    @property
    def out(self) -> bool:
        """Out of combat: all HP and all WP exhausted (RULES M2)."""
        return self.hp == 0 and self.wp == 0

    @property
    def total(self) -> int:
        """HP plus WP: how many skirmish hits the entity can still take."""
        return self.hp + self.wp

    @property
    def can_cast(self) -> bool:
        """Whether a cast can be paid for (RULES M2: 1 WP each)."""
        return self.wp > 0


@frozen_value
class SkirmishFormula:
    """How scores become skirmish pools: ``max(minimum, per_point × score)`` (RULES M1 makes
    the formula a per-campaign setting; its reading is the default, 1 and 1)."""

    minimum: int = MIN_SKIRMISH_POOL
    per_point: int = 1

    def pool(self, score: int) -> int:
        """The pool a score gives."""
        return max(self.minimum, self.per_point * score)


def skirmish_pools(
    *, constitution: int, wisdom: int, formula: SkirmishFormula = SkirmishFormula()
) -> Pools:
    """Skirmish HP and WP from the Constitution and Wisdom scores (RULES M1).

    By default HP = max(1, Constitution), WP = max(1, Wisdom): a score of +3 gives 3, a score
    of 0 or below gives 1.
    """
    return Pools(hp=formula.pool(constitution), wp=formula.pool(wisdom))


def battle_pools(*, hp: int | None, wp: int | None) -> Pools:
    """A battle's full HP and WP: the sheet's real values (RULES M8).

    A missing value is 12 (the Hitpoints page's 12 + 3×Vigor with Vigor unknown, likewise
    Fortitude for WP); each is at least 3, as that page says.
    """

    def full(value: int | None) -> int:
        return max(MIN_BATTLE_POOL, DEFAULT_BATTLE_POOL if value is None else value)

    return Pools(hp=full(hp), wp=full(wp))


def take_damage(pools: Pools, *, amount: int = 1) -> Pools:
    """Take ``amount`` skirmish damage: HP first, then WP once HP is 0 (RULES M2).

    Nothing goes below 0; damage to an entity already out changes nothing.
    """
    if amount < 0:
        raise ValueError(f"damage cannot be negative ({amount})")
    from_hp = min(amount, pools.hp)
    # RULES M2: damage spills into WP, or a caster with WP left could never be taken out
    from_wp = min(amount - from_hp, pools.wp)
    return Pools(hp=pools.hp - from_hp, wp=pools.wp - from_wp)


def cast_cost(pools: Pools) -> Pools:
    """Pay for one cast: 1 WP (RULES M2). Raises :class:`PoolRefused` at 0 WP."""
    if not pools.can_cast:
        raise PoolRefused(code="no_wp_to_cast", detail=f"WP {pools.wp}, a cast costs 1")
    return replace(pools, wp=pools.wp - 1)


def heal(pools: Pools, *, full: Pools) -> Pools:
    """Restore all HP (not WP) up to ``full.hp`` (RULES M3).

    Raises :class:`PoolRefused` when the entity is out: out is permanent for that skirmish.
    Healing never lowers HP that a correction has put above full.
    """
    if pools.out:
        raise PoolRefused(code="out_cannot_heal", detail="out of this skirmish for good")
    return replace(pools, hp=max(pools.hp, full.hp))


def heal_by(pools: Pools, *, full: Pools, amount: int) -> Pools:
    """Restore ``amount`` HP, up to ``full.hp`` (a battle heal: RULES §6, the amount from the
    tag). Raises :class:`PoolRefused` when the entity is out, as :func:`heal` does."""
    if amount < 0:
        raise ValueError(f"a heal cannot be negative ({amount})")
    if pools.out:
        raise PoolRefused(code="out_cannot_heal", detail="out of this fight for good")
    return replace(pools, hp=max(pools.hp, min(pools.hp + amount, full.hp)))
