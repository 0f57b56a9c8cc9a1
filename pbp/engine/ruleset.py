"""The interface a ruleset implements; ``engine.registry`` lists the rulesets by scene kind and
the engine calls through it (reading, the close, ``!undo``, a new scene, set-up commands).

A ruleset keeps its own state in ``EngineState.rulesets`` and its part of a round's report in
``RoundReport.parts``, each under its own type; the core names none of them. Every scene
shares one roster (``engine.scene_roster``): who is there, their sides, groups and features.
A ruleset reads it through ``Roster``; one that keeps a part of the cast (Distat's Body and
Mind) follows the roster's changes with its ``CastKeeper`` and changes its part through
``change_roster``, ``correct``, ``end_encounter`` and ``roster_report``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeVar

from pbp.campaign.model import Campaign
from pbp.engine.actors import Actor
from pbp.engine.command_table import Acting, CommandRow
from pbp.engine.done import Done
from pbp.engine.notes import Note
from pbp.engine.pending import Pending
from pbp.engine.problems import CouldNotResolve, failure_text
from pbp.engine.report import CorrectionEntry, Rejection
from pbp.engine.roster import Roster
from pbp.engine.slots import Slots
from pbp.engine.state import Accepted, ClosedRound, EngineState, PostRecord
from pbp.errors import Problem
from pbp.rules.dice.seeded import RecordingDice
from pbp.tags.commands import Command, CommandTiming, EncounterCommand
from pbp.tags.model import SceneKind, Source
from pbp.tags.registry import Tag
from pbp.values import frozen_value

T = TypeVar("T")
R = TypeVar("R")
Scores = Callable[[str], Mapping[str, int | None]]


@frozen_value
class TagContext:
    """What checking one tag may look at: the campaign, the scene as it stands (roster and
    groups), what earlier tags of the round took, each ruleset's state and each character's
    sheet numbers."""

    campaign: Campaign
    scene: Roster
    pending: Pending
    rulesets: Slots
    scores: Scores
    post_id: str = ""  # the post the tag is in (a GM's call for its roll names it)

    def slot(self, kind: type[T]) -> T:
        """A ruleset's state (a fresh one when it has none yet)."""
        found = self.rulesets.get(kind)
        return found if found is not None else kind()


@frozen_value
class Closed:
    """What one ruleset's part of a close produced: its state after the round (None: as it
    was), its part of the report (None: nothing this round), the GM corrections it applied
    and what it refused."""

    state: object | None = None
    part: object | None = None
    corrections: tuple[CorrectionEntry, ...] = ()
    rejected: tuple[Rejection, ...] = ()


def guarded(resolve: Callable[[], R], void: Callable[[str], R]) -> R:
    """One action resolved: what ``resolve`` gives, or, when the rules raise inside it, what
    ``void`` makes of the action given what failed (one line, ``failure_text``). No exception
    inside one action loses a close: the engine takes every accepted tag (``Closer.take``) and
    every ruleset's ``finish`` through here, and a ruleset that resolves its actions in its
    ``finish``, together, resolves each through here too."""
    try:
        return resolve()
    except Exception as error:
        return void(failure_text(error))


def could_not_resolve(post_id: str, source: Source, why: str) -> Rejection:
    """The round's refusal of a tag or command whose resolution raised (``why``: what
    failed): it is void, and the GM settles it by hand."""
    problem = CouldNotResolve(tag=source.text, line=source.line, column=source.column,
                              error=why)  # fmt: skip
    return Rejection(post_id=post_id, tag=source.text, problem=problem)


class Closer:
    """One ruleset's resolution of one round, fed in post order."""

    def post(self, post: PostRecord) -> None:
        """A live post of the round, before its steps (its commands that roll at the close)."""

    def take(self, post: PostRecord, accepted: Accepted, scene: Roster) -> Roster:
        """An accepted tag of this ruleset, at its turn; the scene as it leaves it."""
        return scene

    def void(self, post: PostRecord, accepted: Accepted, why: str) -> Rejection | None:
        """An accepted tag whose ``take`` raised (``why``: what failed): it is void and the
        scene stands as it was before it. None when the ruleset records the void in its own
        part of the report; by default, the round's refusal of it (``CouldNotResolve``)."""
        return could_not_resolve(post.post_id, accepted.tag.source, why)

    def command(self, post: PostRecord, command: Command) -> bool:
        """A GM correction at its turn: whether this ruleset takes it."""
        return False

    def finish(self, state: EngineState, scene: Roster, number: int) -> Closed:
        """After every post: what the round did."""
        return Closed()


