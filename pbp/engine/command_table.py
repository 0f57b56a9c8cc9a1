"""The shape of the table of commands: one row per typed command (SPEC §2.5).

A row says the word the command is written with and the reader of its arguments (both from
the tag grammar, ``pbp.tags``), when it acts (``CommandTiming``), what it does (its handler)
and how the table is told (its acknowledgement record, ``engine.done``). The generic rows are
in ``engine.commands``; a ruleset contributes the rows of the commands it owns
(``Ruleset.command_rows``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import field
from typing import Any, TypeVar

from pbp.engine.done import Done
from pbp.engine.effects import Effect
from pbp.engine.lazy_dice import DiceForRound
from pbp.engine.state import EngineState, PostRecord
from pbp.errors import Problem
from pbp.tags import ParsedPost
from pbp.tags.command_control import Reader
from pbp.tags.command_parser import READERS
from pbp.tags.commands import Command, CommandTiming
from pbp.values import frozen_value

C = TypeVar("C")


@frozen_value
class Acting:
    """What a command's handler may use besides the state: its post (and so its time), the
    effects of the step so far (it may add replies), the round's dice and the post reader.
    ``also``: what else the command did that its acknowledgement does not say (a ruleset's
    own records, an injury eased by a rest), said after it. ``waited``: the command was
    written below an ``!encounter`` of its post and acts in the new scene (SPEC §2.5)."""

    post: PostRecord
    effects: list[Effect]
    dice: DiceForRound
    parse: Callable[..., ParsedPost]  # engine.reading.Parse
    also: list[Done] = field(default_factory=list)
    waited: bool = False


Handler = Callable[[EngineState, Any, Acting], EngineState | Problem]
Acknowledge = Callable[[EngineState, Any, PostRecord], Done | None]
BeforeScene = Callable[[Any], Problem | None]


@frozen_value
class CommandRow:
    """One command of the table. ``handler`` acts (the new state, or why it cannot);
    ``acknowledge`` builds its acknowledgement from the state it left (None, or no
    ``acknowledge``: its own reply or the summary says it); ``before_scene`` says why it cannot
    wait below an ``!encounter`` of its post; ``waits``: an answer written below a closing
    command of its post is given after it."""

    command: type[Any]  # its type (pbp.tags.commands), which says its word and timing
    handler: Handler
    acknowledge: Acknowledge | None = None
    before_scene: BeforeScene | None = None
    waits: bool = True

    @property
    def word(self) -> str:
        """The word the command is written with (``!word``)."""
        word: str = self.command.word
        return word

    @property
    def reader(self) -> Reader:
        """The reader of its arguments (the tag grammar's)."""
        return READERS[self.word]

    @property
    def timing(self) -> CommandTiming:
        """When it acts: at once, in the round's order, after the tags (the close), a reply."""
        timing: CommandTiming = self.command.timing
        return timing


def row(
    command: type[C],
    handler: Callable[[EngineState, C, Acting], EngineState | Problem],
    *,
    acknowledge: Callable[[EngineState, C, PostRecord], Done | None] | None = None,
    before_scene: Callable[[C], Problem | None] | None = None,
    waits: bool = True,
) -> CommandRow:
    """A row of the table, its handler and acknowledgement typed for its command."""
    return CommandRow(
        command=command,
        handler=handler,
        acknowledge=acknowledge,
        before_scene=before_scene,
        waits=waits,
    )


def unchanged(state: EngineState, command: Command, acting: Acting) -> EngineState:
    """A handler for a command that changes nothing when read (the shell's, or the close's)."""
    del command, acting
    return state


def by_type(rows: tuple[CommandRow, ...]) -> dict[type[Any], CommandRow]:
    """The rows by their command's type (each type has one)."""
    found: dict[type[Any], CommandRow] = {}
    for each in rows:
        assert each.command not in found, f"two rows for {each.command.__name__}"
        found[each.command] = each
    return found
