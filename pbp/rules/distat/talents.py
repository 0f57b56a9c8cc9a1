"""Talents: a generic model, and the named talents whose effects touch the mechanics."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pbp.rules.distat.intents import Stat

TalentKind = Literal["active", "passive"]
TalentEffect = Literal["attack", "restrain", "none"]


@dataclass(frozen=True, slots=True, kw_only=True)
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
