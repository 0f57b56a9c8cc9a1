"""The keyed dice interface (ARCHITECTURE practice 2, SPEC §6).

Every roll is derived from the round's seed and a key that names where the roll came from:
``(post id, tag index)`` for a tag, ``(post id, "cmd", line)`` for a command,
``(round number, event name)`` for a round's own rolls. ``Roller.roll`` is then called in
order, so the n-th roll of one key is always the same number for the same seed.
"""

from __future__ import annotations

from typing import Protocol


class Roller(Protocol):
    """The dice of one key: successive calls give successive rolls."""

    def roll(self, sides: int) -> int:
        """One die with ``sides`` faces: a number from 1 to ``sides``."""
        ...


class Dice(Protocol):
    """Where rolls come from: a seeded, keyed source in play, a scripted one in tests."""

    def for_key(self, *key: str | int) -> Roller:
        """The roller for one key; asking twice for the same key starts it over."""
        ...
