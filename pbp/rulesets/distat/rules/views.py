"""What the summary and the ledger show of a character (SPEC §5 ``characters``)."""

from __future__ import annotations

from typing import Literal

from pbp.rulesets.distat.rules.fighter import Fighter, damage, eav, epv, invested, status
from pbp.rulesets.distat.rules.intents import Stat
from pbp.rulesets.distat.rules.scene import DistatScene, fighter, group
from pbp.values import frozen_value


@frozen_value
class StatView:
    """``full`` is the points invested; ``eav``/``epv`` carry damage and always-on talent
    modifiers, no situational ones."""

    full: int
    damage: int
    eav: int
    epv: int


@frozen_value
class RestraintView:
    """Who restrains the character, how, and for how many more rounds (the current counted)."""

    by: str
    stat: Stat
    rounds: int


@frozen_value
class CharacterView:
    """One character as the summary and the ledger show it."""

    name: str
    side: str
    group: str
    status: Literal["active", "zeroed", "out"]
    body: StatView
    mind: StatView
    restrained: RestraintView | None
    bonus_pool: int


def _stat(f: Fighter, stat: Stat) -> StatView:
    return StatView(
        full=invested(f, stat), damage=damage(f, stat), eav=eav(f, stat), epv=epv(f, stat)
    )


def view(scene: DistatScene, name: str) -> CharacterView:
    """The character called ``name`` as the summary shows it."""
    f = fighter(scene, name)
    restraint = None
    if f.restraint is not None:
        restraint = RestraintView(
            by=f.restraint.by, stat=f.restraint.stat, rounds=f.restraint.remaining
        )
    return CharacterView(
        name=f.name,
        side=f.side,
        group=group(scene, name),
        status=status(f),
        body=_stat(f, "body"),
        mind=_stat(f, "mind"),
        restrained=restraint,
        bonus_pool=f.bonus_pool,
    )
