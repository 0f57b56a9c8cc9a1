"""Identify: learning which talent a target used (RULES D13)."""

from __future__ import annotations

from pbp.rulesets.distat.rules.effects import Identified
from pbp.rulesets.distat.rules.guards import actor_problems
from pbp.rulesets.distat.rules.intents import Identify
from pbp.rulesets.distat.rules.records import CheckRecord
from pbp.rulesets.distat.rules.scene import DistatScene, fighter, find_fighter, is_member
from pbp.rulesets.distat.rules.talents import Talent, find, situational
from pbp.rulesets.distat.rules.values import eav_in_scene
from pbp.rulesets.distat.rules.violations import (
    NotACharacter,
    NothingToIdentify,
    SelfTarget,
    UnknownName,
    Violation,
)
from pbp.values import replace


def identify_tn(*, level: int, seen: int, owns: bool) -> int:
    """TN = 2·level − times seen, halved rounding up if the observer owns the talent, min 0."""
    tn = 2 * level - seen
    if owns:
        tn = -(-tn // 2)
    return max(0, tn)


def candidate(scene: DistatScene, observer: str, target: str) -> tuple[Talent, int] | None:
    """The most recent talent the observer saw ``target`` use and has not identified,
    with the times seen."""
    owner = find_fighter(scene, target)
    if owner is None:
        return None
    best: tuple[Talent, int, int] | None = None
    for (obs, tgt, name), (seen, seq) in scene.sightings.items():
        if obs != observer or tgt != target or (obs, tgt, name) in scene.identified:
            continue
        talent = find(owner.talents, name)
        if talent is not None and (best is None or seq > best[2]):
            best = (talent, seen, seq)
    return None if best is None else (best[0], best[1])


def identify_problems(scene: DistatScene, intent: Identify) -> list[Violation]:
    """Identify needs a not-Out observer and a seen, unidentified talent of the target."""
    found = actor_problems(scene, intent.actor)
    if found:
        return found
    if not is_member(scene, intent.target):
        return [UnknownName(name=intent.target)]
    if intent.target == intent.actor:
        return [SelfTarget(actor=intent.actor)]
    if find_fighter(scene, intent.target) is None:
        return [NotACharacter(target=intent.target)]
    if candidate(scene, intent.actor, intent.target) is None:
        return [NothingToIdentify(actor=intent.actor, target=intent.target)]
    return []


def run_identify(scene: DistatScene, intent: Identify) -> tuple[DistatScene, CheckRecord]:
    """A stat check of the talent's stat (+ Deduction) against the Identify TN (RULES D13)."""
    found = candidate(scene, intent.actor, intent.target)
    assert found is not None
    talent, seen = found
    me = fighter(scene, intent.actor)
    tn = identify_tn(level=talent.level, seen=seen, owns=find(me.talents, talent.name) is not None)
    active = eav_in_scene(
        scene, intent.actor, talent.stat, per_check=situational(me.talents, "deduction")
    )
    success = active > tn  # a stat check: a tie fails
    effects: tuple[Identified, ...] = ()
    if success:
        key = (intent.actor, intent.target, talent.name)
        scene = replace(scene, identified=scene.identified | {key})
        effects = (Identified(observer=intent.actor, target=intent.target, talent=talent.name),)
    return scene, CheckRecord(
        actor=intent.actor,
        verb="identify",
        maneuver=None,
        target=intent.target,
        stat=talent.stat,
        active=active,
        passive=tn,
        outcome="success" if success else "failure",
        talent=talent.name,
        effects=effects,
    )
