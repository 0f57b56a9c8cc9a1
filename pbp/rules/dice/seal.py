"""Round seeds and their seals (SPEC §6).

A round's seed is a lowercase hex string. The reply that opens the round publishes
``seal(seed)``, the SHA-256 of the seed's UTF-8 bytes, in hex; the summary that closes it reveals
the seed, so anyone can check ``sha256(seed) == seal`` and then recompute every roll
(see :mod:`pbp.rules.dice.seeded`).
"""

from __future__ import annotations

import hashlib
import secrets

SEED_BYTES = 32
"""Bytes of randomness in a fresh seed: 256 bits, above the 128 the contract asks for."""

REPLAY_SEED_PREFIX = "pbp-replay-seed:"


def new_seed() -> str:
    """A fresh secret seed: 256 bits from :mod:`secrets`, as 64 lowercase hex digits.

    The only function of the rules that is not deterministic; the shell calls it once per round.
    """
    return secrets.token_hex(SEED_BYTES)


def seal(seed: str) -> str:
    """The seal published when a round opens: SHA-256 of the seed's UTF-8 bytes, in hex."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def seed_from_int(n: int) -> str:
    """The reproducible seed of ``pbp replay --seed N``.

    SHA-256 (hex) of the UTF-8 text ``"pbp-replay-seed:N"`` with ``N`` in decimal: the same N
    always gives the same dice, different N give different dice.
    """
    return hashlib.sha256(f"{REPLAY_SEED_PREFIX}{n}".encode()).hexdigest()
