"""Abstract tags into intents, and the checks they get when read (SPEC §2.2, §4.2).

A tag the close would refuse is refused now: a task already done, a second skill roll in the
same interval, a bailiwick that is no bailiwick skill, a modifier beyond any real character.
"""

from __future__ import annotations

from pbp.engine.actors import Actor
from pbp.engine.pending import Pending
from pbp.engine.problems import ActionUsed
from pbp.engine.state import Accepted
from pbp.errors import Problem
from pbp.rulesets.abstract.engine.model import (
    AbstractAction,
    AbstractIntent,
    AbstractState,
    ReactionRoll,
)
from pbp.rulesets.abstract.engine.refusals import (
    AbstractRefused,
    ModifierTooLarge,
    NoTask,
    NotBailiwick,
    TaskDone,
)
from pbp.rulesets.abstract.rules.pool import MAX_MODIFIER
from pbp.rulesets.abstract.tags import AbstractTag, ReactionTag
from pbp.tags.registry import Tag
from pbp.values import replace

# RULES §2.1 [SRC Bailiwick]: the six bailiwick skills
BAILIWICK_SKILLS = ("Divinity", "Naturalism", "Reason", "Spellcraft", "Spycraft", "Warfare")
ABSTRACT_SLOT = "abstract"
REACTION_SLOT = "reaction"


def intent_of(tag: Tag, *, actor: str) -> AbstractIntent | None:
    """The abstract intent of a tag acting for ``actor`` (None: not an abstract tag)."""
    match tag:
        case AbstractTag():
            return AbstractAction(
                actor=actor,
                task=tag.task,
                skill=tag.skill,
                modifier=tag.modifier if tag.modifier is not None else 0,  # a spell: none
                source=tag.skill_source.value,
                payment=tag.payment.kind.value,
                amount=tag.payment.amount,
            )
        case ReactionTag():
            return ReactionRoll(actor=actor)
    return None


def _at(refused: AbstractRefused, tag: Tag) -> AbstractRefused:
    src = tag.source
    return replace(refused, tag=src.text, line=src.line, column=src.column)


def _action_problem(intent: AbstractAction, abstract: AbstractState) -> AbstractRefused | None:
    task = abstract.task(intent.task)
    if task is None:  # the parser knows the tasks; a task dropped since is refused here
        return NoTask(tag="", task=intent.task)
    if task.done_by is not None:
        return TaskDone(tag="", task=task.name, by=task.done_by)
    if intent.source == "bailiwick" and (intent.skill or "").casefold() not in {
        s.casefold() for s in BAILIWICK_SKILLS
    }:
        return NotBailiwick(tag="", skill=intent.skill or "", skills=BAILIWICK_SKILLS)
    if abs(intent.modifier) > MAX_MODIFIER:
        return ModifierTooLarge(tag="", modifier=intent.modifier, most=MAX_MODIFIER)
    return None


def check_abstract_tag(
    *, tag: Tag, actor: Actor, abstract: AbstractState, pending: Pending
) -> Accepted | Problem:
    """Accept an abstract tag for ``actor`` or say why the rules refuse it."""
    intent = intent_of(tag, actor=actor.name)
    assert intent is not None  # the caller routes only abstract tags here
    # RULES E10: one skill roll (and one Reaction Die) per character per interval
    slot = ABSTRACT_SLOT if isinstance(intent, AbstractAction) else REACTION_SLOT
    used = pending.slots.get(actor.name, {})
    if slot in used:
        src = tag.source
        return ActionUsed(
            tag=src.text, line=src.line, column=src.column,
            actor=actor.name, slot=slot, by_post=used[slot],
        )  # fmt: skip
    if isinstance(intent, AbstractAction):
        problem = _action_problem(intent, abstract)
        if problem is not None:
            return _at(problem, tag)
    return Accepted(
        tag=tag,
        intent=intent,
        actor=actor.name,
        on_behalf=actor.on_behalf,
        slots=frozenset({slot}),
        bonus=0,
    )
