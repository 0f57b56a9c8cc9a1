"""The root of pbp's errors and problems.

Exceptions (``PbpError`` and its children) stop an operation: a campaign file that does not
load, a config that is wrong, a forum that does not answer. They carry fields, not sentences;
``str()`` gives a plain sentence for the shell.

Problems (``Problem`` and its children) are values: what is wrong with one tag or command of a
post. They never stop anything; the engine collects them and a template turns each into a reply.
Every problem type has a ``code`` that names its template.
"""

from __future__ import annotations

from typing import ClassVar

from pbp.values import frozen_value


class PbpError(Exception):
    """Root of every error pbp raises on purpose."""


class ConfigError(PbpError):
    """A campaign file or the bot configuration is wrong.

    ``path`` is the file, ``where`` the key or line (``characters[2].talents[0].level`` or
    ``line 12``), ``expected`` what would have been right.
    """

    def __init__(self, *, path: str, where: str, problem: str, expected: str = "") -> None:
        self.path = path
        self.where = where
        self.problem = problem
        self.expected = expected
        super().__init__(self.__str__())

    def __str__(self) -> str:
        text = f"{self.path}: {self.where}: {self.problem}"
        if self.expected:
            text += f" (expected {self.expected})"
        return text

    @property
    def every(self) -> tuple[ConfigError, ...]:
        """Each mistake this error stands for: itself (``ConfigErrors`` holds several)."""
        return (self,)


class ConfigErrors(ConfigError):
    """Several mistakes in one file, each a ``ConfigError``; the fields are the first one's."""

    def __init__(self, errors: tuple[ConfigError, ...]) -> None:
        self.errors = errors
        first = errors[0]
        super().__init__(
            path=first.path, where=first.where, problem=first.problem, expected=first.expected
        )

    def __str__(self) -> str:
        return "\n".join(ConfigError.__str__(error) for error in self.errors)

    @property
    def every(self) -> tuple[ConfigError, ...]:
        return self.errors


class InputError(PbpError):
    """A file or argument given on the command line cannot be used (events file, ledger)."""


class ForumError(PbpError):
    """A forum did not do what was asked. ``temporary`` says whether trying later may work."""

    def __init__(self, message: str, *, temporary: bool) -> None:
        self.temporary = temporary
        super().__init__(message)


@frozen_value
class Problem:
    """Something wrong with one tag or command of a post.

    ``tag`` is the text as the user wrote it (after normalisation), ``line`` and ``column`` are
    1-based positions in the post. Subclasses add the facts a reply needs.
    """

    code: ClassVar[str] = "problem"
    tag: str
    line: int = 0
    column: int = 0
