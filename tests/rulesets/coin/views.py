"""The coin's views: its section of the round summary (``_coin.md.j2``)."""

from __future__ import annotations

from typing import Any, ClassVar

from coin.engine import CoinReport
from pbp.engine.report import RoundReport
from pbp.render.disclosure import Disclosure, NpcNumbers
from pbp.render.ruleset import RulesetViews


class CoinViews(RulesetViews):
    section = "_coin.md.j2"
    npc_numbers: ClassVar[NpcNumbers] = {"out_of_the_contest": ("wins",)}  # an NPC's wins

    def summary(self, report: RoundReport, *, disclosure: Disclosure) -> dict[str, Any]:
        part = report.parts.get(CoinReport)
        flips = (
            []
            if part is None
            else [
                {"actor": f.actor, "call": f.call, "shown": f.shown, "won": f.won}
                for f in part.flips
            ]
        )
        return {"coin": flips}


COIN_VIEWS = CoinViews()
