"""View models: the facts of a reply as plain values a template can show.

``hide-npcs`` (SPEC §4.5) is applied here: NPC numbers and the names of talents that nobody in
the party has identified become ``None``, which the templates show as ``?``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pbp.campaign.model import Campaign
from pbp.engine.report import ActionEntry, RoundReport
from pbp.render import registry
from pbp.rules import distat
from pbp.rules.distat import CharacterView, DistatScene
from pbp.rules.distat.scene import Knowledge


@dataclass(frozen=True, slots=True, kw_only=True)
class Disclosure:
    """What players may see: NPC numbers and talent names under ``hide-npcs``."""

    hide: bool
    npcs: frozenset[str]
    known_talents: frozenset[tuple[str, str]]  # (user, talent) identified by a party member

    def number(self, owner: str | None, value: int | None) -> int | None:
        """A number of ``owner``'s, or None when it is hidden."""
        return None if self.hide and owner in self.npcs else value

    def talent(self, owner: str, talent: str | None) -> str | None:
        """A talent name of ``owner``'s, or None while nobody in the party has identified it."""
        if talent is None or not self.hide or owner not in self.npcs:
            return talent
        return talent if (owner, talent.casefold()) in self.known_talents else None


def disclosure_for(
    campaign: Campaign, identified: frozenset[Knowledge], npcs: frozenset[str]
) -> Disclosure:
    """What the players may see, given what the scene records as identified (observer, target,
    talent): its size depends on the talents identified, not on the rounds played."""
    known = {
        (target, talent.casefold()) for observer, target, talent in identified
        if observer not in npcs
    }
    return Disclosure(
        hide=campaign.visibility == "hide-npcs", npcs=npcs, known_talents=frozenset(known)
    )


def _effect(effect: Any, disclosure: Disclosure) -> dict[str, Any]:
    facts = {k: getattr(effect, k) for k in getattr(effect, "__dataclass_fields__", {})}
    if effect.code == "threatened_check":  # each side's number is its owner's
        facts["active"] = disclosure.number(facts["character"], facts["active"])
        facts["passive"] = disclosure.number(facts["by"], facts["passive"])
    return {"code": effect.code, **facts}


def _passive_owner(entry: ActionEntry) -> str | None:
    """Whose number the passive side of a record is: the target's, the threatening enemy's
    for a move, nobody's for a target number (feats, Identify)."""
    r = entry.record
    if r.verb == "move":  # a Threatened check's passive is the threatener's, a constraint no one's
        return r.against
    if r.verb == "identify" or r.maneuver == "feat":
        return None
    return r.target


def _talent_shown(r: Any, disclosure: Disclosure) -> str | None:
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
        "reason": r.reason,
        "talent": _talent_shown(r, disclosure),
        "effects": [_effect(e, disclosure) for e in r.effects],
    }


def _restraint_lasts(action: dict[str, Any], report: RoundReport) -> dict[str, Any]:
    """A restraint's rounds as it turned out (RULES D9): it covers the next round only if its
    target took no turn after it, which the round's end knows, not the moment it landed."""
    for effect in action["effects"]:
        if effect["code"] != "restrained":
            continue
        left = next((c.restrained for c in report.characters
                     if c.name == effect["character"]), None)
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
            [f"with {', '.join(others)}"] if others else [])
        labels[name] = ", ".join(parts) or "alone"
    return labels


def character_row(view: CharacterView, disclosure: Disclosure,
                  labels: dict[str, str] | None = None) -> dict[str, Any]:
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


def summary_view(
    report: RoundReport,
    *,
    campaign: Campaign,
    disclosure: Disclosure,
    seed: str | None,
    next_seal: str | None,
    labels: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Everything the summary template shows."""
    return {
        "campaign": campaign.name,
        "number": report.number,
        "scene": report.scene,
        "closed_by": report.closed_by,
        "closed_at": _when(report.closed_at),
        "actions": [_restraint_lasts(action_view(a, disclosure), report)
                    for a in report.actions],
        **_parts(report, disclosure),
        "corrections": [
            {
                "character": c.character,
                "what": c.what,
                "stat": c.stat,
                "amount": disclosure.number(c.character, c.amount),
                "after": disclosure.number(c.character, c.after),
                "became": c.became,
            }
            for c in report.corrections
        ],
        "recovered": [r for r in report.recovered
                      if disclosure.number(r.character, 0) is not None],
        "rejected": report.rejected,
        "characters": [character_row(c, disclosure, labels) for c in report.characters],
        "not_acted": report.not_acted,
        "late_edits": report.late_edits,
        "next_round": report.next_round,
        "next_deadline": _when(report.next_deadline) if report.next_deadline else None,
        "notes": report.notes,
        "seed": seed,
        "next_seal": next_seal,
    }


def _parts(report: RoundReport, disclosure: Disclosure) -> dict[str, Any]:
    """Each ruleset's part of the summary (render.registry): its values, the sections that
    show, their rolls, and whether one of them shows the scene."""
    values: dict[str, Any] = {}
    shown = []
    for views in registry.ALL:
        own = views.summary(report, hide=disclosure.hide, npcs=disclosure.npcs)
        values.update(own)
        if views.section is not None and views.present(own):
            shown.append((views, own))
    return {
        **values,
        "sections": [views.section for views, _ in shown],
        "section_rolls": [r for views, own in shown for r in views.rolls(own)],
        "own_scene": any(views.shows_scene for views, _ in shown),
    }


def _when(at: datetime) -> str:
    return at.strftime("%Y-%m-%d %H:%M UTC")
