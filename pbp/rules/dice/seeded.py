"""Dice derived from a round's seed and a key, so anyone can recompute them (SPEC §6).

How one roll is derived (``derive_roll``; version ``pbp-dice-v1``)
-------------------------------------------------------------------
Inputs: the round's ``seed`` (a string, normally 64 hex digits), the ``key`` (a tuple of
strings and integers naming where the roll came from, e.g. ``("p3", 0)``), the ``index`` of the
roll within that key (0 for the first roll, 1 for the second, ...) and the die's ``sides``.

1. Encode each part of the key on its own, then concatenate the parts with nothing between:

   - an integer ``n`` becomes ``b"i" + ascii(decimal n) + b";"``     (``7`` -> ``b"i7;"``,
     ``-2`` -> ``b"i-2;"``);
   - a string ``s`` becomes ``b"s" + ascii(decimal len(utf8(s))) + b":" + utf8(s)``
     (``"p3"`` -> ``b"s2:p3"``, ``"é"`` -> ``b"s2:\\xc3\\xa9"``).

   The length prefix and the type letter make the encoding unambiguous: ``("a", 1)``,
   ``("a1",)`` and ``("a", "1")`` all differ.
2. For ``attempt = 0, 1, 2, ...`` build the message
   ``b"pbp-dice-v1|" + encoded_key + b"|" + ascii(decimal index) + b"|" + ascii(decimal attempt)``
   and compute ``digest = HMAC-SHA256(key=utf8(seed), msg=message)`` (32 bytes).
3. Read the first 8 bytes of the digest as an unsigned big-endian integer ``x`` (0 <= x < 2**64).
   Let ``limit = 2**64 - (2**64 % sides)``. If ``x < limit`` the roll is ``x % sides + 1``;
   otherwise reject ``x`` and try the next attempt. Rejection removes modulo bias: every face is
   equally likely. (For dice up to d1000 a rejection happens less than once in 10**13 rolls.)

The sides are not part of the message: the n-th roll of a key is fixed by (seed, key, n).

A ten-line check, independent of pbp::

    import hashlib, hmac
    def enc(p):
        if isinstance(p, int): return b"i%d;" % p
        b = p.encode(); return b"s%d:" % len(b) + b
    def roll(seed, key, index, sides, attempt=0):
        while True:
            msg = b"pbp-dice-v1|" + b"".join(map(enc, key)) + b"|%d|%d" % (index, attempt)
            x = int.from_bytes(hmac.new(seed.encode(), msg, hashlib.sha256).digest()[:8], "big")
            if x < 2**64 - 2**64 % sides: return x % sides + 1
            attempt += 1
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, field

from pbp.rules.dice.source import Dice, Roller
from pbp.values import frozen_value

DERIVATION = "pbp-dice-v1"
"""The name of the derivation above; it starts every HMAC message."""

MAX_SIDES = 2**64
"""The largest die ``derive_roll`` accepts (one 64-bit draw per attempt)."""

Key = tuple[str | int, ...]


def encode_key(key: Key) -> bytes:
    """The bytes of a key as step 1 of the module docstring describes."""
    parts: list[bytes] = []
    for part in key:
        # bool is an int subclass: refuse it so True never silently means 1.
        if isinstance(part, bool) or not isinstance(part, int | str):
            raise TypeError(f"a dice key part must be str or int, not {type(part).__name__}")
        if isinstance(part, int):
            parts.append(b"i%d;" % part)
        else:
            data = part.encode("utf-8")
            parts.append(b"s%d:" % len(data) + data)
    return b"".join(parts)


def derive_roll(*, seed: str, key: Key, index: int, sides: int) -> int:
    """The ``index``-th roll (from 0) of a ``sides``-sided die for ``key`` under ``seed``.

    The one function every seeded roll goes through; the module docstring gives the exact
    derivation so that ``pbp verify`` (or anyone) can recompute it.
    """
    if not 1 <= sides <= MAX_SIDES:
        raise ValueError(f"a die needs 1 to {MAX_SIDES} sides, not {sides}")
    if index < 0:
        raise ValueError(f"a roll index starts at 0, not {index}")
    secret = seed.encode("utf-8")
    prefix = DERIVATION.encode("ascii") + b"|" + encode_key(key) + b"|%d|" % index
    limit = 2**64 - (2**64 % sides)
    attempt = 0
    while True:
        digest = hmac.new(secret, prefix + b"%d" % attempt, hashlib.sha256).digest()
        x = int.from_bytes(digest[:8], "big")
        if x < limit:
            return x % sides + 1
        attempt += 1


@dataclass(slots=True)
class SeededRoller:
    """The rolls of one key under one seed, in order."""

    seed: str
    key: Key
    next_index: int = 0

    def roll(self, sides: int) -> int:
        """The next roll of this key (see :func:`derive_roll`)."""
        value = derive_roll(seed=self.seed, key=self.key, index=self.next_index, sides=sides)
        self.next_index += 1
        return value


@frozen_value(kw_only=False)
class SeededDice:
    """The production :class:`Dice`: every roll derived from the round's seed and its key."""

    seed: str

    def __post_init__(self) -> None:
        if not self.seed:
            raise ValueError("a dice seed must not be empty")

    def for_key(self, *key: str | int) -> Roller:
        """A roller for ``key`` that starts at roll index 0."""
        encode_key(key)  # refuse a bad key now, not at the first roll
        return SeededRoller(seed=self.seed, key=key)


@frozen_value
class RollRecord:
    """One roll as the summary lists it: its key, its index within the key, the die, the value."""

    key: Key
    index: int
    sides: int
    value: int


@dataclass(slots=True)
class _RecordingRoller:
    inner: Roller
    key: Key
    log: list[RollRecord]
    next_index: int = 0

    def roll(self, sides: int) -> int:
        value = self.inner.roll(sides)
        self.log.append(RollRecord(key=self.key, index=self.next_index, sides=sides, value=value))
        self.next_index += 1
        return value


@dataclass(slots=True)
class RecordingDice:
    """Wraps any :class:`Dice` and records every roll, in the order rolled."""

    inner: Dice
    _log: list[RollRecord] = field(default_factory=list)

    def for_key(self, *key: str | int) -> Roller:
        """The inner dice's roller for ``key``, recording each roll."""
        return _RecordingRoller(inner=self.inner.for_key(*key), key=key, log=self._log)

    @property
    def records(self) -> tuple[RollRecord, ...]:
        """Every roll so far, in order."""
        return tuple(self._log)
