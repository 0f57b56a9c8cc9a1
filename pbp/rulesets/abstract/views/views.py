"""View models of an abstract interval: each tag's dice and payment, the banks, the tasks and
the odds of finishing them (SPEC §2.2).

Under ``hide-npcs`` (SPEC §4.5) a secret DC is hidden, and an NPC's roll keeps its dice (every
roll is listed with its key, SPEC §6) but not what its sheet adds: its skill bonus, its result
and the pips in its bank; its odds of finishing are left out (they come from both). The GM's
opposition stays: its pips are the sum of its dice, which the dice line lists.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from pbp.render.disclosure import Disclosure
from pbp.render.plain import roll_view
from pbp.rulesets.abstract.engine.model import AbstractEntry, AbstractReport, Task


def _entry(entry: AbstractEntry, disclosure: Disclosure) -> dict[str, Any]:
    r = entry.record
    view = {f.name: getattr(r, f.name) for f in fields(r)}
    if disclosure.hide and r.dc_secret:
        view["dc"] = None
    if disclosure.hides(r.actor):
        view.update(bonus=None, result=None, bank=None)
    view.update(post=entry.post_id, on_behalf=entry.on_behalf, tag=entry.tag,
                rolls=[roll_view(x) for x in r.rolls])  # fmt: skip
    return view


def _task(task: Task, *, hide: bool) -> dict[str, Any]:
    return {
        "name": task.name,
        "dc": None if hide and task.secret else task.dc,
        "secret": task.secret,
        "done_by": task.done_by,
    }


def _percent(p: float) -> str:
    if 0 < p < 0.01:
        return "<1%"
    if 0.99 < p < 1:
        return ">99%"
    return f"{round(p * 100)}%"


def abstract_view(report: AbstractReport | None, disclosure: Disclosure) -> dict[str, Any] | None:
    """The abstract part of a summary, or None when the round had none."""
    if report is None:
        return None
    return {
        "entries": [_entry(e, disclosure) for e in report.entries],
        "opposition": [
            {"task": o.task, "dice": list(o.dice), "pips": o.pips,
             "rolls": [roll_view(x) for x in o.rolls]}
            for o in report.opposition
        ],
        "banks": [{"character": name, "bank": disclosure.number(name, pips)}
                  for name, pips in report.banks],
        "tasks": [_task(t, hide=disclosure.hide) for t in report.tasks],
        "outlook": [
            {"character": o.character, "task": o.task, "bank": o.bank,
             "odds": [{"intervals": k, "percent": _percent(float(p))} for k, p in o.odds]}
            for o in report.outlook if not disclosure.hides(o.character)
        ],
    }  # fmt: skip
