"""What a character means to do in a Distat round, in the rules' own terms.

The engine turns tags into intents; the rules check an intent against a scene
(``validate``) and carry it out (``resolve``). Names are canonical roster or feature names.
"""

from __future__ import annotations

from typing import Literal

from pbp.values import frozen_value

Stat = Literal["body", "mind"]
STATS: tuple[Stat, Stat] = ("body", "mind")


@frozen_value
class Move:
    """Join the group of ``target`` (a character or a feature), or stand alone (None)."""

    actor: str
    target: str | None
    stat: Stat | None = None  # the Threatened-check stat; None: the higher EAV (RULES D10)


@frozen_value
class Attack:
    """An opposed check that deals damage on success (RULES D4).

    ``share`` is the part of the EAV a split part uses (None: the whole EAV).
    ``talent`` names the active talent used (``use TALENT on TARGET`` with effect attack).
    """

    actor: str
    stat: Stat
    target: str
    share: int | None = None
    bonus: int = 0
    talent: str | None = None


@frozen_value
class Restrain:
    """An opposed check that restrains on success and deals no damage (RULES D9)."""

    actor: str
    stat: Stat
    target: str
    share: int | None = None
    bonus: int = 0
    talent: str | None = None


@frozen_value
class UseTalent:
    """``use TALENT on TARGET`` for a talent whose effect is ``none``: an opposed check only."""

    actor: str
    stat: Stat
    target: str
    talent: str
    share: int | None = None
    bonus: int = 0


@frozen_value
class Escape:
    """A physically restrained character's attempt to break free (RULES D9)."""

    actor: str
    bonus: int = 0


@frozen_value
class Feat:
    """A stat check: EAV against a feature's target number or a given one (RULES D19)."""

    actor: str
    stat: Stat
    feature: str | None = None
    tn: int | None = None
    bonus: int = 0


Check = Attack | Restrain | UseTalent


@frozen_value
class Split:
    """A split action: several opposed checks from one action (RULES D7)."""

    actor: str
    stat: Stat
    parts: tuple[Check, ...]


@frozen_value
class Identify:
    """Identify the most recent unidentified talent ``target`` used (RULES D13)."""

    actor: str
    target: str


@frozen_value
class Pass:
    """The character is done for the round."""

    actor: str


Intent = Move | Attack | Restrain | UseTalent | Escape | Feat | Split | Identify | Pass
INTENTS = (Move, Attack, Restrain, UseTalent, Escape, Feat, Split, Identify, Pass)
