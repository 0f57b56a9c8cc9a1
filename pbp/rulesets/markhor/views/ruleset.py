"""The Markhorspire ruleset's views: the fight's table and sheet lines, the round in
initiative order in the summary, and its ledger sections."""

from __future__ import annotations

from typing import Any, ClassVar

from jinja2 import Environment

from pbp.engine.report import RoundReport
from pbp.engine.state import EngineState
from pbp.render.disclosure import Disclosure, NpcNumbers
from pbp.render.plain import plain
from pbp.render.ruleset import RulesetViews
from pbp.render.tables import SheetLines, Shown, Table
from pbp.rules.dice.seeded import RollRecord
from pbp.rulesets.markhor.engine.model import MarkhorEntry, MarkhorReport, MarkhorState
from pbp.rulesets.markhor.views.scene import markhor_sheet, markhor_table
from pbp.rulesets.markhor.views.views import markhor_view
from pbp.tags.model import SceneKind

FIGHTS = (SceneKind.SKIRMISH, SceneKind.BATTLE)


def _markhor(report: MarkhorReport | None) -> dict[str, Any] | None:
    """The round's initiative (when rolled), turn order, pools and how a skirmish ended."""
    if report is None:
        return None
    return {
        "mode": report.mode,
        "initiative": plain(report.initiative),
        "order": list(report.order),
        "pools": {name: {"hp": p.hp, "wp": p.wp} for name, p in report.pools},
        "ended": report.ended,
    }


def _markhor_action(entry: MarkhorEntry) -> dict[str, Any]:
    """A skirmish or battle course: every field of its record, damage as SPEC §5 lists it."""
    record = plain(entry.record)
    return {
        "post": entry.post_id,
        "author": entry.author,
        "tag": entry.tag,
        "on_behalf": entry.on_behalf,
        "maneuver": None,
        **record,
        "damage": [
            {"character": who, "stat": stat, "amount": amount}
            for who, stat, amount in entry.record.damage
        ],
    }


class MarkhorViews(RulesetViews):
    section = "_markhor.md.j2"
    shows_scene = True
    npc_numbers: ClassVar[NpcNumbers] = {"ap_short": ("budget",)}  # AP a turn (RULES M7)

    def rolls(self, values: dict[str, Any]) -> list[dict[str, Any]]:
        part = values["fight"]
        if part is None:
            return []
        return [*part["initiative_rolls"], *(r for e in part["entries"] for r in e["rolls"])]

    def table(self, state: EngineState, shown: Shown) -> Table | None:
        return markhor_table(state, shown)

    def sheet(self, state: EngineState, name: str, shown: Shown) -> SheetLines | None:
        return markhor_sheet(state, name, shown)

    def standing(self, state: EngineState, name: str) -> str | None:
        fate = state.slot(MarkhorState).fate(name)  # RULES M8, §7: not back in any fight
        return f"{fate} since a won skirmish" if fate is not None else None

    def summary(self, report: RoundReport, *, disclosure: Disclosure) -> dict[str, Any]:
        return {"fight": markhor_view(report.parts.get(MarkhorReport), disclosure)}

    def ledger_actions(self, report: RoundReport, env: Environment) -> list[dict[str, Any]]:
        part = report.parts.get(MarkhorReport)
        return [_markhor_action(a) for a in (part.entries if part is not None else ())]

    def ledger_rolls(self, report: RoundReport) -> tuple[RollRecord, ...]:
        part = report.parts.get(MarkhorReport)  # RULES M4, M5: the initiative d24s
        return part.initiative_rolls if part is not None else ()

    def ledger_round(self, report: RoundReport) -> dict[str, Any]:
        return {"fight": _markhor(report.parts.get(MarkhorReport))}

    def ledger_characters(self, state: EngineState, characters: dict[str, Any]) -> None:
        fight = state.slot(MarkhorState)
        if state.scene_kind in FIGHTS:
            # RULES M1: every entity has its pools from the start, before the first close
            from pbp.rulesets.markhor.engine.resolve import skirmish_formula, with_pools

            entities = [(n, entry["side"]) for n, entry in characters.items()]
            formula = skirmish_formula(state.campaign)
            fight = with_pools(fight, entities, state.scores, formula=formula)
        for name, entry in characters.items():
            fate = fight.fate(name)
            if fate is not None:  # RULES M8: a won skirmish's foe, its pools dismissed
                entry["status"] = fate
                continue
            pools = fight.pool(name)
            if pools is not None:  # SPEC §5: a skirmish's pools; a battle's real HP and WP
                entry[fight.mode] = {"hp": pools.hp, "wp": pools.wp, "out": pools.out}
                if pools.out:  # RULES M2: out of the fight once HP and WP are exhausted
                    entry["status"] = "out"


MARKHOR_VIEWS = MarkhorViews()
