"""What the engine asks the shell to do: replies to post or edit, as data."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from pbp.engine.done import Done
from pbp.engine.report import RoundReport
from pbp.engine.state import EngineState, PostRecord
from pbp.errors import Problem


@dataclass(frozen=True, slots=True, kw_only=True)
class ProblemsContent:
    """The problems of one post: an error reply. ``closed``: the close found them (the round
    is over: too late to edit; a wording, not a change of what it says, so left out of
    ``==``)."""

    post_id: str
    problems: tuple[Problem, ...]
    closed: bool = field(default=False, compare=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class ActedContent:
    """A post whose tags the rules refused when it was read acted at the close after all: at
    their turn they were valid (RULES §6)."""

    post_id: str


@dataclass(frozen=True, slots=True, kw_only=True)
class FixedContent:
    """A post whose problems an edit fixed: what it holds now. ``actions`` are its accepted
    tags (none: the edit took every tag out); ``listed``: the author asked for confirmations
    (``ack = "all"`` or ``!ack on``), so the reply lists them. ``closed``: the close read the
    fix (the reply is worded so; not a change of what it says, so it is left out of ``==``)."""

    post_id: str
    actions: tuple[str, ...] = ()
    listed: bool = False
    closed: bool = field(default=False, compare=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class AckContent:
    """``ack = "all"`` or ``!ack on``: confirm what a good post will do (``actions``, its
    accepted tags; none once an edit took them all out). ``closed`` as ``FixedContent``'s."""

    post_id: str
    actions: tuple[str, ...]  # canonical tags accepted
    closed: bool = field(default=False, compare=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class VoidedContent:
    """A post the GM struck with ``!void``: it does not count, and why."""

    post_id: str
    reason: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class DeletedContent:
    """A post deleted before the close: it does not count (SPEC §4.3)."""

    post_id: str


TagsContent = (
    ProblemsContent | AckContent | FixedContent | ActedContent | VoidedContent | DeletedContent
)
"""What a post's reply says of its tags (``engine.post_reply``)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DoneContent:
    """The reply of a GM post with commands: what they did, one line each; the closing
    commands it refused (``!undo`` with nothing to re-open); then what it says of the post's
    tags, as a player's post would get it (None: nothing to say of them)."""

    post_id: str
    done: tuple[Done, ...]
    refused: tuple[Problem, ...] = ()
    then: TagsContent | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class AckModeContent:
    """``!ack on`` / ``!ack off``: what this player's good posts get from now on."""

    author: str
    on: bool
    table: str  # the table's ack setting: "errors" | "all" | "none"


@dataclass(frozen=True, slots=True, kw_only=True)
class CheatSheetContent:
    """The first reply in a thread: each player's characters, the targets, examples."""

    round_number: int


@dataclass(frozen=True, slots=True, kw_only=True)
class SummaryContent:
    """The summary that closes a round, and the round's posts as they stood at the close (the
    store keeps them; the engine state does not)."""

    report: RoundReport
    posts: tuple[PostRecord, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class PreviewContent:
    """``!preview``: the summary the round would get if it closed now, and the thread's state
    after that close, which is shown and then dropped (the round stays open)."""

    report: RoundReport
    after: EngineState  # after the close that did not happen


@dataclass(frozen=True, slots=True, kw_only=True)
class UndoneContent:
    """A summary whose round was re-opened by ``!undo``."""

    report: RoundReport
    undone_by: str


@dataclass(frozen=True, slots=True, kw_only=True)
class HelpContent:
    """``!help`` for one author."""

    author: str


@dataclass(frozen=True, slots=True, kw_only=True)
class StatusContent:
    """``!status``: the scene and who has not acted, as the command read them (``as_of``:
    commands act in line order, so a ``!close`` below it in the same post comes after it,
    SPEC §2.5; None: the state the reply is rendered with)."""

    not_acted: tuple[str, ...]
    deadline: datetime | None
    as_of: EngineState | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class SheetContent:
    """``!sheet [NAME]``, as the command read the sheets (``as_of``, as ``StatusContent``)."""

    names: tuple[str, ...]
    as_of: EngineState | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class ReminderContent:
    """Half time: the players whose characters have not acted."""

    players: tuple[str, ...]
    characters: tuple[str, ...]
    deadline: datetime
    owners: tuple[str, ...] = ()  # the player of each of ``characters``, in the same order

    def by_player(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """Each player with their characters that have not acted."""
        owners = self.owners or (("",) * len(self.characters))
        return tuple(
            (p, tuple(c for c, o in zip(self.characters, owners, strict=True) if o == p))
            for p in self.players
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class AllActedContent:
    """Every character has acted: the GM may close."""

    gms: tuple[str, ...]


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
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Reply:
    """Post a reply. ``key`` names it for good (a later edit uses the same key), ``to`` is the
    post it answers (None: the thread itself)."""

    key: str
    to: str | None
    content: Content


@dataclass(frozen=True, slots=True, kw_only=True)
class EditReply:
    """Replace the text of the reply posted under ``key``."""

    key: str
    content: Content


@dataclass(frozen=True, slots=True, kw_only=True)
class PrivateReply:
    """Send a private message to the forum user ``to`` (never posted in the thread). ``key``
    names it within the thread, as a reply's does; ``full`` shows every number, hide-npcs or
    not (the GM's view)."""

    key: str
    to: str
    content: Content
    full: bool = False


Effect = Reply | EditReply | PrivateReply
