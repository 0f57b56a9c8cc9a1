"""The engine's state: the campaign, the scene, the open round and the closed ones."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from pbp.campaign.model import Campaign
from pbp.engine.abstract_model import AbstractIntent, AbstractState
from pbp.engine.d20_model import D20Intent, D20State
from pbp.engine.markhor_model import Course, MarkhorState
from pbp.engine.report import Done, RoundReport
from pbp.errors import Problem
from pbp.rules.distat import DistatScene
from pbp.rules.distat.intents import Intent
from pbp.tags import ParsedPost, ReadContext
from pbp.tags.commands import Command
from pbp.tags.model import SceneKind, Tag

SCORE_KEYS = ("constitution", "wisdom", "intuition", "hp", "wp", "stamina", "dice_pool")


@dataclass(frozen=True, slots=True, kw_only=True)
class Accepted:
    """A tag that passed its checks: who acts, and what it means in the rules' terms."""

    tag: Tag
    intent: Intent | D20Intent | AbstractIntent | Course
    actor: str
    on_behalf: bool
    slots: frozenset[str]
    bonus: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Reading:
    """A post version as the reader parsed it, and the names it was read against: the parse
    is reused for as long as the scene's names stay the same."""

    context: ReadContext
    parsed: ParsedPost


@dataclass(frozen=True, slots=True, kw_only=True)
class PostRecord:
    """A post of the open round (or of a closed one, kept for ``!undo``).

    ``body`` is the version current now; ``commands`` were read from the first version (a
    command acts once). ``accepted`` and ``problems`` are the verdicts of the last check of its
    tags; ``command_problems`` those of its command lines, read once. ``reading`` is the
    current version's parse (None once the post is deleted).
    """

    post_id: str
    author: str
    gm: bool
    at: datetime
    order: int
    body: str
    commands: tuple[Command, ...] = ()
    accepted: tuple[Accepted, ...] = ()
    problems: tuple[Problem, ...] = ()
    command_problems: tuple[Problem, ...] = ()
    reading: Reading | None = None
    deleted: bool = False
    edited: bool = False
    error_replied: bool = False
    voided_by: str | None = None

    @property
    def live(self) -> bool:
        """Whether the post still counts (not deleted, not struck by ``!void``)."""
        return not self.deleted and self.voided_by is None


@dataclass(frozen=True, slots=True, kw_only=True)
class OpenRound:
    """The round in progress. ``base`` is the scene as it stands: the scene the round opened
    with, plus the set-up commands read since (they act at once)."""

    number: int
    opened_at: datetime
    base: DistatScene
    start: DistatScene
    posts: tuple[PostRecord, ...] = ()
    setup: tuple[Command, ...] = ()
    deadline: datetime | None = None
    reminded: bool = False
    all_acted_told: bool = False
    done: tuple[Done, ...] = ()  # ack = none: the GM's commands acknowledged in the summary

    def post(self, post_id: str) -> PostRecord | None:
        """The post of this round with that id."""
        return next((p for p in self.posts if p.post_id == post_id), None)

    @property
    def has_actions(self) -> bool:
        """Whether any live post of the round holds an accepted tag."""
        return any(p.accepted for p in self.posts if p.live)


@dataclass(frozen=True, slots=True, kw_only=True)
class ClosedRound:
    """A closed round that ``!undo`` may still re-open: its report, and what re-opening
    needs."""

    report: RoundReport
    reopen: OpenRound
    scene_kind: SceneKind
    # the d20 scene's state when the round opened
    d20_before: D20State = field(default_factory=D20State)
    # the abstract scene's state when the round opened
    abstract_before: AbstractState = field(default_factory=AbstractState)
    markhor_before: MarkhorState = field(default_factory=MarkhorState)


@dataclass(frozen=True, slots=True, kw_only=True)
class EngineState:
    """Everything the engine knows about one thread."""

    campaign: Campaign
    scene_kind: SceneKind
    scene: DistatScene  # the scene after the last closed round (the open round's start)
    bot: str = ""
    ack: str = "errors"  # "errors" | "all" | "none" (SPEC §3)
    round: OpenRound | None = None
    # the closed rounds `!undo` can still reach: the last one, and the ones before it while
    # every later one had no action (older rounds live in the store, SPEC §5 ledger)
    closed: tuple[ClosedRound, ...] = ()
    closed_posts: frozenset[str] = frozenset()
    deadline_after: timedelta | None = None
    late_edits: tuple[str, ...] = ()
    posts_seen: int = 0
    # the d20 scene's state after the last closed round (pressure, pools, aid waiting)
    d20: D20State = field(default_factory=D20State)
    # the abstract scene's state (tasks, banks); ``!task`` changes it at once (set-up)
    abstract: AbstractState = field(default_factory=AbstractState)
    # a skirmish's or battle's state (initiative, pools) after the last closed round
    markhor: MarkhorState = field(default_factory=MarkhorState)
    # the sheet numbers `!npc` gave beyond Body and Mind (constitution, wisdom, hp …)
    npc_scores: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()
    # the players who asked `!ack on`: their accepted tags are confirmed (casefolded names)
    acks: frozenset[str] = frozenset()

    def confirms(self, author: str) -> bool:
        """Whether a good post of ``author`` gets a confirmation (SPEC §3: ack = all, or the
        player's own ``!ack on``)."""
        return self.ack == "all" or author.casefold() in self.acks

    def scores(self, name: str) -> dict[str, int | None]:
        """``name``'s Markhorspire and d20 numbers: the campaign sheet's, or what ``!npc`` gave."""
        sheet = self.campaign.character(name)
        found: dict[str, int | None] = {}
        if sheet is not None:
            found = {k: getattr(sheet, k) for k in SCORE_KEYS}
        for who, given in self.npc_scores:
            if who == name:
                found.update(given)
        return found
