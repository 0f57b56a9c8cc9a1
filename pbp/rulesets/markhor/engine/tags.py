"""Skirmish and battle tags into courses of action, and the checks they get when read
(SPEC §2.4, §4.2): one course per turn in a skirmish, the action points of a battle turn, an out
character cannot act or be healed, a cast needs WP."""

from __future__ import annotations

from typing import Literal

from pbp.engine.actors import Actor
from pbp.engine.pending import Pending
from pbp.engine.state import Accepted
from pbp.errors import Problem
from pbp.rulesets.markhor.engine.model import (
    ActionPoint,
    Course,
    MarkhorSlot,
    MarkhorState,
    ReactionIn,
    TurnCourse,
)
from pbp.rulesets.markhor.engine.refusals import (
    ActorOut,
    AdvantageWithoutRoll,
    AmountInSkirmish,
    ApShort,
    MarkhorRefused,
    NoWpToCast,
    OneCoursePerTurn,
    OneReactionPerTurn,
    ReactionInSkirmish,
    SelfTarget,
    TargetOut,
)
from pbp.rulesets.markhor.rules.actions import action_points
from pbp.rulesets.markhor.tags import FORMATS, ActTag, CastTag, SkirmishAttackTag
from pbp.tags.registry import Tag
from pbp.values import replace

MAX_TURN_AP = 6  # the Actions page: AP on one's own turn cap out at 6


def intent_of(tag: Tag, *, actor: str) -> Course | None:
    """The course of action of a tag acting for ``actor`` (None: not a Markhorspire tag)."""
    match tag:
        case SkirmishAttackTag():
            return Course(actor=actor, verb="attack", target=tag.target, advantage=tag.advantage,
                          react=tag.react, amount=tag.amount)  # fmt: skip
        case CastTag():
            verb: Literal["heal", "cast"] = "heal" if tag.heal else "cast"
            return Course(actor=actor, verb=verb, target=tag.target, advantage=tag.advantage,
                          react=tag.react, amount=tag.amount)  # fmt: skip
        case ActTag():
            return Course(actor=actor, verb="act", text=tag.text, advantage=tag.advantage)
    return None


def _at(refused: MarkhorRefused, tag: Tag) -> MarkhorRefused:
    src = tag.source
    return replace(refused, tag=src.text, line=src.line, column=src.column)


def _course_problem(course: Course, markhor: MarkhorState) -> MarkhorRefused | None:
    if markhor.is_out(course.actor):  # the seed: characters out of combat have their turn skipped
        return ActorOut(tag="", actor=course.actor)
    if course.verb in ("attack", "cast") and course.target == course.actor:
        return SelfTarget(tag="", actor=course.actor, verb=course.verb)
    if course.target is not None and markhor.is_out(course.target):
        # RULES M3: out is permanent for the encounter; nothing more to take from them either
        return TargetOut(tag="", target=course.target)
    pools = markhor.pool(course.actor)
    if course.verb in ("cast", "heal") and pools is not None and pools.wp <= 0:
        return NoWpToCast(tag="", actor=course.actor)  # RULES M2
    if course.amount is not None and markhor.mode == "skirmish":  # RULES M2, M3 and §6
        return AmountInSkirmish(tag="", heal=course.verb == "heal")
    return None


def _ap_used(actor: str, pending: Pending) -> int:
    """The action points this round's accepted battle tags of ``actor`` already take."""
    return sum(1 for slot in pending.slots.get(actor, {}) if isinstance(slot, ActionPoint))


def _slot(course: Course, markhor: MarkhorState, pending: Pending) -> MarkhorSlot:
    """The slot a course takes: the turn's one course (skirmish), its next action point
    (battle), or one reaction in the target's turn."""
    if course.react:  # RULES M7: at most one reaction during any single turn
        return ReactionIn(target=course.target or "")
    if markhor.mode == "skirmish":  # the seed: one course of action per turn
        return TurnCourse()
    return ActionPoint(number=_ap_used(course.actor, pending) + 1)


def check_markhor_tag(
    *,
    tag: Tag,
    actor: Actor,
    markhor: MarkhorState,
    pending: Pending,
    stamina: int,
    post_id: str = "",
) -> Accepted | Problem:
    """Accept a skirmish or battle tag for ``actor`` or say why the rules refuse it."""
    course = intent_of(tag, actor=actor.name)
    assert course is not None  # the caller routes only Markhorspire tags here
    problem = _course_problem(course, markhor)
    if problem is None and course.advantage and markhor.call(post_id, actor.name) is None:
        # RULES M6, M9: no difficulty, no roll: advantage would roll dice for nothing
        fixed = FORMATS[type(tag)](replace(tag, advantage=0))
        problem = AdvantageWithoutRoll(
            tag="", actor=actor.name, post=post_id, fixed=fixed, advantage=course.advantage
        )
    if problem is not None:
        return _at(problem, tag)
    if course.react and markhor.mode != "battle":
        return _at(ReactionInSkirmish(tag=""), tag)
    budget = min(action_points(stamina=stamina), MAX_TURN_AP)
    if markhor.mode == "battle" and not course.react and _ap_used(actor.name, pending) >= budget:
        return _at(ApShort(tag="", actor=actor.name, budget=budget), tag)
    slot = _slot(course, markhor, pending)
    used = pending.slots.get(actor.name, {})
    if slot in used:
        kind = OneReactionPerTurn if course.react else OneCoursePerTurn
        return _at(kind(tag="", actor=actor.name, by_post=used[slot]), tag)
    return Accepted(
        tag=tag,
        intent=course,
        actor=actor.name,
        on_behalf=actor.on_behalf,
        slots=frozenset({slot}),
        bonus=0,
    )
