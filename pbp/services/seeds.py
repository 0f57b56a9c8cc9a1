"""Round seeds derived from one base seed: `pbp replay --seed N` and the tests."""

from __future__ import annotations

import hashlib
from collections.abc import Callable


def round_seeds(base: str) -> Callable[[int], str]:
    """Each round's seed derived from one base seed (replays and tests)."""

    def seed_for(number: int) -> str:
        return hashlib.sha256(f"{base}:round:{number}".encode()).hexdigest()

    return seed_for
