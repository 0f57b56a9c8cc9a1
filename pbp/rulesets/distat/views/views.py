"""Distat's part of a summary and a reply: its resolved actions, where each character stands,
its rows of Body, Mind, restraint and bonus pool (under ``hide-npcs`` an NPC's numbers and
unidentified talents hidden)."""

from __future__ import annotations

from typing import Any

from pbp.render.disclosure import Disclosure, NpcNumbers
from pbp.rulesets.distat import rules as distat
from pbp.rulesets.distat.engine.model import ActionEntry
from pbp.rulesets.distat.rules import CharacterView, CheckRecord, DistatScene

# The actor's numbers in Distat's problems and violations (``render.disclosure``): a bonus
# pool, the cap on a check (half its maximum, from the points invested), an EAV a split
# overran and what it left for a part.
DISTAT_NPC_NUMBERS: NpcNumbers = {
    "bonus_budget": ("left",),
    "bonus_over_pool": ("pool",),
    "bonus_over_cap": ("cap",),
    "split_too_large": ("eav",),
    "split_part_too_large": ("available",),
}


def _effect(effect: Any, disclosure: Disclosure) -> dict[str, Any]:
    facts = {k: getattr(effect, k) for k in getattr(effect, "__dataclass_fields__", {})}
    if effect.code == "threatened_check":  # each side's number is its owner's
        facts["active"] = disclosure.number(facts["character"], facts["active"])
        facts["passive"] = disclosure.number(facts["by"], facts["passive"])
    elif effect.code == "bonus_spent":  # the points spent are the tag's; what is left, its own
        facts["pool"] = disclosure.number(facts["character"], facts["pool"])
    return {"code": effect.code, **facts}


def _passive_owner(entry: ActionEntry) -> str | None:
    """Whose number the passive side of a record is: the target's, the threatening enemy's
    for a move, nobody's for a feat's target number. An Identify's target number is the
    target's: it comes from the level of the talent observed (RULES D13), which an NPC's sheet
    keeps as it keeps its name."""
    r = entry.record
    if r.verb == "move":  # a Threatened check's passive is the threatener's, a constraint no one's
        return r.against
    if r.maneuver == "feat":
        return None
    return r.target


def _talent_shown(r: CheckRecord, disclosure: Disclosure) -> str | None:
    """A talent's name as players may read it: an NPC's only once the party identified it (an
    Identify that failed names nothing)."""
    if r.verb == "identify":
        return r.talent if r.outcome == "success" or not disclosure.hide else None
    return disclosure.talent(r.actor, r.talent)


def action_view(entry: ActionEntry, disclosure: Disclosure) -> dict[str, Any]:
    """One resolved action as the summary shows it."""
    r = entry.record
    return {
        "post": entry.post_id,
        "author": entry.author,
        "actor": r.actor,
        "on_behalf": entry.on_behalf,
        "tag": entry.tag,
        "verb": r.verb,
        "maneuver": r.maneuver,
        "target": r.target,
        "stat": r.stat,
        "active": disclosure.number(r.actor, r.active),
        "passive": disclosure.number(_passive_owner(entry), r.passive),
        "outcome": r.outcome,
        "damage": [
            {"character": d.character, "stat": d.stat, "amount": d.amount} for d in r.damage
        ],
        "reason": disclosure.hidden(DISTAT_NPC_NUMBERS).shown(r.reason),
        "talent": _talent_shown(r, disclosure),
        "effects": [_effect(e, disclosure) for e in r.effects],
    }


def restraint_lasts(
    action: dict[str, Any], characters: tuple[CharacterView, ...]
) -> dict[str, Any]:
    """A restraint's rounds as it turned out (RULES D9): it covers the next round only if its
    target took no turn after it, which the round's end knows, not the moment it landed."""
    for effect in action["effects"]:
        if effect["code"] != "restrained":
            continue
        left = next((c.restrained for c in characters if c.name == effect["character"]), None)
        held = left is not None and left.by == effect["by"] and left.stat == effect["stat"]
        effect["rounds"] = 1 + left.rounds if held and left is not None else 1
    return action


def group_labels(scene: DistatScene) -> dict[str, str]:
    """Where each character stands, in words: "at the Gate", "with Aria, Dax", "at the Gate,
    with Bram", or "alone" (the scene's group ids say nothing to players)."""
    members: dict[str, list[str]] = {}
    features = set(distat.feature_names(scene))
    for name in (*distat.names(scene), *sorted(features)):
        gid = scene.groups.get(name)
        if gid is not None:
            members.setdefault(gid, []).append(name)
    labels: dict[str, str] = {}
    for name in distat.names(scene):
        together = members.get(scene.groups.get(name, ""), [])
        at = [n for n in together if n in features]
        others = [n for n in together if n not in features and n != name]
        parts = ([f"at {', '.join(at)}"] if at else []) + (
            [f"with {', '.join(others)}"] if others else []
        )
        labels[name] = ", ".join(parts) or "alone"
    return labels


def character_row(
    view: CharacterView, disclosure: Disclosure, labels: dict[str, str] | None = None
) -> dict[str, Any]:
    """A row of the status table; ``labels`` say where each character stands."""
    hidden = disclosure.hide and view.name in disclosure.npcs
    return {
        "name": view.name,
        "npc": view.name in disclosure.npcs,
        "side": view.side,
        "group": (labels or {}).get(view.name, view.group),
        "status": view.status,
        "hidden": hidden,
        "body": None if hidden else view.body,
        "mind": None if hidden else view.mind,
        "restrained": view.restrained,
        "bonus_pool": None if hidden else view.bonus_pool,
    }
