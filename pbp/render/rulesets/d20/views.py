"""View models of a round's d20 tags (their numbers were in the post already)."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from pbp.engine.rulesets.d20.model import D20Entry
from pbp.render.plain import roll_view


def d20_view(entry: D20Entry) -> dict[str, Any]:
    """One resolved d20 tag as the summary shows it: every field of its record, each roll's
    key written as the summary lists it."""
    r = entry.record
    return {
        **{f.name: getattr(r, f.name) for f in fields(r)},
        "post": entry.post_id,
        "on_behalf": entry.on_behalf,
        "tag": entry.tag,
        "rolls": [roll_view(roll) for roll in r.rolls],
    }
