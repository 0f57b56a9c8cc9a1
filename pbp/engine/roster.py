"""The roster every scene shares, as the engine sees it: who is in the scene, the features they
stand at, their sides, who is out; and the one keeper that changes it.

Every ruleset runs in a scene with the same cast: the campaign's characters, the GM's NPCs
and features, their groups. The engine reads that cast only through ``Roster`` and changes it
only through ``RosterKeeper`` (a new thread, a round's start and end, the GM's set-up of
names, groups and features, a campaign file reloaded). What a ruleset keeps of each character
beyond that (Distat's Body and Mind, damage and bonus pools) it changes itself through the
``Ruleset`` interface: the GM's corrections, the rests, its part of the report. Which plugin
keeps the concrete roster is the registry's choice (``engine.registry.ROSTER``); nothing else
in the engine names it.
"""

from __future__ import annotations

from typing import Protocol

from pbp.campaign.model import Campaign
from pbp.errors import Problem
from pbp.tags.commands import Command


class Roster(Protocol):
    """Who is in the scene, as every ruleset and the engine read it."""

    def names(self) -> tuple[str, ...]:
        """The characters' names in roster order."""
        ...

    def feature_names(self) -> tuple[str, ...]:
        """The features' names (scenery a tag may name), in the order they were added."""
        ...

    def talent_names(self) -> tuple[str, ...]:
        """Every talent name on a sheet in the scene, once each (what tags may name)."""
        ...

    def side(self, name: str) -> str:
        """The side of the character called ``name``; KeyError if there is none."""
        ...

    def is_out(self, name: str) -> bool:
        """Whether the character called ``name`` is out (no longer expected to act)."""
        ...


class RosterKeeper:
    """What changes the roster, whatever the scene's ruleset. The defaults keep it as it is;
    the keeper of the concrete roster (``engine.registry.ROSTER``) states each."""

    def start(self, campaign: Campaign) -> Roster:
        """The roster of a thread of ``campaign`` before its first post."""
        raise NotImplementedError

    def begin_round(self, roster: Roster) -> Roster:
        """The roster as a new round opens."""
        return roster

    def end_round(self, roster: Roster) -> Roster:
        """The roster after a round's every action."""
        return roster

    def setup(self, roster: Roster, command: Command) -> Roster | Problem | None:
        """A GM set-up command that changes the roster at once (``!npc``, ``!group``,
        ``!feature``); None when ``command`` is not one of those."""
        return None

    def reload(self, roster: Roster, campaign: Campaign) -> Roster:
        """The roster under a changed campaign file: new characters join, sheets apply."""
        return roster

    def carry_over(self, roster: Roster) -> Roster:
        """The roster a new thread of the campaign starts from (what belongs to the
        characters kept; the old scene's placement gone)."""
        return roster
