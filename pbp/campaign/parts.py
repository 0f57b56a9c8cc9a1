"""A character sheet's parts: one value per ruleset's part of the sheet, found by its type, so
the campaign's model holds every ruleset's numbers without naming any (``sheets.registry``
says which parts there are)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol, TypeVar

from pbp.values import frozen_value

P = TypeVar("P", bound="SheetPart")


class SheetPart(Protocol):
    """One ruleset's part of a character sheet: a frozen value built with no arguments as
    the part of a sheet that gives none of its keys."""

    def scores(self) -> Mapping[str, int | None]:
        """The numbers of this part a scene reads by their campaign-file key, which ``!npc``
        may give an NPC instead (``EngineState.scores``); empty when none is read so."""
        ...


@frozen_value(kw_only=False)
class Parts:
    """Sheet parts of distinct types, in the order the registry reads them."""

    items: tuple[SheetPart, ...] = ()

    def get(self, kind: type[P]) -> P | None:
        """The part of that type, or None."""
        return next((p for p in self.items if isinstance(p, kind) and type(p) is kind), None)

    def put(self, part: SheetPart) -> Parts:
        """These parts with ``part`` in place of the one of its type."""
        kind = type(part)
        if any(type(p) is kind for p in self.items):
            return Parts(tuple(part if type(p) is kind else p for p in self.items))
        return Parts((*self.items, part))
