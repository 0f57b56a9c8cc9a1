"""Problems the engine finds: who may act, what is left this round, what the rules refuse."""

from __future__ import annotations

from dataclasses import field
from typing import Any, ClassVar, Protocol

from pbp.errors import Problem
from pbp.values import frozen_value


@frozen_value
class NoCharacter(Problem):
    """The author owns no character and is no GM."""

    code: ClassVar[str] = "no_character"
    author: str


@frozen_value
class NeedAs(Problem):
    """The author runs several characters (or is the GM) and did not say ``as NAME``."""

    code: ClassVar[str] = "need_as"
    author: str
    gm: bool
    characters: tuple[str, ...]


@frozen_value
class NotYourCharacter(Problem):
    """A player used ``as NAME`` for a character they do not own."""

    code: ClassVar[str] = "not_your_character"
    author: str
    name: str
    characters: tuple[str, ...]


@frozen_value
class ActionUsed(Problem):
    """The character already used that action this round (RULES D8)."""

    code: ClassVar[str] = "action_used"
    actor: str
    slot: str
    by_post: str


class Reason(Protocol):
    """Why a ruleset's rules refuse an action as the scene stands: a typed value of that
    ruleset's (a Distat ``Violation``), its ``code`` naming the template that words it."""

    @property
    def code(self) -> str:
        """The template of its wording (``templates/violations/<code>.md.j2``)."""
        ...


@frozen_value
class RuleBroken(Problem):
    """The rules refuse the action as the scene stands. ``would_be`` is the action the tag
    would have been (an ``Accepted``): at the close it acts after all if it is valid at its
    turn (RULES §6: the close is authoritative)."""

    code: ClassVar[str] = "rule"
    violation: Reason
    would_be: Any = field(default=None, compare=False)


@frozen_value
class RulesetUnavailable(Problem):
    """A tag or encounter of a ruleset this thread cannot run yet."""

    code: ClassVar[str] = "ruleset_unavailable"
    ruleset: str


@frozen_value
class BadName(Problem):
    """A name a command would create is not allowed (reserved, taken, bad characters)."""

    code: ClassVar[str] = "bad_name"
    name: str
    why: str  # "reserved" | "taken" | "characters" | "empty"
    command: str = "npc"  # the word of the command that would create it


@frozen_value
class NoSuchPost(Problem):
    """``!void`` (or ``command``, the word of another command naming a post: ``difficulty``)
    names a post that is not in the open round."""

    code: ClassVar[str] = "no_such_post"
    post: str
    command: str = "void"


@frozen_value
class CannotUndo(Problem):
    """``!undo`` when there is nothing to re-open, or a later round has actions."""

    code: ClassVar[str] = "cannot_undo"
    why: str  # "nothing_closed" | "later_actions"


COULD_NOT_RESOLVE = "could_not_resolve"  # the reason of an action whose resolution failed


@frozen_value
class CouldNotResolve(Problem):
    """An action whose rules raised at the close, in a ruleset that keeps no record of its
    own for it: it is void, and the GM settles it by hand. ``error`` names what failed."""

    code: ClassVar[str] = COULD_NOT_RESOLVE
    error: str


def failure_text(error: Exception) -> str:
    """What failed, in one line, for the GM and the ledger (never a traceback)."""
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


@frozen_value
class CommandInEdit(Problem):
    """A command line an edit added (or changed): commands act once, from the version of
    their post first read (SPEC §2.5), so it did nothing; ``word`` is its command."""

    code: ClassVar[str] = "command_in_edit"
    word: str
