"""Why the d20 rules refuse a tag (RULES §3): one typed value per cause, each with the facts
its reply names and one template (templates/refusals/d20/<cause>.md.j2). Every one is a
``d20_rule`` problem to the ledger (SPEC §5)."""

from __future__ import annotations

from typing import ClassVar

from pbp.errors import Problem
from pbp.values import frozen_value


@frozen_value
class D20Refused(Problem):
    """A d20 refusal; ``cause`` names its template."""

    code: ClassVar[str] = "d20_rule"
    cause: ClassVar[str] = ""


@frozen_value
class Take10UnderPressure(D20Refused):
    """RULES A4: no taking 10 under pressure."""

    cause: ClassVar[str] = "take_10_under_pressure"


@frozen_value
class Take1BonusTooLow(D20Refused):
    """RULES A3: take 1 only with a bonus of at least DC − 1 (``needs``)."""

    cause: ClassVar[str] = "take_1_bonus_too_low"
    needs: int


@frozen_value
class Take1NeedsDc(D20Refused):
    """RULES A3: take 1 is against a DC, never an opponent."""

    cause: ClassVar[str] = "take_1_needs_dc"


@frozen_value
class Take20Opposed(D20Refused):
    """RULES A4: never take 20 on an opposed check."""

    cause: ClassVar[str] = "take_20_opposed"


@frozen_value
class Take20Penalty(D20Refused):
    """RULES A4: take 20 only with no penalty for failing."""

    cause: ClassVar[str] = "take_20_penalty"


@frozen_value
class Take20NoTime(D20Refused):
    """RULES A4: take 20 only with time for twenty tries."""

    cause: ClassVar[str] = "take_20_no_time"


@frozen_value
class PoolEmpty(D20Refused):
    """RULES A8: a pool of 0 cannot be used."""

    cause: ClassVar[str] = "pool_empty"
    actor: str
    size: int


@frozen_value
class PoolOpposed(D20Refused):
    """RULES A8: a pool retries a failed check against a DC."""

    cause: ClassVar[str] = "pool_opposed"


@frozen_value
class RoundNoActionsLeft(D20Refused):
    """RULES A11: two actions a round."""

    cause: ClassVar[str] = "round_no_actions_left"
    activity: str
    cost: int
    left: int


@frozen_value
class RoundFreeLimit(D20Refused):
    """RULES A11: the GM's limit of free actions."""

    cause: ClassVar[str] = "round_free_limit"
    limit: int


@frozen_value
class OpposedSelf(D20Refused):
    """A check opposed by the same character."""

    cause: ClassVar[str] = "opposed_self"
    actor: str


@frozen_value
class AidSelf(D20Refused):
    """RULES A5: a helper aids someone else."""

    cause: ClassVar[str] = "aid_self"
    actor: str


@frozen_value
class NotOnSheet(D20Refused):
    """A number left to a sheet that lacks it; ``example`` is the tag with it written."""

    cause: ClassVar[str] = "not_on_sheet"
    owner: str
    what: str
    example: str


# the rules' codes of a refused take (pbp.rulesets.d20.rules.checks), as typed refusals
TAKES: dict[str, type[D20Refused]] = {
    cls.cause: cls
    for cls in (Take10UnderPressure, Take1NeedsDc, Take20Opposed, Take20Penalty, Take20NoTime)
}
