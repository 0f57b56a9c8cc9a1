"""The engine's state: the campaign, the scene's roster (``engine.roster``), each ruleset's
own state, the open round and the closed ones."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TypeVar

from pbp.campaign.model import Campaign
from pbp.engine.done import Done
from pbp.engine.notes import Note
from pbp.engine.orders import StandingOrder
from pbp.engine.post_contents import PostContent
from pbp.engine.post_ids import PostIds
from pbp.engine.report import RoundReport
from pbp.engine.roster import Roster
from pbp.engine.slots import Slots
from pbp.engine.times import later
from pbp.errors import Problem
from pbp.tags import ParsedPost, ReadContext
from pbp.tags.commands import Command
from pbp.tags.model import SceneKind
from pbp.tags.registry import Tag
from pbp.values import fast_init, frozen_value, replace

T = TypeVar("T")


@frozen_value
class Accepted:
    """A tag that passed its checks: who acts, and what it means in the rules' terms."""

    tag: Tag
    intent: object  # the rules' intent of the ruleset that read it (its own type)
    actor: str
    on_behalf: bool
    slots: frozenset[Hashable]  # the action slots it takes, each its ruleset's own value
    bonus: int
    notes: tuple[Note, ...] = ()  # its ruleset's warnings on it (``Ruleset.notes``)


@frozen_value
class Reading:
    """A post version as the reader parsed it, and the names it was read against: the parse
    is reused for as long as the scene's names stay the same."""

    context: ReadContext
    parsed: ParsedPost


Before = tuple[tuple[str, tuple["Accepted", ...], tuple[Command, ...]], ...]
"""The live posts of a round before one post, in order: each one's id, accepted tags and
commands (what the round's tags already use, and the GM's grants before them, when that post
is checked)."""


@fast_init
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class Checked:
    """What a post's verdicts were read against: every input of the check beyond the post
    itself (``engine.reading.check_tags``). A verdict depends on nothing else, so the close
    keeps it while each of these is still the very same value (``holds``)."""

    reading: Reading
    scene: Roster
    kind: SceneKind
    rulesets: Slots
    campaign: Campaign
    npc_scores: tuple[tuple[str, tuple[tuple[str, int], ...]], ...]
    before: Before

    def holds(self, now: Checked) -> bool:
        """Whether ``now`` is what this check read: the same objects (never changed in place,
        each change is a new one) and the same earlier posts with the same accepted tags."""
        return (
            self.reading is now.reading
            and self.scene is now.scene
            and self.kind is now.kind
            and self.rulesets is now.rulesets
            and self.campaign is now.campaign
            and self.npc_scores is now.npc_scores
            and len(self.before) == len(now.before)
            and all(
                a == b and ours is theirs and said is says
                for (a, ours, said), (b, theirs, says) in zip(self.before, now.before, strict=True)
            )
        )


@frozen_value
class PostReply:
    """The bot's one reply under a post (``engine.post_reply``): the key it was first posted
    under, kept for good (the outbox and the forum find a reply by its key), and what it says
    now."""

    key: str
    content: PostContent


@frozen_value
class PostRecord:
    """A post of the open round (or of a closed one, kept for ``!undo``).

    ``body`` is the version current now; ``commands`` were read from the first version (a
    command acts once). ``accepted`` and ``problems`` are the verdicts of the last check of its
    tags; ``command_problems`` those of its command lines, read once. ``reading`` is the
    current version's parse (None once the post is deleted), ``checked`` what its tags were
    last checked against. ``reply`` is the bot's one reply under it (None: none yet);
    ``error_replied`` whether that reply has reported a problem this round (its re-reads).
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
    reply: PostReply | None = None
    voided_by: str | None = None
    # a standing order acting at the close: the id of the post that set it (``orders.HOLD``
    # for a campaign's default hold); None: a post of the forum
    standing: str | None = None
    checked: Checked | None = field(default=None, compare=False)

    @property
    def live(self) -> bool:
        """Whether the post still counts (not deleted, not struck by ``!void``)."""
        return not self.deleted and self.voided_by is None


@frozen_value
class OpenRound:
    """The round in progress. ``base`` is the scene as it stands: the scene the round opened
    with, plus the set-up commands read since (they act at once)."""

    number: int
    opened_at: datetime
    base: Roster
    start: Roster
    posts: tuple[PostRecord, ...] = ()
    setup: tuple[Command, ...] = ()
    deadline: datetime | None = None
    grace: timedelta | None = None  # how long the round waits past its deadline for the missing
    nudged: bool = False  # the deadline passed in grace: the missing players were told
    reminded: tuple[str, ...] = ()  # the reminder times (``RemindAt.text``) already sent
    all_acted_told: bool = False
    undone: bool = False  # re-opened by `!undo`: its next summary replaces the one it had
    done: tuple[Done, ...] = ()  # ack = none: the GM's commands acknowledged in the summary

    def post(self, post_id: str) -> PostRecord | None:
        """The post of this round with that id."""
        return next((p for p in self.posts if p.post_id == post_id), None)

    @property
    def has_actions(self) -> bool:
        """Whether any live post of the round holds an accepted tag."""
        return any(p.accepted for p in self.posts if p.live)

    @property
    def grace_until(self) -> datetime | None:
        """When the round's grace ends (None: it has no deadline, or no grace)."""
        if self.deadline is None or self.grace is None:
            return None
        return later(self.deadline, self.grace)


