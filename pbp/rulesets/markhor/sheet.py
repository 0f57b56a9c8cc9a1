"""Markhorspire's part of a character sheet: the scores a skirmish's pools come from
(RULES M1), Intuition for a battle's initiative (M5), a battle's HP and WP (M8) and Stamina,
which gives the AP of both (RULES §4)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any, ClassVar

from pbp.campaign.sheets.base import OptionKey, SheetKey, SheetReader, sheet_key
from pbp.campaign.tables import KeyPath, Reader, Table
from pbp.rulesets.markhor.rules.pools import MIN_BATTLE_POOL
from pbp.tags.model import SceneKind
from pbp.values import frozen_value

SKIRMISH, BATTLE = SceneKind.SKIRMISH, SceneKind.BATTLE
MAX_RATING = 6  # RULES §7: Markhorspire ratings run from -6 to +6
_SCORES = ("constitution", "wisdom", "intuition", "stamina")
_POOLS = ("hp", "wp")


@frozen_value
class MarkhorSheet:
    """A character's Markhorspire scores; ``hp`` and ``wp`` None: the battle's least."""

    constitution: int = 0
    wisdom: int = 0
    intuition: int = 0
    hp: int | None = None
    wp: int | None = None
    stamina: int = 0
    sapient: bool = True  # RULES M8: a won skirmish leaves it incapacitated, not dead

    def scores(self) -> Mapping[str, int | None]:
        """Every number of the part: a fight reads them by key, or what ``!npc`` gave."""
        return {
            "constitution": self.constitution,
            "wisdom": self.wisdom,
            "intuition": self.intuition,
            "hp": self.hp,
            "wp": self.wp,
            "stamina": self.stamina,
        }


@frozen_value
class MarkhorOptions:
    """Markhorspire's table options (``[campaign.options]``)."""

    # RULES M1: skirmish HP/WP = max(skirmish_minimum, skirmish_per_point × score)
    skirmish_minimum: int = 1
    skirmish_per_point: int = 1


class MarkhorSheetReader(SheetReader):
    """Reads ``constitution``, ``wisdom``, ``intuition``, ``hp``, ``wp``, ``stamina`` and
    ``sapient``, and the options ``skirmish_minimum`` and ``skirmish_per_point``."""

    keys: ClassVar[Mapping[str, SheetKey]] = {
        "constitution": sheet_key(
            "a Markhorspire score (Skirmish HP, RULES M1)", SKIRMISH, listed=40
        ),
        "wisdom": sheet_key("a Markhorspire score (Skirmish WP, RULES M1)", SKIRMISH, listed=50),
        "intuition": sheet_key(
            "a Markhorspire score (battle initiative, RULES M5)", BATTLE, listed=60
        ),
        "hp": sheet_key("Markhorspire battle HP (RULES M8)", BATTLE, listed=70),
        "wp": sheet_key("Markhorspire battle WP (RULES M8)", BATTLE, listed=80),
        "stamina": sheet_key(
            "Markhorspire Stamina (AP = Stamina + 3)", SKIRMISH, BATTLE, listed=90
        ),
        "sapient": sheet_key(
            "whether a Markhorspire foe a won skirmish leaves is incapacitated (true) or dead "
            "(false, a simple beast or construct; RULES M8)",
            SKIRMISH,
            listed=95,
        ),
    }
    misplaced: ClassVar[Mapping[str, tuple[str, str]]] = {
        "ap": ("Markhorspire AP: they come from Stamina (AP = Stamina + 3)", "stamina = 1"),
        "vigor": ("Markhorspire Vigor: the sheet takes the full battle HP it gives", "hp = 18"),
    }
    options: ClassVar[Mapping[str, OptionKey]] = {  # RULES M1
        "skirmish_minimum": OptionKey(1, minimum=1, listed=30),
        "skirmish_per_point": OptionKey(1, minimum=1, listed=40),
    }

    def read_options(self, given: Mapping[str, bool | int]) -> MarkhorOptions:
        return MarkhorOptions(
            skirmish_minimum=int(given["skirmish_minimum"]),
            skirmish_per_point=int(given["skirmish_per_point"]),
        )

    def read(self, reader: Reader, row: Table, at: KeyPath) -> MarkhorSheet:
        # RULES §7: a rating may be negative; one outside -6..+6 loads with a warning
        scores: dict[str, Any] = {
            key: reader.attempt(partial(reader.whole, row, at, key, default=0), None) or 0
            for key in _SCORES
        }
        pools: dict[str, Any] = {
            key: reader.attempt(partial(reader.whole, row, at, key, minimum=0), None)
            for key in _POOLS
        }
        sapient = reader.attempt(partial(reader.flag, row, at, "sapient", default=True), True)
        return MarkhorSheet(**scores, **pools, sapient=sapient)

    def warn(
        self, reader: Reader, row: Table, at: KeyPath, *, ruleset: SceneKind, skip: set[str]
    ) -> None:
        for key in _POOLS:
            value: Any = row.get(key)
            if key not in skip and isinstance(value, int) and 0 <= value < MIN_BATTLE_POOL:
                reader.warn(
                    (*at, key),
                    f"{key} = {value} is below the least full {key.upper()} a battle gives, "
                    f"{MIN_BATTLE_POOL}: the battle starts this character at {MIN_BATTLE_POOL}",
                    f"{key} = {MIN_BATTLE_POOL} or more",
                )
        for key in _SCORES:  # RULES §7: a boss's rating past the range loads, with a warning
            value = row.get(key)
            if key in skip or not isinstance(value, int) or -MAX_RATING <= value <= MAX_RATING:
                continue
            past = f"above +{MAX_RATING}, the highest"
            if value < 0:
                past = f"below -{MAX_RATING}, the lowest"
            reader.warn(
                (*at, key),
                f"{key} = {value} is {past} Markhorspire rating "
                "(a rating, not a D&D-style score): the scene reads it as written",
                f"{key} from -{MAX_RATING} to +{MAX_RATING}",
            )

    def also_runs(self, ruleset: SceneKind) -> frozenset[SceneKind]:
        # RULES M8: a skirmish the party loses goes on as a battle
        return frozenset({BATTLE}) if ruleset is SKIRMISH else frozenset()


MARKHOR_SHEET = MarkhorSheetReader()
