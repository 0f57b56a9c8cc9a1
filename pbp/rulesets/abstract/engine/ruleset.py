"""The Epic Path abstract-encounter ruleset behind the engine's interface (SPEC §2.2,
RULES §2): ``!task`` and ``!oppose`` are its commands.

Every scene asks each ruleset for its part (a new scene, the close, ``!undo``), so this module
is loaded with the engine; the modules that read, fill and resolve abstract tags and say why a
command is refused load when first needed (a campaign that never runs an abstract encounter
seldom needs them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pbp.campaign.model import Campaign
from pbp.engine import acknowledge
from pbp.engine.actors import Actor
from pbp.engine.done import Done
from pbp.engine.problems import BadName
from pbp.engine.roster import Roster
from pbp.engine.ruleset import Closed, Closer, Ruleset, TagContext
from pbp.engine.state import Accepted, ClosedRound, EngineState, PostRecord
from pbp.errors import Problem
from pbp.rules.dice.seeded import RecordingDice
from pbp.rulesets.abstract.engine.model import ABSTRACT_INTENTS, AbstractState, Task
from pbp.rulesets.abstract.tags import AbstractTag, ReactionTag
from pbp.tags import resolve_name
from pbp.tags.commands import Command, EncounterCommand, OpposeCommand, TaskCommand
from pbp.tags.model import SceneKind
from pbp.tags.registry import Tag
from pbp.values import replace

if TYPE_CHECKING:
    from pbp.rulesets.abstract.engine.resolve import AbstractItem

ABSTRACT_TAGS = (AbstractTag, ReactionTag)


def _located(problem: Problem, command: Command) -> Problem:
    src = command.source
    return replace(problem, tag=src.text, line=src.line, column=src.column)


def _not_abstract(command: Command, state: EngineState) -> Problem:
    from pbp.rulesets.abstract.engine.refusals import NotAbstract

    return _located(NotAbstract(tag="", scene=state.scene_kind.value), command)


def task_names(abstract: AbstractState) -> tuple[str, ...]:
    """The names of the abstract tasks a tag may name."""
    return tuple(t.name for t in abstract.tasks)


def _task(state: EngineState, command: TaskCommand) -> EngineState | Problem:
    """``!task NAME dc N [secret]``: a new task, or the same name again to change its DC or
    reveal it (RULES E13: the DC is the GM's number)."""
    if state.scene_kind is not SceneKind.ABSTRACT:
        return _not_abstract(command, state)
    if command.name.casefold() in {n.casefold() for n in state.scene.names()}:
        return _located(
            BadName(tag="", name=command.name, why="taken", command=command.word), command
        )
    abstract = state.slot(AbstractState)
    old = abstract.task(command.name)
    task = Task(
        name=old.name if old is not None else command.name,
        dc=command.dc,
        secret=command.secret,
        done_by=old.done_by if old is not None else None,
    )
    return state.with_slot(abstract.with_task(task))


def _opposes(post: PostRecord) -> list[tuple[str, OpposeCommand]]:
    """A post's ``!oppose`` lines that were not refused when read; those below an
    ``!encounter`` of the post are the new encounter's (``AbstractState.carried``)."""
    refused = {p.line for p in post.command_problems}
    starts = [c.source.line for c in post.commands if isinstance(c, EncounterCommand)]
    return [
        (post.post_id, c) for c in post.commands
        if isinstance(c, OpposeCommand) and c.source.line not in refused
        and not any(line < c.source.line for line in starts)
    ]  # fmt: skip


@dataclass(slots=True)
class _AbstractCloser(Closer):
    """An interval's tags and opposition, resolved together after the rest (RULES E9, E12:
    the opposition and Reaction Dice come first)."""

    abstract: AbstractState
    dice: RecordingDice
    items: list[AbstractItem] = field(default_factory=list)
    opposes: list[tuple[str, OpposeCommand]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.opposes += self.abstract.carried  # RULES E9: posted as the encounter started

    def post(self, post: PostRecord) -> None:
        self.opposes += _opposes(post)

    def take(self, post: PostRecord, accepted: Accepted, scene: Roster) -> Roster:
        from pbp.rulesets.abstract.engine.resolve import AbstractItem

        self.items.append(AbstractItem(post=post, accepted=accepted))
        return scene

    def finish(self, state: EngineState, scene: Roster, number: int) -> Closed:
        if not self.items and not self.opposes:
            return Closed()
        from pbp.rulesets.abstract.engine.resolve import resolve_abstract

        abstract, report = resolve_abstract(
            self.items, opposes=self.opposes, abstract=self.abstract, dice=self.dice
        )
        return Closed(state=replace(abstract, carried=()), part=report)


class AbstractRuleset(Ruleset):
    """Epic Path abstract encounters: skill rolls paying pips into tasks, banks, opposition."""

    name = "abstract"
    tags = ABSTRACT_TAGS
    intents = ABSTRACT_INTENTS
    commands = (TaskCommand, OpposeCommand)

    def fill(self, tag: Tag, actor: str, campaign: Campaign) -> Tag | Problem:
        from pbp.rulesets.abstract.engine.sheets import from_sheets

        return from_sheets(tag, actor=actor, campaign=campaign)

    def check(self, tag: Tag, actor: Actor, ctx: TagContext) -> Accepted | Problem:
        from pbp.rulesets.abstract.engine.tags import check_abstract_tag

        return check_abstract_tag(
            tag=tag, actor=actor, abstract=ctx.slot(AbstractState), pending=ctx.pending
        )

    def fresh(
        self, state: EngineState, kind: SceneKind, command: EncounterCommand | None
    ) -> EngineState:
        # RULES E11: one abstract encounter at a time; a new one starts without tasks and
        # the banks stay
        interval = command.interval if command is not None else None
        return state.with_slot(state.slot(AbstractState).fresh_encounter(interval))

    def undo(self, state: EngineState, closed: ClosedRound) -> EngineState:
        from pbp.rulesets.abstract.engine.resolve import undo_abstract

        before = closed.before.get(AbstractState) or AbstractState()
        return state.with_slot(undo_abstract(before, now=state.slot(AbstractState)))

    def closer(self, state: EngineState, dice: RecordingDice) -> Closer:
        return _AbstractCloser(abstract=state.slot(AbstractState), dice=dice)

    def setup(
        self, state: EngineState, command: Command, post: PostRecord
    ) -> EngineState | Problem:
        return _task(state, command) if isinstance(command, TaskCommand) else state

    def acknowledge(self, state: EngineState, command: Command, post: PostRecord) -> Done | None:
        if not isinstance(command, TaskCommand):
            return None
        return acknowledge.task_set(state, command, post)

    def carry(self, state: EngineState, command: Command, post: PostRecord) -> EngineState:
        """RULES E9: an ``!oppose`` below the ``!encounter`` that starts the encounter
        opposes its first interval, whichever round the post stands in."""
        if not isinstance(command, OpposeCommand):
            return state
        abstract = state.slot(AbstractState)
        return state.with_slot(
            replace(abstract, carried=(*abstract.carried, (post.post_id, command)))
        )

    def tasks(self, state: EngineState) -> tuple[str, ...]:
        return task_names(state.slot(AbstractState))

    def read_command(self, state: EngineState, command: Command) -> Problem | None:
        """``!oppose TASK NdS`` is checked when read; its dice roll at the close (RULES E9)."""
        if not isinstance(command, OpposeCommand):
            return None
        if state.scene_kind is not SceneKind.ABSTRACT:
            return _not_abstract(command, state)
        found = resolve_name(command.task, candidates=task_names(state.slot(AbstractState)))
        return None if isinstance(found, str) else _located(replace(found, kind="task"), command)


ABSTRACT = AbstractRuleset()
