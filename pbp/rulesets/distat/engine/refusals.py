"""Why the Distat ruleset refuses a tag when it is read, beyond what its rules say of the
action itself (those are ``RuleBroken`` with a Distat ``Violation``): typed values with the
facts their reply names (``templates/problems/<code>.md.j2``)."""

from __future__ import annotations

from typing import ClassVar

from pbp.errors import Problem
from pbp.values import frozen_value


@frozen_value
class CannotRecover(Problem):
    """``!recover`` refused (RULES D16 step 3): outside the window between an encounter's end
    and the next round's first action (``why`` "window"), for someone else's character
    ("not_yours"), more damage than the stat has ("damage": ``have`` is its damage) or more
    points than the pool holds ("pool": ``have`` is the pool, ``asked`` the points)."""

    code: ClassVar[str] = "cannot_recover"
    why: str
    actor: str
    stat: str = ""
    asked: int = 0
    have: int = 0


@frozen_value
class BonusBudget(Problem):
    """The bonus points this round's tags spend exceed the pool (RULES D15)."""

    code: ClassVar[str] = "bonus_budget"
    actor: str
    asked: int
    left: int
