"""Talents: a generic model, and the named talents whose effects touch the mechanics."""

from __future__ import annotations

from typing import Literal

from pbp.rulesets.distat.rules.intents import Stat
from pbp.values import frozen_value

TalentKind = Literal["active", "passive"]
TalentEffect = Literal["attack", "restrain", "none"]


@frozen_value
class Talent:
    """One talent of a character's sheet.

    ``eav`` and ``epv`` are always-on modifiers to the stat's active and passive values; None
    means "not given": a built-in named talent then uses its own number (numbers given in a
    campaign file replace the built-in ones, never add to them). ``effect`` is what ``use``
    does for an active talent.
    """

    name: str
    stat: Stat
    level: int
    kind: TalentKind
    eav: int | None = None
    epv: int | None = None
    effect: TalentEffect | None = None


# --------------------------------------------------------------------------------------------
# Named talents (RULES §1.1). A sheet talent whose name matches one of these (case, spaces and
# hyphens ignored) gets its effect. Numbers given on the sheet replace the built-in number.

ALWAYS_ON: dict[str, tuple[int, int]] = {
    "aggressive": (1, 0),  # +1 Body EAV
    "hardtohit": (0, 1),  # +1 Body EPV
}
"""Built-in talents whose bonus is always on: key -> (EAV, EPV) modifier of the talent's stat."""

SITUATIONAL: dict[str, Literal["eav", "epv"]] = {
    "anchor": "epv",  # +1 Body EPV vs Restrain
    "pincer": "eav",  # +1 Body EAV to Restrain
    "mobile": "eav",  # +1 to the mover's Threatened check
    "controller": "epv",  # +1 when opposing a Threatened check
    "deflection": "epv",  # the crowd penalty is 1 smaller (RULES D11)
    "deduction": "eav",  # +1 on Identify (RULES D13)
    "indiscriminate": "eav",  # +1 Mind EAV per check of a Mental split (RULES D7)
    "focusedresolve": "epv",  # +1 Mind EPV in a round with no Mental action of its own
    "lifewell": "epv",  # +1 Mind EPV when Mind EV is 0, once per encounter (RULES D5)
}
"""Built-in talents whose bonus applies only in a situation: key -> which sheet number
replaces their built-in +1."""


def talent_key(name: str) -> str:
    """The name as built-in talents are matched: case-folded, letters and digits only."""
    return "".join(ch for ch in name.casefold() if ch.isalnum())


def always_on(talent: Talent) -> tuple[int, int]:
    """The always-on (EAV, EPV) modifier this talent gives to its own stat (RULES D1)."""
    key = talent_key(talent.name)
    if key in SITUATIONAL:
        return (0, 0)  # its sheet numbers size the situational bonus instead
    eav, epv = ALWAYS_ON.get(key, (0, 0))
    return (
        eav if talent.eav is None else talent.eav,
        epv if talent.epv is None else talent.epv,
    )


def situational(talents: tuple[Talent, ...], key: str) -> int:
    """The summed bonus of every copy of the situational talent ``key`` (talents stack)."""
    side = SITUATIONAL[key]
    total = 0
    for talent in talents:
        if talent_key(talent.name) != key:
            continue
        given = talent.eav if side == "eav" else talent.epv
        total += 1 if given is None else given
    return total


def count(talents: tuple[Talent, ...], key: str) -> int:
    """How many copies of the built-in talent ``key`` the sheet has."""
    return sum(1 for t in talents if talent_key(t.name) == key)


def find(talents: tuple[Talent, ...], name: str) -> Talent | None:
    """The sheet's talent called ``name`` (case-insensitive), or None."""
    low = name.casefold()
    return next((t for t in talents if t.name.casefold() == low), None)


def effect_of(talent: Talent) -> TalentEffect:
    """What ``use`` of this talent does: the sheet's effect, else ``none``."""
    return talent.effect if talent.effect is not None else "none"
