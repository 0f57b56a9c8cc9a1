"""Why the abstract-encounter rules refuse a tag or command (RULES §2): one typed value per
cause, each with the facts its reply names and one template
(templates/refusals/abstract/<cause>.md.j2). Every one is an ``abstract_rule`` problem to the
ledger (SPEC §5)."""

from __future__ import annotations

from typing import ClassVar

from pbp.errors import Problem
from pbp.values import frozen_value


@frozen_value
class AbstractRefused(Problem):
    """An abstract-encounter refusal; ``cause`` names its template."""

    code: ClassVar[str] = "abstract_rule"
    cause: ClassVar[str] = ""


@frozen_value
class NoTask(AbstractRefused):
    """A tag naming a task the encounter does not have."""

    cause: ClassVar[str] = "no_task"
    task: str


@frozen_value
class TaskDone(AbstractRefused):
    """RULES E14: a task completes once."""

    cause: ClassVar[str] = "task_done"
    task: str
    by: str


@frozen_value
class NotBailiwick(AbstractRefused):
    """RULES E1: a bailiwick roll (÷ 10) uses one of the bailiwick skills."""

    cause: ClassVar[str] = "not_bailiwick"
    skill: str
    skills: tuple[str, ...]


@frozen_value
class ModifierTooLarge(AbstractRefused):
    """A modifier beyond what the action dice could ever use."""

    cause: ClassVar[str] = "modifier_too_large"
    modifier: int
    most: int


@frozen_value
class NotOnSheet(AbstractRefused):
    """A skill bonus left to a sheet that lacks it; ``near`` is the sheet's skill the name
    is likely a typo of ("" if none)."""

    cause: ClassVar[str] = "not_on_sheet"
    actor: str
    skill: str
    task: str
    near: str = ""


@frozen_value
class NotAbstract(AbstractRefused):
    """Tasks and opposition outside an abstract encounter."""

    cause: ClassVar[str] = "not_abstract"
    scene: str  # the scene kind the thread runs
