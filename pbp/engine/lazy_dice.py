"""The round's dice, asked for only when a tag really rolls.

A round with no roll never needs its seed (a take 10, a Distat round), so the shell's seed is
not looked up for it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from pbp.rules.dice.source import Dice, Roller

DiceForRound = Callable[[int], Dice]


@dataclass(slots=True)
class _LazyRoller:
    source: LazyDice
    key: tuple[str | int, ...]
    inner: Roller | None = None

    def roll(self, sides: int) -> int:
        if self.inner is None:
            self.inner = self.source.dice().for_key(*self.key)
        return self.inner.roll(sides)


@dataclass(slots=True)
class LazyDice:
    """The dice of round ``number``, fetched from ``dice_for`` at the first roll."""

    dice_for: DiceForRound
    number: int
    _dice: Dice | None = field(default=None)

    def dice(self) -> Dice:
        """The round's dice (asked for once)."""
        if self._dice is None:
            self._dice = self.dice_for(self.number)
        return self._dice

    def for_key(self, *key: str | int) -> Roller:
        """A roller for ``key`` that reaches the round's dice only when it rolls."""
        return _LazyRoller(source=self, key=key)
