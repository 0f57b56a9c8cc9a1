"""What can be wrong with a command line (SPEC §2.5); each code names a reply template."""

from __future__ import annotations

from typing import ClassVar

from pbp.errors import Problem
from pbp.values import frozen_value


@frozen_value
class NotGm(Problem):
    """A GM command (``command``, the lower-case word) from someone who is not a GM."""

    code: ClassVar[str] = "not_gm"
    command: str


@frozen_value
class UnknownCommand(Problem):
    """A GM's ``!word`` that is no command.

    ``word`` is as written; ``suggestion`` the closest command word (Damerau-Levenshtein
    distance 2 at most), or None; ``known`` every command word, for the list.
    """

    code: ClassVar[str] = "unknown_command"
    word: str
    suggestion: str | None
    known: tuple[str, ...]


@frozen_value
class BadCommandArguments(Problem):
    """A command whose arguments do not read.

    ``command`` is the lower-case command word, ``found`` the part that went wrong as written
    (empty when something is missing), ``expected`` what would have been right there.
    """

    code: ClassVar[str] = "bad_command_arguments"
    command: str
    found: str
    expected: str
