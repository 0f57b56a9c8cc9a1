"""Changes of state a resolved intent made: typed values the summary and the ledger show."""

from __future__ import annotations

from typing import ClassVar

from pbp.rulesets.distat.rules.intents import Stat
from pbp.values import frozen_value


@frozen_value
class Effect:
    """Root of every Distat effect."""

    code: ClassVar[str] = "effect"


@frozen_value
class JoinedGroup(Effect):
    """``character`` joined ``group`` (of ``target``; None: it now stands alone)."""

    code: ClassVar[str] = "joined_group"
    character: str
    group: str
    target: str | None


@frozen_value
class ThreatenedCheck(Effect):
    """The Threatened check a move made before its time-constraint check (RULES D10)."""

    code: ClassVar[str] = "threatened_check"
    character: str
    by: str
    stat: Stat
    active: int
    passive: int
    success: bool


@frozen_value
class BecameRestrained(Effect):
    """``character`` is restrained by ``by`` for ``rounds`` rounds, counting this one (D9)."""

    code: ClassVar[str] = "restrained"
    character: str
    by: str
    stat: Stat
    rounds: int


@frozen_value
class Escaped(Effect):
    """``character`` broke free of ``by``'s restraint."""

    code: ClassVar[str] = "escaped"
    character: str
    by: str


@frozen_value
class Identified(Effect):
    """``observer`` now knows ``talent`` as used by ``target`` (RULES D13)."""

    code: ClassVar[str] = "identified"
    observer: str
    target: str
    talent: str


@frozen_value
class Zeroed(Effect):
    """``character``'s EV of ``stat`` dropped to exactly 0 (RULES D5)."""

    code: ClassVar[str] = "zeroed"
    character: str
    stat: Stat


@frozen_value
class WentOut(Effect):
    """``character`` has a stat's EV below 0 and is Out (RULES D6)."""

    code: ClassVar[str] = "out"
    character: str


@frozen_value
class AutoFailed(Effect):
    """The defender's EV of ``stat`` is 0 or less: it failed without a comparison (D5b)."""

    code: ClassVar[str] = "auto_failed"
    character: str
    stat: Stat


@frozen_value
class LifewellUsed(Effect):
    """Lifewell turned a defence at Mind EV 0 into a comparison (once per encounter)."""

    code: ClassVar[str] = "lifewell_used"
    character: str


@frozen_value
class BonusSpent(Effect):
    """``amount`` bonus-pool points spent; ``pool`` is what is left (RULES D15)."""

    code: ClassVar[str] = "bonus_spent"
    character: str
    amount: int
    pool: int
