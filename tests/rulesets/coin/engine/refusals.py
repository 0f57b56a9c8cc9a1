"""Why the coin refuses a call: one typed value per cause, each with one template
(templates/refusals/coin/<cause>.md.j2), a ``coin_rule`` problem to the ledger."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from pbp.errors import Problem


@dataclass(frozen=True, slots=True, kw_only=True)
class CoinRefused(Problem):
    """A coin refusal; ``cause`` names its template."""

    code: ClassVar[str] = "coin_rule"
    cause: ClassVar[str] = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class OutOfTheContest(CoinRefused):
    """A character who is out calls no coin; ``wins``: theirs in the scene (None: an NPC's,
    under hide-npcs)."""

    cause: ClassVar[str] = "out_of_the_contest"
    actor: str
    wins: int | None
