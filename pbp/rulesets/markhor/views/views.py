"""View models of a skirmish or battle round: initiative, each course in turn order, the pools
(SPEC §2.4).

Under ``hide-npcs`` (SPEC §4.5) an NPC's HP and WP are hidden (whether it is out is not, nor
which pool a hit took), and so are the action points it has left and its battle initiative
(d24 + Intuition, a rating of its sheet; its d24 is in the dice line, as every roll is, and a
skirmish's initiative adds nothing of the sheet). The difficulty the GM set for a course is
hidden too, as the GM's ``!difficulty`` reply hides it.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from pbp.render.disclosure import Disclosure
from pbp.render.plain import roll_view
from pbp.rulesets.markhor.engine.model import MarkhorEntry, MarkhorReport
from pbp.rulesets.markhor.rules.initiative import InitiativeRoll


def _entry(e: MarkhorEntry, disclosure: Disclosure) -> dict[str, Any]:
    view = {f.name: getattr(e.record, f.name) for f in fields(e.record)}
    view["difficulty_hidden"] = disclosure.hide and e.record.difficulty is not None
    if view["difficulty_hidden"]:
        view["difficulty"] = None
    view["ap_left"] = None if disclosure.hides(e.record.actor) else e.record.ap_left
    view.update(post=e.post_id, on_behalf=e.on_behalf, tag=e.tag,
                rolls=[roll_view(r) for r in e.record.rolls])  # fmt: skip
    return view


def _initiative(r: InitiativeRoll, *, battle: bool, disclosure: Disclosure) -> dict[str, Any]:
    # a battle's total carries Intuition; its tie-break re-rolls say which total it tied
    hidden = battle and disclosure.hides(r.name)
    return {
        "name": r.name,
        "rolls": list(r.rolls),
        "bonus": None if hidden else r.bonus,
        "total": None if hidden else r.total,
        "tiebreak": [] if hidden else list(r.tiebreak),
    }


def _turns(report: MarkhorReport, disclosure: Disclosure) -> list[dict[str, Any]]:
    """The round's rows, a turn after another with no gap: each turn's courses, or one row
    saying its entity took none (or was out)."""
    out = {name for name, pools in report.pools if pools.out}
    rows: list[dict[str, Any]] = []
    for turn, name in enumerate(report.order, start=1):
        own = [
            {**_entry(e, disclosure), "idle": False}
            for e in report.entries
            if e.record.turn == turn
        ]
        rows += own or [{"turn": turn, "actor": name, "idle": True, "out": name in out}]
    return rows


def markhor_view(report: MarkhorReport | None, disclosure: Disclosure) -> dict[str, Any] | None:
    """The Markhorspire part of a summary, or None when the round had none."""
    if report is None:
        return None
    battle = report.mode == "battle"
    fates = dict(report.fallen)
    return {
        "mode": report.mode,
        "initiative": [_initiative(r, battle=battle, disclosure=disclosure)
                       for r in report.initiative],
        "initiative_rolls": [roll_view(r) for r in report.initiative_rolls],
        "order": list(report.order),
        "entries": [_entry(e, disclosure) for e in report.entries],
        "turns": _turns(report, disclosure),
        "pools": [
            {"name": name, "out": p.out, "fate": fates.get(name),
             "hp": disclosure.number(name, p.hp), "wp": disclosure.number(name, p.wp)}
            for name in report.order for who, p in report.pools if who == name
        ],
        "ended": report.ended,
        "fallen": [{"name": name, "fate": fate} for name, fate in report.fallen],
    }  # fmt: skip
