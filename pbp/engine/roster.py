"""The roster every scene shares, as the engine sees it: who is in the scene, the features they
stand at, their sides, who is out; and what a ruleset keeps of that cast beyond it.

Every ruleset runs in a scene with the same cast: the campaign's characters, the GM's NPCs
and features, their groups. The engine reads that cast only through ``Roster`` and changes it
only through the keeper of ``engine.scene_roster`` (a new thread, a round's start and end,
the GM's set-up of names, groups and features, a campaign file reloaded). What a ruleset keeps
of each character beyond it (Distat's Body and Mind, damage and bonus pools) is its own part
of the roster (``SceneRoster.parts``): its ``CastKeeper`` (``engine.scene_roster``) follows
each change of the roster, and the ruleset changes that part itself through the ``Ruleset``
interface (the GM's corrections, the rests, its part of the report).
"""

from __future__ import annotations

from typing import Protocol


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
