"""The rulesets a scene runs, behind one interface, by scene kind: which tags each reads and
how it checks one when it is read (SPEC §4.2). ``reading.check_tags`` calls through here and
names no ruleset; ``render.scene_views.SCENES`` is the same registry for what ``!status``,
``!sheet`` and a summary show. Resolution at the close (``rounds.resolve``), ``!undo`` and the
ledger still switch by scene kind by hand: they are the next to move behind this interface.

A ruleset's check sees a ``TagContext``: the campaign, the Distat scene (it holds the roster
and groups every scene uses), what earlier tags of the round took (``Pending``), and the state
of each path. ``[roll:]`` reads in every scene: it is the d20 path's, common to all.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from pbp.campaign.model import Campaign
from pbp.engine.abstract_model import AbstractState
from pbp.engine.abstract_tags import ABSTRACT_TAGS, check_abstract_tag
from pbp.engine.actors import Actor
from pbp.engine.d20_model import D20State
from pbp.engine.d20_tags import D20_TAGS, check_d20_tag
from pbp.engine.distat_tags import Pending, check_tag
from pbp.engine.markhor_model import MarkhorState
from pbp.engine.markhor_tags import MARKHOR_TAGS, check_markhor_tag
from pbp.engine.state import Accepted
from pbp.errors import Problem
from pbp.rules.distat import DistatScene
from pbp.tags.model import ActionTag, IdentifyTag, MoveTag, PassTag, RollTag, SceneKind, Tag


@dataclass(frozen=True, slots=True, kw_only=True)
class TagContext:
    """What checking one tag may look at."""

    campaign: Campaign
    scene: DistatScene
    pending: Pending
    d20: D20State
    abstract: AbstractState
    markhor: MarkhorState
    scores: Callable[[str], Mapping[str, int | None]]


Check = Callable[[Tag, Actor, TagContext], Accepted | Problem]


@dataclass(frozen=True, slots=True, kw_only=True)
class Ruleset:
    """One ruleset: the tags it reads, whether their numbers may come from the sheets, and
    its read-time check."""

    name: str
    tags: tuple[type, ...]
    check: Check
    sheets: bool = False  # numbers a tag leaves out are the sheets' (engine.sheets)


def _distat(tag: Tag, actor: Actor, ctx: TagContext) -> Accepted | Problem:
    return check_tag(scene=ctx.scene, tag=tag, actor=actor, pending=ctx.pending)


def _d20(tag: Tag, actor: Actor, ctx: TagContext) -> Accepted | Problem:
    return check_d20_tag(tag=tag, actor=actor, campaign=ctx.campaign, d20=ctx.d20,
                         pending=ctx.pending)


def _abstract(tag: Tag, actor: Actor, ctx: TagContext) -> Accepted | Problem:
    return check_abstract_tag(tag=tag, actor=actor, abstract=ctx.abstract, pending=ctx.pending)


def _markhor(tag: Tag, actor: Actor, ctx: TagContext) -> Accepted | Problem:
    stamina = ctx.scores(actor.name).get("stamina") or 0
    return check_markhor_tag(tag=tag, actor=actor, markhor=ctx.markhor, pending=ctx.pending,
                             stamina=stamina)


DISTAT = Ruleset(name="distat", tags=(MoveTag, ActionTag, IdentifyTag, PassTag), check=_distat)
D20 = Ruleset(name="d20", tags=D20_TAGS, check=_d20, sheets=True)
ABSTRACT = Ruleset(name="abstract", tags=ABSTRACT_TAGS, check=_abstract, sheets=True)
MARKHOR = Ruleset(name="markhor", tags=MARKHOR_TAGS, check=_markhor)

RULESETS: dict[SceneKind, Ruleset] = {
    SceneKind.DISTAT: DISTAT,
    SceneKind.D20: D20,
    SceneKind.ABSTRACT: ABSTRACT,
    SceneKind.SKIRMISH: MARKHOR,
    SceneKind.BATTLE: MARKHOR,
}
COMMON = Ruleset(name="common", tags=(RollTag,), check=_d20)  # SPEC §2: every scene rolls


def ruleset_for(tag: Tag, kind: SceneKind) -> Ruleset | None:
    """The ruleset that reads ``tag`` in a scene of ``kind`` (None: this scene reads it not)."""
    if isinstance(tag, COMMON.tags):
        return COMMON
    own = RULESETS[kind]
    return own if isinstance(tag, own.tags) else None
