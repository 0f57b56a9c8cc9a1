"""The shapes a scene's own views take: a table for ``!status`` and a summary (columns and
rows of Markdown, user text escaped) and a character's sheet lines; under ``hide-npcs`` an
NPC's numbers are ``?``, whether it is out is not. Each ruleset fills them
(``render.registry``); the roster keeps its own templates (Body and Mind, groups,
restraints)."""

from __future__ import annotations

from pbp.engine.state import EngineState
from pbp.values import frozen_value

HIDDEN = "?"


@frozen_value
class Table:
    """A table of a scene: its columns, one row per character, and lines under it."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    notes: tuple[str, ...] = ()


@frozen_value
class SheetLines:
    """One character's sheet in a scene: label and value pairs (None: hidden from players)."""

    lines: tuple[tuple[str, str], ...] | None


@frozen_value
class Shown:
    """What players may see: under ``hide-npcs`` (``hide``), none of these NPCs' numbers
    and no secret DC."""

    hide: bool
    hidden: frozenset[str]

    def value(self, owner: str, value: object) -> str:
        """A number of ``owner``'s as players see it."""
        return HIDDEN if owner in self.hidden else str(value)


def scene_names(state: EngineState) -> list[str]:
    """The scene's characters as it stands, in roster order."""
    scene = state.round.base if state.round is not None else state.scene
    return list(scene.names())


def side_of(state: EngineState, name: str) -> str:
    """The side of a character of the scene as it stands."""
    scene = state.round.base if state.round is not None else state.scene
    return scene.side(name)
