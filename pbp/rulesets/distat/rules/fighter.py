"""A character's Distat state and the values that follow from it alone (RULES D1, D2, D5, D6)."""

from __future__ import annotations

from typing import Literal

from pbp.rulesets.distat.rules.intents import Stat
from pbp.rulesets.distat.rules.talents import Talent, always_on, count
from pbp.values import frozen_value, replace

Status = Literal["active", "zeroed", "out"]


@frozen_value
class Restraint:
    """A restraint on a character (RULES D9).

    ``rounds`` counts the rounds it holds, the current one included, if the restrained
    character still takes a turn after it this round; ``pending`` is True while it has not
    (then the restraint also covers the whole next round).
    """

    by: str
    stat: Stat
    rounds: int
    pending: bool = True

    @property
    def remaining(self) -> int:
        """Rounds it holds, counting the current one, if nothing else happens."""
        return self.rounds + (1 if self.pending else 0)


@frozen_value
class Fighter:
    """A character's Distat state: its sheet numbers and what happened to it."""

    name: str
    side: str
    body: int
    mind: int
    talents: tuple[Talent, ...] = ()
    damage_body: int = 0
    damage_mind: int = 0
    bonus_pool: int = 0
    restraint: Restraint | None = None
    lifewell_used: bool = False


@frozen_value
class RulesOptions:
    """The table options of RULES §1 that change how checks resolve."""

    identify_bonus_requires_owning: bool = False  # RULES D14


def invested(f: Fighter, stat: Stat) -> int:
    """Points invested in ``stat`` (the stat's full value)."""
    return f.body if stat == "body" else f.mind


def damage(f: Fighter, stat: Stat) -> int:
    """Damage points on ``stat``."""
    return f.damage_body if stat == "body" else f.damage_mind


def ev(f: Fighter, stat: Stat) -> int:
    """Effective value: invested minus damage (RULES D1, D2: damage lowers EAV and EPV alike)."""
    # ``invested`` minus ``damage``, written out: the rules ask for it more than anything
    return f.body - f.damage_body if stat == "body" else f.mind - f.damage_mind


def _mods(f: Fighter, stat: Stat) -> tuple[int, int]:
    eav = epv = 0
    for talent in f.talents:
        if talent.stat == stat:
            a, p = always_on(talent)
            eav += a
            epv += p
    return eav, epv


def eav(f: Fighter, stat: Stat, *, per_check: int = 0) -> int:
    """Effective active value with always-on talent modifiers, plus ``per_check`` (RULES D1)."""
    return ev(f, stat) + _mods(f, stat)[0] + per_check


def epv(f: Fighter, stat: Stat, *, per_check: int = 0) -> int:
    """Effective passive value with always-on modifiers, plus ``per_check`` (RULES D1).

    The crowd penalty on Body needs the scene: see ``values.epv_in_scene``.
    """
    return ev(f, stat) + _mods(f, stat)[1] + per_check


def status(f: Fighter) -> Status:
    """``out`` if a stat's EV is below 0 (D6), ``zeroed`` if one is exactly 0 (D5)."""
    lowest = min(ev(f, "body"), ev(f, "mind"))  # the lower of the two EVs
    if lowest < 0:
        return "out"
    return "zeroed" if lowest == 0 else "active"


def can_act_with(f: Fighter, stat: Stat) -> bool:
    """Whether ``stat``'s action may be taken: both EV and EAV above 0 (RULES D5)."""
    return ev(f, stat) > 0 and eav(f, stat) > 0


def pool_max(f: Fighter) -> int:
    """The bonus pool's maximum: the highest talent level the character can buy (RULES §1.2)."""
    return max(f.body // 2, f.mind // 2, 0)


def bonus_cap(f: Fighter) -> int:
    """Bonus points one check may use: ceil(pool_max / 2) (RULES D15)."""
    return -(-pool_max(f) // 2)


def with_damage(f: Fighter, stat: Stat, value: int) -> Fighter:
    """``f`` with ``stat``'s damage set to ``value`` (never below 0)."""
    value = max(0, value)
    if stat == "body":
        return replace(f, damage_body=value)
    return replace(f, damage_mind=value)


def hurt(f: Fighter, stat: Stat, amount: int) -> Fighter:
    """``f`` after ``amount`` damage to ``stat``; Eternal stops a positive EV at 0."""
    before = ev(f, stat)
    if count(f.talents, "eternal") and before > 0 and before - amount < 0:
        amount = before  # Eternal: the EV stops at 0
    return with_damage(f, stat, damage(f, stat) + amount)
