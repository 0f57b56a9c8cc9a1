"""A campaign as loaded from its file: frozen, checked values (SPEC §3)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from pbp.rules.distat.talents import Talent
from pbp.tags.model import SceneKind

Visibility = Literal["hide-npcs", "open"]


@dataclass(frozen=True, slots=True, kw_only=True)
class CharacterSheet:
    """A character of the roster. ``player`` None means an NPC run by the GM."""

    name: str
    player: str | None
    side: str
    body: int = 0
    mind: int = 0
    bonus_pool: int = 0
    talents: tuple[Talent, ...] = ()
    # Markhorspire scores (RULES §4) and the d20 Advanced dice pool (RULES A8)
    constitution: int = 0
    wisdom: int = 0
    intuition: int = 0
    hp: int | None = None
    wp: int | None = None
    stamina: int = 0
    dice_pool: int = 0
    # d20 Advanced and Epic Path: skill bonuses (``[check: Stealth vs 15]`` takes Stealth's),
    # and d20 attack bonus and Defense (``[attack: Goblin]``)
    skills: tuple[tuple[str, int], ...] = ()
    attack: int | None = None
    defense: int | None = None

    @property
    def is_npc(self) -> bool:
        """Whether the GM runs this character."""
        return self.player is None

    def skill(self, name: str) -> int | None:
        """The sheet's bonus in a skill (named case-insensitively), or None."""
        low = name.casefold()
        return next((bonus for skill, bonus in self.skills if skill.casefold() == low), None)


@dataclass(frozen=True, slots=True, kw_only=True)
class CampaignOptions:
    """Switches for the readings RULES.md marks as table options (defaults as written there)."""

    identify_bonus_requires_owning: bool = False  # RULES D14
    close_on_any_gm_post: bool = False  # RULES D8
    # RULES M1: skirmish HP/WP = max(skirmish_minimum, skirmish_per_point × score)
    skirmish_minimum: int = 1
    skirmish_per_point: int = 1


@dataclass(frozen=True, slots=True, kw_only=True)
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

    def character(self, name: str) -> CharacterSheet | None:
        """The sheet with exactly this name (case-insensitive), or None."""
        low = name.casefold()
        return next((c for c in self.characters if c.name.casefold() == low), None)

    def is_gm(self, user: str) -> bool:
        """Whether ``user`` is one of the campaign's GMs (usernames compare case-insensitively)."""
        return user.casefold() in {g.casefold() for g in self.gms}
