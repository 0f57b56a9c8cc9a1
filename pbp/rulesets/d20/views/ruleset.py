"""The d20 ruleset's views: its scene table (also in the summary), sheet lines, the summary's
d20 lines and its ledger entries."""

from __future__ import annotations

from typing import Any, ClassVar

from jinja2 import Environment

from pbp.engine.report import RoundReport
from pbp.engine.state import EngineState
from pbp.render.disclosure import Disclosure, NpcNumbers
from pbp.render.plain import plain
from pbp.render.ruleset import RulesetViews
from pbp.render.tables import SheetLines, Shown, Table
from pbp.rulesets.d20.engine.model import D20Entry, D20Report, D20State
from pbp.rulesets.d20.rules.conditions import Track
from pbp.rulesets.d20.sheet import D20Sheet
from pbp.rulesets.d20.views.scene import d20_sheet, d20_table
from pbp.rulesets.d20.views.views import d20_view
from pbp.tags.model import SceneKind


def _entries(report: RoundReport) -> list[D20Entry]:
    part = report.parts.get(D20Report)
    return sorted(part.entries, key=lambda a: a.order) if part is not None else []


def _d20_action(entry: D20Entry) -> dict[str, Any]:
    """A d20 tag's entry (SPEC §5: ``roll``, ``total`` and ``dc`` or the opponent's total):
    every field of its record, the rules' reason code as ``because``."""
    record = plain(entry.record)
    because = record.pop("reason")  # met_dc, natural_20, tie_roll …
    for key in ("inflicted", "condition"):  # RULES A10: only an effect with `| inflict`
        if record[key] is None:
            del record[key]
    return {
        "post": entry.post_id,
        "author": entry.author,
        "tag": entry.tag,
        "on_behalf": entry.on_behalf,
        "maneuver": None,
        **record,
        "modifiers": dict(entry.record.modifiers),
        "because": because,
        "damage": [],
        "reason": None,  # only a void action has a reason
    }


def _d20_character(state: EngineState, d20: D20State, name: str) -> dict[str, Any]:
    from pbp.rulesets.d20.engine.tags import pool_size

    sheet = state.campaign.character(name)
    full = sheet.part(D20Sheet).dice_pool if sheet is not None else 0
    now = d20.condition(name)
    return {
        "conditions": {
            track.value: {"step": now.position(track), "name": now.name(track)} for track in Track
        },
        "dice_pool": {"full": full, "left": pool_size(state.campaign, d20, name)},
    }


class D20Views(RulesetViews):
    summary_table = True
    section = "_d20.md.j2"
    npc_numbers: ClassVar[NpcNumbers] = {"pool_empty": ("size",)}  # its dice pool (RULES A8)

    def table(self, state: EngineState, shown: Shown) -> Table | None:
        return d20_table(state, shown)

    def sheet(self, state: EngineState, name: str, shown: Shown) -> SheetLines | None:
        return d20_sheet(state, name, shown)

    def summary(self, report: RoundReport, *, disclosure: Disclosure) -> dict[str, Any]:
        return {"d20_actions": [d20_view(a, disclosure) for a in _entries(report)]}

    def rolls(self, values: dict[str, Any]) -> list[dict[str, Any]]:
        return [r for a in values["d20_actions"] for r in a["rolls"]]

    def ledger_actions(self, report: RoundReport, env: Environment) -> list[dict[str, Any]]:
        return [_d20_action(a) for a in _entries(report)]

    def ledger_characters(self, state: EngineState, characters: dict[str, Any]) -> None:
        """In a d20 scene (or where its condition tracks moved), each character's condition
        tracks (RULES A10) and dice pool (A8)."""
        d20 = state.slot(D20State)
        touched = {who for who, _ in d20.conditions}
        for name, entry in characters.items():
            if state.scene_kind is not SceneKind.D20 and name not in touched:
                continue
            entry["d20"] = _d20_character(state, d20, name)


D20_VIEWS = D20Views()
