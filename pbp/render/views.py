"""View models: the facts of a summary as plain values a template can show.

``hide-npcs`` (SPEC §4.5) is applied here through a ``Disclosure`` (``render.disclosure``).
The roster's values (its actions, characters and a rest) come from the roster's views, each
ruleset's part from its own (``render.registry``); this module names none of them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pbp.campaign.model import Campaign
from pbp.engine.report import RoundReport
from pbp.engine.roster import Roster
from pbp.render import registry
from pbp.render.disclosure import Disclosure


def summary_view(
    report: RoundReport,
    *,
    campaign: Campaign,
    disclosure: Disclosure,
    seed: str | None,
    next_seal: str | None,
    roster: Roster,
) -> dict[str, Any]:
    """Everything the summary template shows (``roster``: the scene as it stands now, for
    where each character stands)."""
    return {
        "campaign": campaign.name,
        "number": report.number,
        "scene": report.scene,
        "closed_by": report.closed_by,
        "closed_at": _when(report.closed_at),
        **registry.ROSTER.summary(report, roster=roster, disclosure=disclosure),
        "roster_scene": registry.ROSTER.scene_section,
        "roster_rest": registry.ROSTER.rest_section,
        **_parts(report, disclosure),
        "corrections": [
            {
                "character": c.character,
                "what": c.what,
                "stat": c.stat,
                "amount": disclosure.number(c.character, c.amount),
                "after": disclosure.number(c.character, c.after),
                "became": c.became,
                "changed": disclosure.number(c.character, c.changed),
            }
            for c in report.corrections
        ],
        "rejected": report.rejected,
        "not_acted": report.not_acted,
        "standing": report.standing,
        "late_edits": report.late_edits,
        "next_round": report.next_round,
        "next_deadline": _when(report.next_deadline) if report.next_deadline else None,
        "notes": report.notes,
        "seed": seed,
        "next_seal": next_seal,
    }


def _parts(report: RoundReport, disclosure: Disclosure) -> dict[str, Any]:
    """Each ruleset's part of the summary (render.registry): its values, the sections that
    show, their rolls, and whether one of them shows the scene."""
    values: dict[str, Any] = {}
    shown = []
    for views in registry.ALL:
        own = views.summary(report, disclosure=disclosure)
        values.update(own)
        if views.section is not None and views.present(own):
            shown.append((views, own))
    return {
        **values,
        "sections": [views.section for views, _ in shown],
        "section_rolls": [r for views, own in shown for r in views.rolls(own)],
        "own_scene": any(views.shows_scene for views, _ in shown),
    }


def _when(at: datetime) -> str:
    return at.strftime("%Y-%m-%d %H:%M UTC")