class Ruleset:
    """A ruleset: its tags and their check, its intents, the set-up commands it owns, its
    state through the scenes (fresh, undone) and its resolution at the close. The defaults do
    nothing, so a ruleset states only what it has."""

    name: str = ""
    tags: tuple[type, ...] = ()  # the tag kinds it reads (pbp.tags.rulesets)
    intents: tuple[type, ...] = ()  # what its accepted tags mean (``Accepted.intent``)
    commands: tuple[type, ...] = ()  # the set-up commands it owns (pbp.tags.commands)

    def check(self, tag: Tag, actor: Actor, ctx: TagContext) -> Accepted | Problem:
        """Accept a tag of this ruleset for ``actor``, or say why not (SPEC §4.2)."""
        raise NotImplementedError

    def notes(self, accepted: Accepted, ctx: TagContext) -> tuple[Note, ...]:
        """Its warnings on a tag it accepted, for the post's reply (a cast that will put its
        caster out); none by default."""
        return ()

    def fill(self, tag: Tag, actor: str, campaign: Campaign) -> Tag | Problem:
        """``tag`` with the numbers it left out taken from the character sheets, or why
        that cannot be (a number the sheet lacks)."""
        return tag

    def count(self, pending: Pending, accepted: Accepted) -> None:
        """Note what an accepted tag declared, for the checks of later ones."""

    def count_command(self, pending: Pending, command: Command) -> None:
        """Note what a command acting in the round's order grants the tags after it (a GM's
        ``!bonus`` before a tag that spends it)."""

    def still_refused(self, scene: Roster, accepted: Accepted) -> bool:
        """Whether a tag refused when read is still refused at its turn (RULES §6)."""
        return True

    def fresh(
        self, state: EngineState, kind: SceneKind, command: EncounterCommand | None
    ) -> EngineState:
        """A new scene of ``kind`` (``!encounter``, or None: the campaign's own scene, after
        ``!encounter end`` or in a new thread of the campaign)."""
        return state

    def undo(self, state: EngineState, closed: ClosedRound) -> EngineState:
        """The state with ``closed`` re-opened (``!undo``)."""
        return state

    def closer(self, state: EngineState, dice: RecordingDice) -> Closer:
        """Its resolution of the open round, rolling with the round's ``dice``."""
        return Closer()

    def after_close(
        self, state: EngineState, parts: Slots, notes: tuple[str, ...]
    ) -> tuple[EngineState, tuple[str, ...]]:
        """What the round's outcome (``parts``: each ruleset's part of its report) does to the
        scene (a fight won or lost)."""
        return state, notes

    def setup(
        self, state: EngineState, command: Command, post: PostRecord
    ) -> EngineState | Problem:
        """A set-up command it owns, as soon as its post is read."""
        return state

    def change_roster(self, roster: Roster, command: Command) -> Roster | Problem | None:
        """A GM set-up command that changes what it keeps of the roster at once (``!rest``);
        None when ``command`` is not one of those."""
        return None

    def correct(
        self, roster: Roster, command: Command, *, post_id: str
    ) -> tuple[Roster, CorrectionEntry | Problem | None]:
        """A GM correction of what it keeps of the roster, at its place in the resolution
        order (``!damage``, ``!heal``, ``!bonus``); None when ``command`` is not its."""
        return roster, None

    def end_encounter(
        self, roster: Roster, *, medic: tuple[str, ...], rally: tuple[str, ...]
    ) -> Roster:
        """The roster after ``!encounter end``: what a short rest does to what it keeps."""
        return roster

    def rest(
        self, state: EngineState, *, night: bool, medic: tuple[str, ...], post_id: str
    ) -> tuple[EngineState, tuple[Done, ...]]:
        """What a rest does to its own state: a night's rest (``!rest night``: ``night``) or
        the short rest of ``!encounter end``, with medical care for ``medic``; and what it
        says of it (records for the acknowledgement of the GM's post ``post_id``)."""
        return state, ()

    def roster_report(self, *, before: Roster, after: Roster, rested: bool) -> object | None:
        """Its part of a round's report (``RoundReport.parts``) of what it keeps of the
        characters: as they stand after the round (``after``), and what a rest healed since
        ``before``; None when it keeps nothing of them."""
        return None

    def before_scene(self, command: Command) -> Problem | None:
        """A command it owns written below ``!encounter`` in the same post: why it cannot wait
        for the new scene (None: it waits, like any set-up)."""
        return None

    def carry(self, state: EngineState, command: Command, post: PostRecord) -> EngineState:
        """A command it owns that acts in the round's order, written below ``!encounter`` in
        ``post`` and checked against the new scene: its state keeping it for the new scene's
        first round (the round ``post`` is in may be closed by then); by default nothing."""
        return state

    def out_of_play(self, state: EngineState) -> frozenset[str]:
        """The characters its state has put out of play (out of a fight, fallen): nobody
        waits for their action, nor lists them as not having acted."""
        return frozenset()

    def tasks(self, state: EngineState) -> tuple[str, ...]:
        """Names beyond the roster a tag may name (an abstract scene's tasks)."""
        return ()

    def read_command(self, state: EngineState, command: Command) -> Problem | None:
        """A command it owns that acts at the close, checked when read."""
        return None

    def acknowledge(self, state: EngineState, command: Command, post: PostRecord) -> Done | None:
        """What a set-up command it owns did, for the GM post's acknowledgement (None: no
        word)."""
        return None

    def command_rows(self) -> tuple[CommandRow, ...]:
        """Its rows of the table of commands: each command it owns, set up when read
        (``setup``) or checked then and acting at the close (``read_command``), acknowledged
        by ``acknowledge``, refused below an ``!encounter`` by ``before_scene``."""
        return tuple(
            CommandRow(
                command=kind,
                handler=self._handle,
                acknowledge=self.acknowledge,
                before_scene=self.before_scene,
            )
            for kind in self.commands
        )

    def _handle(
        self, state: EngineState, command: Command, acting: Acting
    ) -> EngineState | Problem:
        if command.timing is CommandTiming.IN_ORDER:  # it acts at the close: checked now
            refused = self.read_command(state, command)
            if refused is not None:
                return refused
            return self.carry(state, command, acting.post) if acting.waited else state
        return self.setup(state, command, acting.post)
