"""Distat's sections of the JSON ledger (SPEC §5, a contract: keys and order stay as they are):
each resolved action of a round, and each character's Body, Mind, group and restraint."""

from __future__ import annotations

from typing import Any

from jinja2 import Environment

from pbp.render.plain import plain
from pbp.rulesets.distat.engine.model import ActionEntry
from pbp.rulesets.distat.rules import CharacterView, StatView


def _reason(entry: ActionEntry, env: Environment) -> str | None:
    """Why an action did nothing, in the words of the summary."""
    violation = entry.record.reason
    if violation is None:
        return None
    template = env.get_template("_macros.md.j2")
    return str(template.module.reason(violation)).strip()  # type: ignore[attr-defined]


def ledger_action(entry: ActionEntry, env: Environment) -> dict[str, Any]:
    """One resolved Distat action as the ledger lists it."""
    r = entry.record
    return {
        "post": entry.post_id,
        "author": entry.author,
        "tag": entry.tag,
        "actor": r.actor,
        "on_behalf": entry.on_behalf,
        "verb": r.verb,
        "maneuver": r.maneuver,
        "target": r.target,
        "stat": r.stat,
        "active": r.active,
        "passive": r.passive,
        "outcome": r.outcome,
        "damage": [
            {"character": d.character, "stat": d.stat, "amount": d.amount} for d in r.damage
        ],
        "reason": _reason(entry, env),
        "talent": r.talent,
        "effects": plain(r.effects),
    }


def ledger_character(view: CharacterView) -> dict[str, Any]:
    """One character of the scene as the ledger lists it."""

    def stat(s: StatView) -> dict[str, int]:
        return {"full": s.full, "damage": s.damage, "eav": s.eav, "epv": s.epv}

    restrained = None
    if view.restrained is not None:
        r = view.restrained
        restrained = {"by": r.by, "stat": r.stat, "rounds": r.rounds}
    return {
        "side": view.side,
        "group": view.group,
        "status": view.status,
        "body": stat(view.body),
        "mind": stat(view.mind),
        "restrained": restrained,
        "bonus_pool": view.bonus_pool,
    }
