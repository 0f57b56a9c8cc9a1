"""Movement: joining a group, standing alone, Threatened and time-constraint checks
(RULES D9, D10, D11, D12)."""

from __future__ import annotations

from pbp.rulesets.distat.rules.effects import Effect, JoinedGroup, ThreatenedCheck
from pbp.rulesets.distat.rules.fighter import Fighter, eav, ev
from pbp.rulesets.distat.rules.guards import actor_problems
from pbp.rulesets.distat.rules.intents import Move, Stat
from pbp.rulesets.distat.rules.opposed import note_defence, wins
from pbp.rulesets.distat.rules.records import CheckRecord
from pbp.rulesets.distat.rules.scene import (
    DistatScene,
    Feature,
    fighter,
    find_feature,
    find_fighter,
    group,
    group_of_target,
    is_member,
    join,
    members,
    same_group,
    stand_alone,
)
from pbp.rulesets.distat.rules.talents import count, situational
from pbp.rulesets.distat.rules.values import (
    adjacent_allies,
    adjacent_enemies,
    defence,
    eav_in_scene,
    epv_in_scene,
)
from pbp.rulesets.distat.rules.violations import (
    AlreadyInGroup,
    MoveAfterRestrain,
    Restrained,
    SelfTarget,
    UnknownName,
    Violation,
)

Outcome = tuple[Stat, int, int, bool]
"""A check a move made: (stat, active, passive, success)."""


def move_problems(scene: DistatScene, move: Move) -> list[Violation]:
    """A move needs a free, not-Out mover and somewhere else to go (RULES D9, D11)."""
    found = actor_problems(scene, move.actor)
    if found:
        return found
    f = fighter(scene, move.actor)
    if f.restraint is not None:
        found.append(Restrained(actor=f.name, kind=f.restraint.stat))  # incapacitated
    if f.name in scene.restrained_this_round:
        found.append(MoveAfterRestrain(actor=f.name))
    if move.target is None:
        if len(members(scene, group(scene, f.name))) == 1:
            found.append(AlreadyInGroup(actor=f.name, target=None))
    elif not is_member(scene, move.target):
        found.append(UnknownName(name=move.target))
    elif move.target == f.name:
        found.append(SelfTarget(actor=f.name))
    elif same_group(scene, f.name, move.target):
        found.append(AlreadyInGroup(actor=f.name, target=move.target))
    return found


def constraint_of(scene: DistatScene, move: Move) -> Feature | None:
    """The feature with a time constraint this move goes to, if any (RULES D12)."""
    if move.target is None:
        return None
    feature = find_feature(scene, move.target)
    return feature if feature is not None and feature.constraint is not None else None


def spends_physical(scene: DistatScene, move: Move) -> bool:
    """Whether the move spends the Physical action: a time constraint, not Fleet-footed."""
    mover = find_fighter(scene, move.actor)
    fleet = mover is not None and count(mover.talents, "fleetfooted") > 0
    return constraint_of(scene, move) is not None and not fleet


def default_stat(f: Fighter) -> Stat:
    """The stat with the higher EAV (Body on a tie) for a Threatened check (RULES D10)."""
    return "body" if eav(f, "body") >= eav(f, "mind") else "mind"


def threatener(scene: DistatScene, mover: str, stat: Stat) -> Fighter | None:
    """The enemy the mover must beat to leave, or None when no check is needed (RULES D10).

    Candidates: adjacent, not Out, not restrained enemies (everyone is aware). None when the
    mover's allies in the group outnumber its enemies there.
    """
    enemies = adjacent_enemies(scene, mover)
    if len(adjacent_allies(scene, mover)) > len(enemies):
        return None
    able = [e for e in enemies if e.restraint is None]
    if not able:
        return None
    return max(able, key=lambda e: epv_in_scene(scene, e.name, stat))


def threatened_check(
    scene: DistatScene, mover: str, stat: Stat, by: Fighter
) -> tuple[DistatScene, Outcome, list[Effect]]:
    """The Threatened check: +1 per adjacent ally on each side, Mobile and Controller."""
    me = fighter(scene, mover)
    bonus = situational(me.talents, "mobile") + len(adjacent_allies(scene, mover))
    active = eav_in_scene(scene, mover, stat, per_check=bonus)
    d = defence(
        scene,
        defender=by.name,
        stat=stat,
        maneuver="threaten",
        initiator=mover,
        extra=len(adjacent_allies(scene, by.name)),
    )
    scene, effects = note_defence(scene, by.name, stat, d)
    success = ev(me, stat) > 0 and wins(active=active, passive=d.value, defence_fails=d.auto_fail)
    return scene, (stat, active, d.value, success), effects


def constraint_check(scene: DistatScene, mover: str, feature: Feature) -> Outcome:
    """Reaching a time-constrained feature: Body EAV vs its constraint (RULES D12)."""
    assert feature.constraint is not None
    me = fighter(scene, mover)
    active = eav_in_scene(scene, mover, "body")
    return (
        "body",
        active,
        feature.constraint,
        ev(me, "body") > 0 and wins(active=active, passive=feature.constraint),
    )


def run_move(scene: DistatScene, move: Move) -> tuple[DistatScene, CheckRecord]:
    """Carry out a valid move: Threatened check, time-constraint check, then join."""
    effects: list[Effect] = []
    checked: Outcome | None = None
    stat = move.stat or default_stat(fighter(scene, move.actor))
    by = threatener(scene, move.actor, stat)
    feature = constraint_of(scene, move)
    if by is not None:
        scene, checked, noted = threatened_check(scene, move.actor, stat, by)
        effects += noted
        if checked[3] and feature is not None:
            # the record carries the time-constraint check; this one goes into the effects
            effects.append(
                ThreatenedCheck(
                    character=move.actor,
                    by=by.name,
                    stat=checked[0],
                    active=checked[1],
                    passive=checked[2],
                    success=True,
                )
            )
    threat = by is not None  # whether the record's check is the Threatened one
    if feature is not None and (checked is None or checked[3]):
        checked = constraint_check(scene, move.actor, feature)
        threat = False
    success = checked is None or checked[3]
    if success:
        scene, gid = arrive(scene, move)
        effects.append(JoinedGroup(character=move.actor, group=gid, target=move.target))
    return scene, CheckRecord(
        actor=move.actor,
        verb="move",
        maneuver=None,
        target=move.target,
        stat=checked[0] if checked else None,
        active=checked[1] if checked else None,
        passive=checked[2] if checked else None,
        outcome="success" if success else "failure",
        effects=tuple(effects),
        against=by.name if threat and by is not None else None,  # whose passive it is
    )


def arrive(scene: DistatScene, move: Move) -> tuple[DistatScene, str]:
    """The mover where the move takes it (its target's group, or alone), with no check: a
    move made, or one declared (RULES §6: read-time checks see what was declared)."""
    if move.target is None:
        return stand_alone(scene, move.actor)
    scene, gid = group_of_target(scene, move.target)
    return join(scene, move.actor, gid), gid
