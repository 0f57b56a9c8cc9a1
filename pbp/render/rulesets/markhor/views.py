"""View models of a skirmish or battle round: initiative, each course in turn order, the pools
(SPEC §2.4). Under ``hide-npcs`` an NPC's HP and WP are hidden; whether it is out is not."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from pbp.engine.rulesets.markhor.model import MarkhorReport
from pbp.render.plain import roll_view


def markhor_view(
    report: MarkhorReport | None, *, hide: bool, npcs: frozenset[str]
) -> dict[str, Any] | None:
    """The Markhorspire part of a summary, or None when the round had none."""
    if report is None:
        return None
    entries = []
    for e in report.entries:
        view = {f.name: getattr(e.record, f.name) for f in fields(e.record)}
        view.update(post=e.post_id, on_behalf=e.on_behalf, tag=e.tag,
                    rolls=[roll_view(r) for r in e.record.rolls])  # fmt: skip
        entries.append(view)
    hidden = hide and bool(npcs)
    return {
        "mode": report.mode,
        "initiative": [
            {"name": r.name, "rolls": list(r.rolls), "bonus": r.bonus, "total": r.total,
             "tiebreak": list(r.tiebreak)}
            for r in report.initiative
        ],
        "initiative_rolls": [roll_view(r) for r in report.initiative_rolls],
        "order": list(report.order),
        "entries": entries,
        "pools": [
            {"name": name, "out": p.out,
             "hp": None if hidden and name in npcs else p.hp,
             "wp": None if hidden and name in npcs else p.wp}
            for name in report.order for who, p in report.pools if who == name
        ],
        "ended": report.ended,
    }  # fmt: skip