@frozen_value
class ClosedRound:
    """A closed round that ``!undo`` may still re-open: its report, and what re-opening
    needs."""

    report: RoundReport
    reopen: OpenRound
    scene_kind: SceneKind
    before: Slots = field(default_factory=Slots)  # each ruleset's state when the round opened


@frozen_value
class EngineState:
    """Everything the engine knows about one thread."""

    campaign: Campaign
    scene_kind: SceneKind
    scene: Roster  # the scene's roster after the last closed round (the open round's start)
    bot: str = ""
    ack: str = "errors"  # "errors" | "all" | "none" (SPEC §3)
    # user mentions one reply may carry that the forum still notifies (its ForumLimits,
    # passed in by the shell): the reminders are split by it, the all-acted reply cut to it
    mentions_per_post: int = 3
    round: OpenRound | None = None
    # the closed rounds `!undo` can still reach: the last one, and the ones before it while
    # every later one had no action (older rounds live in the store, SPEC §5 ledger)
    closed: tuple[ClosedRound, ...] = ()
    closed_posts: PostIds = field(default_factory=PostIds)  # every closed round's posts
    deadline_after: timedelta | None = None
    grace_after: timedelta | None = None  # each round's grace after its deadline (`!deadline`)
    # the standing orders (`!standing`), one per character at most, in the order they were set
    standing: tuple[StandingOrder, ...] = ()
    late_edits: tuple[str, ...] = ()
    posts_seen: int = 0
    # each ruleset's own state after the last closed round, by its type (engine.registry):
    # a d20 scene's pools, an abstract scene's tasks and banks, a fight's initiative and pools
    rulesets: Slots = field(default_factory=Slots)
    # the sheet numbers `!npc` gave beyond Body and Mind (constitution, wisdom, hp …)
    npc_scores: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()
    # the players who asked `!ack on`: their accepted tags are confirmed (casefolded names)
    acks: frozenset[str] = frozenset()
    # a campaign runs in one thread at a time (SPEC §1): the thread its characters came from,
    # and the one it moved to (this thread is then read no more)
    came_from: str | None = None
    moved_to: str | None = None
    sheet_round: int = 1  # the round whose seal the cheat sheet published (SheetPosted)

    def confirms(self, author: str) -> bool:
        """Whether a good post of ``author`` gets a confirmation (SPEC §3: ack = all, or the
        player's own ``!ack on``)."""
        return self.ack == "all" or author.casefold() in self.acks

    def slot(self, kind: type[T]) -> T:
        """A ruleset's state (a fresh one when it has none yet)."""
        found = self.rulesets.get(kind)
        return found if found is not None else kind()

    def with_slot(self, value: object) -> EngineState:
        """This state with a ruleset's state replaced."""
        return replace(self, rulesets=self.rulesets.put(value))

    def scores(self, name: str) -> dict[str, int | None]:
        """``name``'s numbers that scenes read by key (Markhorspire's scores, the d20 dice
        pool): each part of the campaign sheet's (``CharacterSheet.scores``), or what
        ``!npc`` gave."""
        sheet = self.campaign.character(name)
        found: dict[str, int | None] = sheet.scores() if sheet is not None else {}
        for who, given in self.npc_scores:
            if who == name:
                found.update(given)
        return found
