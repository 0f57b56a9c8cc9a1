"""Resistances as static DCs (RULES A9)."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from pbp.rulesets.d20.rules.results import Outcome, outcome_of
from pbp.values import frozen_value

RESISTANCE_BASE = 10


class Resistance(StrEnum):
    """The resistances the seed names."""

    FORTITUDE = "fortitude"
    WILL = "will"
    DEFENSE = "defense"
    TOUGHNESS = "toughness"


# RULES A9: Fortitude uses Constitution, Will Charisma; Defense and Toughness no ability.
RESISTANCE_ABILITY: dict[Resistance, str | None] = {
    Resistance.FORTITUDE: "constitution",
    Resistance.WILL: "charisma",
    Resistance.DEFENSE: None,
    Resistance.TOUGHNESS: None,
}


@frozen_value
class ResistanceDC:
    """A resistance's static DC and its parts."""

    resistance: Resistance
    ability_modifier: int
    ranks: int
    bonuses: int

    @property
    def value(self) -> int:
        """10 + ability modifier + ranks + feat/FX bonuses."""
        return RESISTANCE_BASE + self.ability_modifier + self.ranks + self.bonuses


def resistance_dc(
    *, resistance: Resistance, ranks: int, ability_modifier: int = 0, bonuses: int = 0
) -> ResistanceDC:
    """The static DC of a resistance (RULES A9)."""
    if RESISTANCE_ABILITY[resistance] is None and ability_modifier:
        raise ValueError(f"{resistance.value} is not modified by any ability score")
    return ResistanceDC(
        resistance=resistance, ability_modifier=ability_modifier, ranks=ranks, bonuses=bonuses
    )


@frozen_value
class ResistanceResult:
    """An attack or effect roll against a resistance; ``outcome`` is the attacker's."""

    effect_total: int
    dc: int
    outcome: Outcome
    margin: int


def resist(*, effect_total: int, dc: ResistanceDC) -> ResistanceResult:
    """The effect gets through on a total that meets or beats the DC (RULES A9: the core rule)."""
    return ResistanceResult(
        effect_total=effect_total,
        dc=dc.value,
        outcome=outcome_of(effect_total >= dc.value),
        margin=effect_total - dc.value,
    )


def severity(*, margin: int, table: Sequence[tuple[int, str]]) -> str | None:
    """The Toughness severity for a margin, from a data table (RULES A9: the table is not known).

    ``table`` lists (least margin, label) in rising order; a negative margin is no damage (None).
    """
    label: str | None = None
    for least, name in table:
        if margin >= least:
            label = name
    return label if margin >= 0 else None
