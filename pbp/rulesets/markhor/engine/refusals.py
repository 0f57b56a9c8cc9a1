"""Why the Markhorspire rules refuse a tag or command (RULES §4): one typed value per cause,
each with the facts its reply names and one template (templates/refusals/markhor/<cause>.md.j2).
Every one is a ``markhor_rule`` problem to the ledger (SPEC §5)."""

from __future__ import annotations

from typing import ClassVar

from pbp.errors import Problem
from pbp.values import frozen_value


@frozen_value
class MarkhorRefused(Problem):
    """A Markhorspire refusal; ``cause`` names its template."""

    code: ClassVar[str] = "markhor_rule"
    cause: ClassVar[str] = ""


@frozen_value
class ActorOut(MarkhorRefused):
    """The seed: a character out of combat has its turn skipped."""

    cause: ClassVar[str] = "actor_out"
    actor: str


@frozen_value
class SelfTarget(MarkhorRefused):
    """An attack or cast at oneself."""

    cause: ClassVar[str] = "self_target"
    actor: str
    verb: str


@frozen_value
class TargetOut(MarkhorRefused):
    """RULES M3: out is for the rest of the encounter."""

    cause: ClassVar[str] = "target_out"
    target: str


@frozen_value
class NoWpToCast(MarkhorRefused):
    """RULES M2: every cast costs 1 WP."""

    cause: ClassVar[str] = "no_wp_to_cast"
    actor: str


@frozen_value
class AmountInSkirmish(MarkhorRefused):
    """RULES M2, M3, §6: a skirmish hit takes 1 and a heal all HP; amounts are for battles."""

    cause: ClassVar[str] = "amount_in_skirmish"
    heal: bool


@frozen_value
class AdvantageWithoutRoll(MarkhorRefused):
    """RULES M6, M9: advantage changes a roll, and a course rolls only when the GM calls for
    one (``!difficulty``): no dice for a course that succeeds unrolled. ``fixed``: the tag
    without its ``adv`` or ``dis``."""

    cause: ClassVar[str] = "advantage_without_roll"
    actor: str
    post: str
    fixed: str
    advantage: int  # adv minus dis, as written


@frozen_value
class ReactionInSkirmish(MarkhorRefused):
    """RULES M7: reactions belong to battles."""

    cause: ClassVar[str] = "reaction_in_skirmish"


@frozen_value
class ApShort(MarkhorRefused):
    """RULES M7: the turn's action points (Stamina + 3, at most 6) are all used."""

    cause: ClassVar[str] = "ap_short"
    actor: str
    budget: int


@frozen_value
class OneCoursePerTurn(MarkhorRefused):
    """The seed: one course of action per skirmish turn."""

    cause: ClassVar[str] = "one_course_per_turn"
    actor: str
    by_post: str


@frozen_value
class OneReactionPerTurn(MarkhorRefused):
    """RULES M7: one reaction per character in any single turn."""

    cause: ClassVar[str] = "one_reaction_per_turn"
    actor: str
    by_post: str


@frozen_value
class NotFight(MarkhorRefused):
    """Difficulties and HP or WP corrections outside a skirmish or battle."""

    cause: ClassVar[str] = "not_fight"
    scene: str  # the scene kind the thread runs


@frozen_value
class NoSuchCourse(MarkhorRefused):
    """``!difficulty POST NAME N`` naming a character without a course in that post."""

    cause: ClassVar[str] = "no_such_course"
    post: str
    character: str
    actors: tuple[str, ...]
