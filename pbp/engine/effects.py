"""What the engine asks the shell to do: replies to post or edit, as data."""

from __future__ import annotations

from dataclasses import field
from datetime import datetime

from pbp.engine.orders import TurnBoard
from pbp.engine.post_contents import (
    AckContent,
    ActedContent,
    DeletedContent,
    DoneContent,
    FixedContent,
    ProblemsContent,
    VoidedContent,
)
from pbp.engine.report import RoundReport
from pbp.engine.state import EngineState, PostRecord
from pbp.values import frozen_value


@frozen_value
class AckModeContent:
    """``!ack on`` / ``!ack off``: what this player's good posts get from now on."""

    author: str
    on: bool
    table: str  # the table's ack setting: "errors" | "all" | "none"


@frozen_value
class CheatSheetContent:
    """The first reply in a thread: each player's characters, the targets, examples."""

    round_number: int
    board: TurnBoard | None = None  # the campaign's turn board: whose turn it is now


@frozen_value
class SummaryContent:
    """The summary that closes a round, and the round's posts as they stood at the close (the
    store keeps them; the engine state does not)."""

    report: RoundReport
    posts: tuple[PostRecord, ...] = ()
    again: bool = False  # the round was undone and closed again: it replaces its summary


@frozen_value
class PreviewContent:
    """``!preview``: the summary the round would get if it closed now, and the thread's state
    after that close, which is shown and then dropped (the round stays open)."""

    report: RoundReport
    after: EngineState  # after the close that did not happen


@frozen_value
class UndoneContent:
    """A summary whose round was re-opened by ``!undo``."""

    report: RoundReport
    undone_by: str


@frozen_value
class HelpContent:
    """``!help`` for one author; ``gm_commands``: the words of the GM commands, in the order
    of the table of commands (a GM's ``!help`` lists them)."""

    author: str
    gm_commands: tuple[str, ...] = ()


@frozen_value
class StatusContent:
    """``!status``: the scene and who has not acted, as the command read them (``as_of``:
    commands act in line order, so a ``!close`` below it in the same post comes after it,
    SPEC §2.5; None: the state the reply is rendered with)."""

    not_acted: tuple[str, ...]
    deadline: datetime | None
    as_of: EngineState | None = field(default=None, compare=False, repr=False)


@frozen_value
class SheetContent:
    """``!sheet [NAME]``, as the command read the sheets (``as_of``, as ``StatusContent``)."""

    names: tuple[str, ...]
    as_of: EngineState | None = field(default=None, compare=False, repr=False)


@frozen_value
class ReminderContent:
    """Half time: the players whose characters have not acted."""

    players: tuple[str, ...]
    characters: tuple[str, ...]
    deadline: datetime  # when the round closes (the end of its grace, for ``grace``)
    owners: tuple[str, ...] = ()  # the player of each of ``characters``, in the same order
    spec: str = "50%"  # the reminder time of the campaign it was sent at ("2h before" …)
    grace: bool = False  # the deadline passed, and the round waits for them until ``deadline``

    def by_player(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """Each player with their characters that have not acted."""
        owners = self.owners or (("",) * len(self.characters))
        return tuple(
            (p, tuple(c for c, o in zip(self.characters, owners, strict=True) if o == p))
            for p in self.players
        )


@frozen_value
class AllActedContent:
    """Every character has acted: the GM may close."""

    gms: tuple[str, ...]


@frozen_value
class MovedContent:
    """The campaign moved to thread ``to``; ``unresolved``: the open round that had actions
    and will not be resolved here (None: none)."""

    to: str
    unresolved: int | None = None


Content = (
    ProblemsContent
    | FixedContent
    | ActedContent
    | AckContent
    | DoneContent
    | VoidedContent
    | DeletedContent
    | AckModeContent
    | CheatSheetContent
    | SummaryContent
    | PreviewContent
    | UndoneContent
    | HelpContent
    | StatusContent
    | SheetContent
    | ReminderContent
    | AllActedContent
    | MovedContent
)


@frozen_value
class Reply:
    """Post a reply. ``key`` names it for good (a later edit uses the same key), ``to`` is the
    post it answers (None: the thread itself)."""

    key: str
    to: str | None
    content: Content


@frozen_value
class EditReply:
    """Replace the text of the reply posted under ``key``."""

    key: str
    content: Content


@frozen_value
class PrivateReply:
    """Send a private message to the forum user ``to`` (never posted in the thread). ``key``
    names it within the thread, as a reply's does; ``full`` shows every number, hide-npcs or
    not (the GM's view)."""

    key: str
    to: str
    content: Content
    full: bool = False
    replaces: bool = False  # it replaces the message sent under ``key`` (edited where it can be)


Effect = Reply | EditReply | PrivateReply
