"""A campaign as loaded from its file: frozen, checked values (SPEC §3)."""

from __future__ import annotations

from dataclasses import field
from typing import Literal, TypeVar

from pbp.campaign.parts import P, Parts
from pbp.campaign.turns import StandingDefault, TurnOptions
from pbp.tags.model import SceneKind
from pbp.values import frozen_value

Visibility = Literal["hide-npcs", "open"]
Opt = TypeVar("Opt")


@frozen_value
class CharacterSheet:
    """A character of the roster. ``player`` None means an NPC run by the GM.

    Each ruleset's numbers are its own part of the sheet (``sheets.registry``), found by
    type: ``sheet.part(DistatSheet).body``.
    """

    name: str
    player: str | None
    side: str
    parts: Parts = field(default_factory=Parts)
    # what the character does in a round it has not acted in, with no standing order of its
    # own: "hold" (it passes) or "none"; None: the campaign's ``standing_default``
    standing: StandingDefault | None = None

    def part(self, kind: type[P]) -> P:
        """The sheet's part of that type (an empty one when the sheet has none)."""
        found = self.parts.get(kind)
        return found if found is not None else kind()

    def scores(self) -> dict[str, int | None]:
        """Every part's numbers that scenes read by key (``SheetPart.scores``)."""
        return {key: value for p in self.parts.items for key, value in p.scores().items()}


@frozen_value
class CampaignOptions:
    """Switches for the readings RULES.md marks as table options (defaults as written there).

    The general ones are fields; each ruleset's are its own part, found by type
    (``sheets.registry``): ``options.part(MarkhorOptions).skirmish_minimum``.
    """

    # RULES D8: any GM post closes the round, whatever scene the thread runs
    close_on_any_gm_post: bool = False
    parts: tuple[object, ...] = ()

    def part(self, kind: type[Opt]) -> Opt:
        """The options part of that type (its defaults when the campaign has none)."""
        found = next((p for p in self.parts if type(p) is kind), None)
        return found if isinstance(found, kind) else kind()


@frozen_value
class Campaign:
    """GMs, roster, the ruleset a new thread starts in, and the campaign's options."""

    name: str
    gms: tuple[str, ...]
    ruleset: SceneKind = SceneKind.DISTAT
    visibility: Visibility = "hide-npcs"
    templates: str | None = None
    sides: tuple[str, ...] = ()  # the sides a character may be on; empty: any name goes
    characters: tuple[CharacterSheet, ...] = ()
    options: CampaignOptions = field(default_factory=CampaignOptions)
    turns: TurnOptions = field(default_factory=TurnOptions)

    def character(self, name: str) -> CharacterSheet | None:
        """The sheet with exactly this name (case-insensitive), or None."""
        low = name.casefold()
        return next((c for c in self.characters if c.name.casefold() == low), None)

    def holds(self, name: str) -> bool:
        """Whether character ``name`` passes in a round it has not acted in and has no
        standing order for (its sheet's ``standing``, else the campaign's default)."""
        sheet = self.character(name)
        own = sheet.standing if sheet is not None else None
        return (own or self.turns.standing_default) == "hold"

    def is_gm(self, user: str) -> bool:
        """Whether ``user`` is one of the campaign's GMs (usernames compare case-insensitively)."""
        return user.casefold() in {g.casefold() for g in self.gms}
