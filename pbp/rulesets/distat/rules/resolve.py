"""Carrying out an intent: validate again, then resolve (SPEC §4 step 4)."""

from __future__ import annotations

from pbp.rulesets.distat.rules.effects import Effect, Escaped
from pbp.rulesets.distat.rules.fighter import eav
from pbp.rulesets.distat.rules.guards import feat_tn
from pbp.rulesets.distat.rules.identify import run_identify
from pbp.rulesets.distat.rules.intents import (
    Attack,
    Escape,
    Feat,
    Identify,
    Intent,
    Move,
    Pass,
    Restrain,
    Split,
    Stat,
    UseTalent,
)
from pbp.rulesets.distat.rules.movement import run_move
from pbp.rulesets.distat.rules.opposed import (
    Clash,
    note_defence,
    run_clash,
    spend_bonus,
    verb_of,
    wins,
)
from pbp.rulesets.distat.rules.records import CheckRecord, Verb
from pbp.rulesets.distat.rules.scene import DistatScene, fighter, put
from pbp.rulesets.distat.rules.split import maneuver_of, run_split, void_part
from pbp.rulesets.distat.rules.validate import slots_used, validate
from pbp.rulesets.distat.rules.values import defence
from pbp.rulesets.distat.rules.violations import Violation
from pbp.values import replace

Result = tuple[DistatScene, tuple[CheckRecord, ...]]


def resolve(scene: DistatScene, intent: Intent) -> Result:
    """Carry out ``intent`` against the scene as it stands now.

    An intent that became impossible gives void record(s) with the violation as reason (a
    split: one per part). Any intent of a restrained character counts as its turn after the
    restraint, even a void one (RULES D9).
    """
    slots = slots_used(scene, intent)
    problems = validate(scene, intent)
    if problems:
        records = void_records(intent, problems[0])
    else:
        scene, records = _carry_out(scene, intent)
    scene = _took_turn(scene, intent.actor)
    if "mental" in slots and any(r.outcome != "void" for r in records):
        scene = replace(scene, mental_this_round=scene.mental_this_round | {intent.actor})
    return scene, records


def _carry_out(scene: DistatScene, intent: Intent) -> Result:
    match intent:
        case Move():
            scene, record = run_move(scene, intent)
        case Attack() | Restrain() | UseTalent():
            scene, record = run_clash(
                scene,
                Clash(
                    actor=intent.actor,
                    stat=intent.stat,
                    target=intent.target,
                    maneuver=maneuver_of(intent),
                    base=eav(fighter(scene, intent.actor), intent.stat),
                    bonus=intent.bonus,
                    talent=intent.talent,
                ),
            )
        case Escape():
            scene, record = _escape(scene, intent)
        case Feat():
            scene, record = _feat(scene, intent)
        case Split():
            return run_split(scene, intent)
        case Identify():
            scene, record = run_identify(scene, intent)
        case Pass():
            record = CheckRecord(
                actor=intent.actor,
                verb="pass",
                maneuver=None,
                target=None,
                stat=None,
                active=None,
                passive=None,
                outcome="success",
            )
    return scene, (record,)


def _took_turn(scene: DistatScene, name: str) -> DistatScene:
    f = next((f for f in scene.fighters if f.name == name), None)
    if f is None or f.restraint is None or not f.restraint.pending:
        return scene
    return put(scene, replace(f, restraint=replace(f.restraint, pending=False)))


def _escape(scene: DistatScene, intent: Escape) -> tuple[DistatScene, CheckRecord]:
    """Body EAV vs the restrainer's Body EPV; success ends the restraint (RULES D9)."""
    restraint = fighter(scene, intent.actor).restraint
    assert restraint is not None
    scene, effects = spend_bonus(scene, intent.actor, intent.bonus)
    active = eav(fighter(scene, intent.actor), "body") + intent.bonus
    d = defence(
        scene, defender=restraint.by, stat="body", maneuver="escape", initiator=intent.actor
    )
    scene, noted = note_defence(scene, restraint.by, "body", d)
    all_effects: list[Effect] = [*effects, *noted]
    success = wins(active=active, passive=d.value, defence_fails=d.auto_fail)
    if success:
        scene = put(scene, replace(fighter(scene, intent.actor), restraint=None))
        all_effects.append(Escaped(character=intent.actor, by=restraint.by))
    return scene, CheckRecord(
        actor=intent.actor,
        verb="physical",
        maneuver="escape",
        target=None,
        stat="body",
        active=active,
        passive=d.value,
        outcome="success" if success else "failure",
        effects=tuple(all_effects),
    )


def _feat(scene: DistatScene, intent: Feat) -> tuple[DistatScene, CheckRecord]:
    """A stat check: EAV (+ bonus) must exceed the target number (RULES D19)."""
    tn = feat_tn(scene, intent)
    scene, effects = spend_bonus(scene, intent.actor, intent.bonus)
    active = eav(fighter(scene, intent.actor), intent.stat) + intent.bonus
    return scene, CheckRecord(
        actor=intent.actor,
        verb=verb_of(intent.stat),
        maneuver="feat",
        target=intent.feature,
        stat=intent.stat,
        active=active,
        passive=tn,
        outcome="success" if active > tn else "failure",
        effects=tuple(effects),
    )


def void_records(intent: Intent, reason: Violation) -> tuple[CheckRecord, ...]:
    """The void record(s) of an intent that could not be carried out."""
    match intent:
        case Split():
            return tuple(void_part(p, reason) for p in intent.parts)
        case Attack() | Restrain() | UseTalent():
            return (void_part(intent, reason),)
        case Escape():
            return (_void(intent.actor, "physical", "escape", None, "body", reason),)
        case Feat():
            return (
                _void(
                    intent.actor, verb_of(intent.stat), "feat", intent.feature, intent.stat, reason
                ),
            )
        case Move():
            return (_void(intent.actor, "move", None, intent.target, intent.stat, reason),)
        case Identify():
            return (_void(intent.actor, "identify", None, intent.target, None, reason),)
        case Pass():
            return (_void(intent.actor, "pass", None, None, None, reason),)


def _void(
    actor: str,
    verb: Verb,
    maneuver: str | None,
    target: str | None,
    stat: Stat | None,
    reason: Violation,
) -> CheckRecord:
    return CheckRecord(
        actor=actor,
        verb=verb,
        maneuver=maneuver,
        target=target,
        stat=stat,
        active=None,
        passive=None,
        outcome="void",
        reason=reason,
    )
