"""d20 Advanced's part of a character sheet: the dice pool (RULES A8), the attack bonus and
Defense an ``[attack: Goblin]`` takes. Skill bonuses and resistance ranks are the shared
``skills`` part (``sheets.skills``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from pbp.campaign.sheets.base import SheetKey, SheetReader, read_bonus, sheet_key
from pbp.campaign.tables import KeyPath, Reader, Table
from pbp.tags.model import SceneKind
from pbp.values import frozen_value

_RESISTANCE = "a d20 resistance: its rank goes in skills (RULES A9)"


@frozen_value
class D20Sheet:
    """A character's d20 numbers beyond its skills."""

    dice_pool: int = 0
    attack: int | None = None
    defense: int | None = None

    def scores(self) -> Mapping[str, int | None]:
        """The dice pool, which ``!npc`` may give too."""
        return {"dice_pool": self.dice_pool}


class D20SheetReader(SheetReader):
    """Reads ``dice_pool``, ``attack`` and ``defense``."""

    keys: ClassVar[Mapping[str, SheetKey]] = {
        "attack": sheet_key("a d20 attack bonus", SceneKind.D20, listed=130),
        "defense": sheet_key(
            "a d20 Defense (what an attack roll must meet)", SceneKind.D20, listed=140
        ),
        "dice_pool": sheet_key("the d20 dice pool (RULES A8)", SceneKind.D20, listed=100),
    }
    misplaced: ClassVar[Mapping[str, tuple[str, str]]] = {
        "fortitude": (_RESISTANCE, "skills = { Fortitude = 4 }"),
        "will": (_RESISTANCE, "skills = { Will = 2 }"),
        "toughness": (_RESISTANCE, "skills = { Toughness = 3 }"),
        "reflex": (_RESISTANCE, "skills = { Reflex = 3 }"),
    }

    def read(self, reader: Reader, row: Table, at: KeyPath) -> D20Sheet:
        pool = reader.attempt(
            lambda: reader.whole(row, at, "dice_pool", default=0, minimum=0), None
        )
        attack = reader.attempt(lambda: read_bonus(reader, row, at, "attack"), None)
        defense = reader.attempt(lambda: reader.whole(row, at, "defense", minimum=0), None)
        return D20Sheet(dice_pool=pool or 0, attack=attack, defense=defense)


D20_SHEET = D20SheetReader()
