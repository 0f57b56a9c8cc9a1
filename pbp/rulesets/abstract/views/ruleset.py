"""The abstract ruleset's views: the banks and tasks, a character's bank, the interval in the
summary and its ledger sections."""

from __future__ import annotations

from typing import Any

from jinja2 import Environment

from pbp.engine.report import RoundReport
from pbp.engine.state import EngineState
from pbp.render.disclosure import Disclosure
from pbp.render.plain import plain
from pbp.render.ruleset import RulesetViews
from pbp.render.tables import SheetLines, Shown, Table
from pbp.rules.dice.seeded import RollRecord
from pbp.rulesets.abstract.engine.model import AbstractEntry, AbstractReport, AbstractState
from pbp.rulesets.abstract.views.scene import abstract_sheet, abstract_table
from pbp.rulesets.abstract.views.views import abstract_view
from pbp.tags.model import SceneKind


def _abstract_action(entry: AbstractEntry, env: Environment) -> dict[str, Any]:
    """An abstract tag's entry (SPEC §5: roll, bonus, result, divisor, dice, pips_paid,
    bank_used, banked, bank, wasted, dc): every field of its record."""
    record = plain(entry.record)
    reason = None
    if entry.record.outcome == "void":
        template = env.get_template("_abstract_macros.md.j2")
        macro = template.module.abstract_reason  # type: ignore[attr-defined]
        reason = str(macro(record)).strip()
    return {
        "post": entry.post_id,
        "author": entry.author,
        "tag": entry.tag,
        "on_behalf": entry.on_behalf,
        "maneuver": None,
        **record,
        "because": record.pop("reason"),
        "damage": [],
        "reason": reason,
    }


def _abstract(report: AbstractReport | None) -> dict[str, Any] | None:
    """The interval's opposition, banks, tasks and outlook (the GM's view: secret DCs too)."""
    if report is None:
        return None
    return {
        "opposition": [
            {"post": o.post_id, "task": o.task, "dice": list(o.dice), "pips": o.pips}
            for o in report.opposition
        ],
        "banks": dict(report.banks),
        "tasks": plain(report.tasks),
        "outlook": [
            {"character": o.character, "task": o.task, "bank": o.bank,
             "odds": {str(k): float(p) for k, p in o.odds}}
            for o in report.outlook
        ],
    }  # fmt: skip


class AbstractViews(RulesetViews):
    section = "_abstract.md.j2"
    shows_scene = True
    round_word = "Interval"  # the seed: time in abstract encounters is measured in intervals

    def rolls(self, values: dict[str, Any]) -> list[dict[str, Any]]:
        part = values["abstract"]
        if part is None:
            return []
        return [r for o in part["opposition"] for r in o["rolls"]] + [
            r for e in part["entries"] for r in e["rolls"]
        ]

    def table(self, state: EngineState, shown: Shown) -> Table | None:
        return abstract_table(state, shown)

    def sheet(self, state: EngineState, name: str, shown: Shown) -> SheetLines | None:
        return abstract_sheet(state, name, shown)

    def summary(self, report: RoundReport, *, disclosure: Disclosure) -> dict[str, Any]:
        return {"abstract": abstract_view(report.parts.get(AbstractReport), disclosure)}

    def ledger_actions(self, report: RoundReport, env: Environment) -> list[dict[str, Any]]:
        part = report.parts.get(AbstractReport)
        return [_abstract_action(a, env) for a in (part.entries if part is not None else ())]

    def ledger_rolls(self, report: RoundReport) -> tuple[RollRecord, ...]:
        part = report.parts.get(AbstractReport)  # RULES E9: the GM's !oppose dice
        return tuple(r for o in (part.opposition if part is not None else ()) for r in o.rolls)

    def ledger_round(self, report: RoundReport) -> dict[str, Any]:
        return {"abstract": _abstract(report.parts.get(AbstractReport))}

    def ledger_characters(self, state: EngineState, characters: dict[str, Any]) -> None:
        banks = dict(state.slot(AbstractState).banks)
        here = state.scene_kind is SceneKind.ABSTRACT
        for name, entry in characters.items():
            if name in banks or here:  # RULES E6: the pips banked for later intervals
                entry["bank"] = banks.get(name, 0)

    def targets(self, state: EngineState) -> tuple[str, tuple[str, ...]] | None:
        # an abstract tag aims at a task (SPEC §2.2), never at a character
        tasks = state.slot(AbstractState).tasks
        return "Tasks", tuple(t.name for t in tasks if t.done_by is None)

    def example_task(self, state: EngineState) -> str | None:
        tasks = state.slot(AbstractState).tasks
        names = [t.name for t in tasks if t.done_by is None] or [t.name for t in tasks]
        return names[0] if names else None


ABSTRACT_VIEWS = AbstractViews()
