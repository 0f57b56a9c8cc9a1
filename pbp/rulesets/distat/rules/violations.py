"""Why an intent cannot be carried out: typed values, never sentences.

Each violation has a ``code`` that names the template the reply is written with, and the
facts that reply needs.
"""

from __future__ import annotations

from typing import ClassVar

from pbp.rulesets.distat.rules.intents import Stat
from pbp.values import frozen_value


@frozen_value
class Violation:
    """Root of every Distat violation."""

    code: ClassVar[str] = "violation"


@frozen_value
class CouldNotResolve(Violation):
    """Resolving the action failed inside the bot: it is void, the round goes on (the GM
    settles it by hand). ``error`` names what failed, for the GM and the ledger."""

    code: ClassVar[str] = "could_not_resolve"
    error: str


@frozen_value
class UnknownName(Violation):
    """No character or feature of the scene has this name."""

    code: ClassVar[str] = "unknown_name"
    name: str


@frozen_value
class ActorOut(Violation):
    """The actor is Out (a stat's EV below 0, RULES D6)."""

    code: ClassVar[str] = "actor_out"
    actor: str


@frozen_value
class StatTooLow(Violation):
    """The stat's EV or EAV is not above 0, so its action cannot be taken (RULES D5)."""

    code: ClassVar[str] = "stat_too_low"
    actor: str
    stat: Stat


@frozen_value
class Restrained(Violation):
    """The actor is restrained (``kind``: body or mind) and may not do this (RULES D9)."""

    code: ClassVar[str] = "restrained"
    actor: str
    kind: Stat


@frozen_value
class NotAdjacent(Violation):
    """A physical check needs the target in the actor's group (RULES D18)."""

    code: ClassVar[str] = "not_adjacent"
    actor: str
    target: str


@frozen_value
class TargetOut(Violation):
    """The target is Out: there is nothing left to restrain."""

    code: ClassVar[str] = "target_out"
    target: str


@frozen_value
class NotACharacter(Violation):
    """Only a character can be the target of this (a feature was named)."""

    code: ClassVar[str] = "not_a_character"
    target: str


@frozen_value
class SelfTarget(Violation):
    """A character cannot target itself with this."""

    code: ClassVar[str] = "self_target"
    actor: str


@frozen_value
class AlreadyRestrained(Violation):
    """Nobody can restrain a target that is already restrained (RULES D9)."""

    code: ClassVar[str] = "already_restrained"
    target: str


@frozen_value
class NotRestrained(Violation):
    """Escape needs a physical restraint to escape from (RULES D9)."""

    code: ClassVar[str] = "not_restrained"
    actor: str


@frozen_value
class AlreadyInGroup(Violation):
    """The mover is already in the target's group (``target`` None: already alone)."""

    code: ClassVar[str] = "already_in_group"
    actor: str
    target: str | None


@frozen_value
class MoveAfterRestrain(Violation):
    """No move later in a round in which the character restrained someone (RULES D9)."""

    code: ClassVar[str] = "move_after_restrain"
    actor: str


@frozen_value
class UnknownFeatureTn(Violation):
    """A feat against a feature that has no target number and none was given (RULES D19)."""

    code: ClassVar[str] = "unknown_feature_tn"
    feature: str


@frozen_value
class NoTargetNumber(Violation):
    """A feat names neither a feature nor a target number."""

    code: ClassVar[str] = "no_target_number"
    actor: str


@frozen_value
class ShareOutsideSplit(Violation):
    """``with N`` belongs to a part of a split only."""

    code: ClassVar[str] = "share_outside_split"
    actor: str


@frozen_value
class SplitTooFewParts(Violation):
    """A split needs at least two parts."""

    code: ClassVar[str] = "split_too_few_parts"
    actor: str
    parts: int


@frozen_value
class SplitMixed(Violation):
    """Part ``part`` (1-based) has another actor or stat than its split."""

    code: ClassVar[str] = "split_mixed"
    actor: str
    part: int


@frozen_value
class SplitShareMissing(Violation):
    """Every part but the last must say how much of the EAV it uses (RULES D7)."""

    code: ClassVar[str] = "split_share_missing"
    actor: str
    part: int


@frozen_value
class SplitPartTooLarge(Violation):
    """A non-final part must use 1 to (what is left − 1) of the EAV (RULES D7)."""

    code: ClassVar[str] = "split_part_too_large"
    actor: str
    part: int
    share: int
    available: int


@frozen_value
class SplitTooLarge(Violation):
    """The shares of a split add up to more than the EAV (RULES D7)."""

    code: ClassVar[str] = "split_too_large"
    actor: str
    stat: Stat
    total: int
    eav: int


@frozen_value
class BonusNegative(Violation):
    """A bonus-pool spend cannot be negative."""

    code: ClassVar[str] = "bonus_negative"
    actor: str
    asked: int


@frozen_value
class BonusOverPool(Violation):
    """More bonus points asked than the pool holds (RULES D15)."""

    code: ClassVar[str] = "bonus_over_pool"
    actor: str
    asked: int
    pool: int


@frozen_value
class BonusOverCap(Violation):
    """More bonus points asked than one check may use: ceil(pool max / 2) (RULES D15)."""

    code: ClassVar[str] = "bonus_over_cap"
    actor: str
    asked: int
    cap: int


@frozen_value
class NoSuchTalent(Violation):
    """The actor's sheet has no talent of this name."""

    code: ClassVar[str] = "no_such_talent"
    actor: str
    talent: str


@frozen_value
class TalentNotActive(Violation):
    """Only an active talent can be used in a check."""

    code: ClassVar[str] = "talent_not_active"
    actor: str
    talent: str


@frozen_value
class TalentWrongStat(Violation):
    """The talent belongs to the other stat than the action it is used with."""

    code: ClassVar[str] = "talent_wrong_stat"
    actor: str
    talent: str
    stat: Stat


@frozen_value
class NothingToIdentify(Violation):
    """The actor has seen no talent of the target that it has not identified (RULES D13)."""

    code: ClassVar[str] = "nothing_to_identify"
    actor: str
    target: str


@frozen_value
class NotAFeature(Violation):
    """A feat's target must be a feature (a character was named)."""

    code: ClassVar[str] = "not_a_feature"
    target: str
