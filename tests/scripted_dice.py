"""Scripted dice: a fake :class:`Dice` for tests that says which numbers come up.

Two forms:

- a mapping from key to rolls (``{("p1", 0): [14, 3]}``): each key gives its own numbers, and,
  as the protocol says, asking twice for the same key starts that key over;
- a plain sequence (``[14, 3, 20]``): every roller draws from one shared queue, in the order the
  rolls happen, whatever the key.

Asking for more rolls than scripted, for a key that has no script, or for a die whose sides
cannot show the scripted number raises :class:`ScriptedDiceError`. It is an ``AssertionError``
(a broken test, not a product error), so no ``except PbpError`` in the code under test hides it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pbp.rules.dice.seeded import Key
from pbp.rules.dice.source import Roller


class ScriptedDiceError(AssertionError):
    """A test asked the scripted dice for something the script does not hold."""


@dataclass(slots=True)
class _Queue:
    values: tuple[int, ...]
    position: int = 0

    def take(self, *, key: Key, sides: int) -> int:
        if self.position >= len(self.values):
            raise ScriptedDiceError(
                f"key {key!r} asked for roll {self.position + 1} (a d{sides}) but only "
                f"{len(self.values)} were scripted: {list(self.values)}"
            )
        value = self.values[self.position]
        if not 1 <= value <= sides:
            raise ScriptedDiceError(
                f"key {key!r} roll {self.position + 1} is scripted as {value}, "
                f"which a d{sides} cannot show"
            )
        self.position += 1
        return value


@dataclass(slots=True)
class ScriptedRoller:
    """The roller of one key: takes its numbers from a queue."""

    key: Key
    queue: _Queue

    def roll(self, sides: int) -> int:
        """The next scripted number, checked against ``sides``."""
        return self.queue.take(key=self.key, sides=sides)


class ScriptedDice:
    """A :class:`Dice` that gives scripted numbers, per key or in order."""

    __slots__ = ("_per_key", "_shared")

    def __init__(self, rolls: Mapping[Key, Sequence[int]] | Sequence[int]) -> None:
        self._per_key: dict[Key, tuple[int, ...]] | None = None
        self._shared: _Queue | None = None
        if isinstance(rolls, Mapping):
            self._per_key = {tuple(key): tuple(values) for key, values in rolls.items()}
        else:
            self._shared = _Queue(values=tuple(rolls))

    def for_key(self, *key: str | int) -> Roller:
        """The roller for ``key``: its own script (started over), or the shared queue."""
        if self._shared is not None:
            return ScriptedRoller(key=key, queue=self._shared)
        assert self._per_key is not None
        if key not in self._per_key:
            known = ", ".join(repr(k) for k in self._per_key)
            raise ScriptedDiceError(f"no rolls scripted for key {key!r}; scripted keys: {known}")
        return ScriptedRoller(key=key, queue=_Queue(values=self._per_key[key]))

    @property
    def unused(self) -> int:
        """How many numbers of the shared queue are still to be rolled (0 in the per-key form)."""
        if self._shared is None:
            return 0
        return len(self._shared.values) - self._shared.position
