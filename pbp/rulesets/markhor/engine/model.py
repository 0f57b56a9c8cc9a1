"""The Markhorspire path of the engine (SPEC §2.4, RULES §4): intents, scene state, records.

Beside the Distat types, as the d20 and abstract paths are. A skirmish or battle tag becomes one
of the intents below when it is read; at the close the round resolves in initiative order (rolled
at the encounter's first close, with the round's own key) and leaves a :class:`MarkhorRecord` per
tag. Skirmish pools are abstract and dismissed at the end (RULES M8); a battle works on the real
HP and WP of the sheet.
"""

from __future__ import annotations

from dataclasses import field
from typing import Literal

from pbp.rules.dice.seeded import RollRecord
from pbp.rulesets.markhor.rules.actions import TurnBudget
from pbp.rulesets.markhor.rules.initiative import InitiativeRoll
from pbp.rulesets.markhor.rules.pools import Pools
from pbp.rulesets.markhor.rules.skirmish import Fate
from pbp.tags.model import SceneKind
from pbp.values import frozen_value, replace

Mode = Literal["skirmish", "battle"]


@frozen_value
class Course:
    """One course of action: ``[attack: T]``, ``[cast: T]``, ``[cast: heal T]`` or ``[act: …]``."""

    actor: str
    verb: Literal["attack", "cast", "heal", "act"]
    target: str | None = None
    text: str | None = None
    advantage: int = 0  # adv minus dis, as written (RULES M6 cancels and clamps)
    react: bool = False  # a battle reaction during the target's turn (RULES M7)
    amount: str | None = None  # battle: a hit's damage, a heal's HP, as dice (RULES §6)


MARKHOR_INTENTS = (Course,)


@frozen_value(kw_only=False)
class TurnCourse:
    """The slot of a skirmish turn's one course of action (the seed)."""


@frozen_value(kw_only=False)
class ActionPoint:
    """The slot of a battle action: the ``number``-th action point of the turn (RULES M7)."""

    number: int


@frozen_value(kw_only=False)
class ReactionIn:
    """The slot of a battle reaction during ``target``'s turn: one per turn (RULES M7)."""

    target: str


MarkhorSlot = TurnCourse | ActionPoint | ReactionIn


@frozen_value
class MarkhorState:
    """A skirmish or battle as it stands between rounds.

    ``order``: the initiative rolls in turn order (empty until the first close);
    ``pools``/``full``: each entity's current and full HP and WP (skirmish pools in a skirmish,
    the sheet's in a battle); ``ambush``: the side that caught the other unaware (RULES M4);
    ``fallen``: the foes a won skirmish left incapacitated or dead, out of every later fight
    of the thread (RULES M8, §7).
    """

    mode: Mode = "skirmish"
    ambush: str | None = None
    order: tuple[InitiativeRoll, ...] = ()
    pools: tuple[tuple[str, Pools], ...] = ()
    full: tuple[tuple[str, Pools], ...] = ()
    budgets: tuple[tuple[str, TurnBudget], ...] = ()  # battle action points (RULES M7)
    # RULES M9: the courses the GM called a roll for (post, the character or None for every
    # course of the post), with the difficulty; they roll at this round's close
    calls: tuple[tuple[str, str | None, int], ...] = ()
    fallen: tuple[tuple[str, Fate], ...] = ()

    def call(self, post_id: str, actor: str) -> int | None:
        """The difficulty the GM set for ``actor``'s course in a post (a call naming the
        character first, then one for the whole post), or None: it succeeds unrolled."""
        named = next((dc for post, who, dc in self.calls if post == post_id and who == actor), None)
        if named is not None:
            return named
        return next((dc for post, who, dc in self.calls if post == post_id and who is None), None)

    @staticmethod
    def fresh(
        kind: SceneKind, *, ambush: str | None = None, fallen: tuple[tuple[str, Fate], ...] = ()
    ) -> MarkhorState:
        """A new fight for a scene of ``kind``: initiative and pools come at its first close;
        the foes fallen in an earlier one stay fallen (RULES §7)."""
        if kind is SceneKind.BATTLE:
            return MarkhorState(mode="battle", fallen=fallen)
        return MarkhorState(mode="skirmish", ambush=ambush, fallen=fallen)

    def fate(self, name: str) -> Fate | None:
        """How a won skirmish left ``name`` (RULES M8): incapacitated, dead, or None."""
        return next((fate for who, fate in self.fallen if who == name), None)

    def budget(self, name: str) -> TurnBudget:
        """``name``'s action points as they stand (none before its first battle turn)."""
        return next((b for who, b in self.budgets if who == name), TurnBudget())

    def with_budget(self, name: str, budget: TurnBudget) -> MarkhorState:
        """This state with ``name``'s action points set."""
        rest = tuple((who, b) for who, b in self.budgets if who != name)
        return replace(self, budgets=(*rest, (name, budget)))

    def pool(self, name: str) -> Pools | None:
        """``name``'s HP and WP now (None before the encounter's first close)."""
        return next((p for who, p in self.pools if who == name), None)

    def full_pool(self, name: str) -> Pools | None:
        """``name``'s HP and WP at full."""
        return next((p for who, p in self.full if who == name), None)

    def with_pool(self, name: str, pools: Pools) -> MarkhorState:
        """This state with ``name``'s current pools set."""
        rest = tuple((who, p) for who, p in self.pools if who != name)
        return replace(self, pools=(*rest, (name, pools)))

    def is_out(self, name: str) -> bool:
        """Whether ``name`` is out of the encounter (HP and WP both 0, RULES M2), or fell in
        a skirmish the party won (RULES M8)."""
        pools = self.pool(name)
        return (pools is not None and pools.out) or self.fate(name) is not None

    def out_names(self) -> frozenset[str]:
        """Everyone out of this fight or fallen in an earlier one."""
        return frozenset(who for who, p in self.pools if p.out) | {who for who, _ in self.fallen}


