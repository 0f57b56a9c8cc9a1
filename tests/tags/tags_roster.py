"""Shared contexts for the tag reader's tests: a small roster with spaces and prefixes."""

from __future__ import annotations

from pbp.tags import ReadContext
from pbp.tags.model import SceneKind

CHARACTERS = ("Aria", "Bram", "Goblin", "Goblin Archer", "Goblin 1", "Goblin 2", "Ogre")
CHARACTERS += ("Imp A", "Imp B", "Imp C")
FEATURES = ("Door", "Wall")
TALENTS = ("Iron Grip", "Mind Spike")
TASKS = ("Breach the gate", "Calm the crowd")


def context(scene: SceneKind = SceneKind.DISTAT, *, gm: bool = False) -> ReadContext:
    """The test roster in a scene of this kind."""
    return ReadContext(
        scene=scene, characters=CHARACTERS, features=FEATURES, talents=TALENTS, tasks=TASKS, gm=gm
    )
