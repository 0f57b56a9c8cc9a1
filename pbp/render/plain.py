"""Plain values of the engine's records, for the views and the ledger of every ruleset."""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any

from pbp.rules.dice.seeded import RollRecord


def plain(value: Any) -> Any:
    """A dataclass value as JSON-ready data (with its ``code`` when it has one; without the
    fields marked ``ledger=False``, which only the summary shows)."""
    if is_dataclass(value) and not isinstance(value, type):
        data = {
            f.name: plain(getattr(value, f.name))
            for f in fields(value)
            if f.metadata.get("ledger", True)
        }
        code = getattr(value, "code", None)
        return {"code": code, **data} if isinstance(code, str) else data
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    return value


def roll_view(roll: RollRecord) -> dict[str, Any]:
    """A roll as the summary's dice line lists it (``key·index``)."""
    return {
        "key": "·".join(str(k) for k in roll.key),
        "index": roll.index,
        "sides": roll.sides,
        "value": roll.value,
    }