@frozen_value
class MarkhorRecord:
    """One resolved course: who, what, the pools it changed, and any roll it made.

    ``hp``/``wp`` are the target's pools after it (the caster's for a plain cast's cost);
    ``dice`` and ``kept`` are the d24s of a roll with advantage or disadvantage (RULES M6).
    """

    actor: str
    verb: Literal["attack", "cast", "heal", "act"]
    mode: Mode
    target: str | None = None
    text: str | None = None
    turn: int = 0  # the place in the initiative order of the turn it happened in, from 1
    reaction: bool = False  # made during another's turn with unspent AP (RULES M7)
    ap_left: float | None = None  # a battle: the actor's AP after it
    damage: tuple[tuple[str, str, int], ...] = ()  # (character, "hp"|"wp", amount)
    caster_wp: int | None = None  # the caster's WP after a cast
    healed: int | None = None  # HP restored
    amount: str | None = None  # battle: the damage or heal the tag gave, as dice (RULES §6)
    amount_rolled: int | None = None  # what that came to
    net_advantage: int = 0
    dice: tuple[int, ...] = ()
    kept: int | None = None
    difficulty: int | None = None  # the GM's difficulty when a roll was called (RULES M9)
    outcome: Literal["success", "failure", "void"] = "success"
    reason: str | None = None
    out: tuple[str, ...] = ()  # who this course put out
    rolls: tuple[RollRecord, ...] = field(default=())


@frozen_value
class MarkhorEntry:
    """A Markhorspire record with the post it came from."""

    post_id: str
    author: str
    tag: str
    record: MarkhorRecord
    on_behalf: bool = False


@frozen_value
class MarkhorReport:
    """A closed skirmish or battle round: the initiative (when rolled this round), each course
    in turn order, everyone's pools after, and how the skirmish ended, if it did (RULES M8)."""

    mode: Mode
    initiative: tuple[InitiativeRoll, ...] = ()
    initiative_rolls: tuple[RollRecord, ...] = ()
    order: tuple[str, ...] = ()
    entries: tuple[MarkhorEntry, ...] = ()
    pools: tuple[tuple[str, Pools], ...] = ()
    ended: Literal["party_failed", "party_won"] | None = None
    fallen: tuple[tuple[str, Fate], ...] = ()  # RULES M8: how a won skirmish left each foe
