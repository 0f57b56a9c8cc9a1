"""The Distat ruleset's views: its ledger sections (``RulesetViews``), and the views of the
roster it keeps for every scene (``RosterViews``): the characters' rows of ``!status`` and a
summary, a ``!sheet``, a short rest in a summary. Its part of the summary is a section like
every ruleset's (``_distat.md.j2``); the roster's rows are templates of their own
(``_distat_status.md.j2``, ``_distat_sheet.md.j2``, the summary's scene table
``_distat_scene.md.j2`` and short rest ``_distat_rest.md.j2``), included by the generic ones."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jinja2 import Environment

from pbp.campaign.model import Campaign
from pbp.engine.report import RoundReport
from pbp.engine.roster import Roster
from pbp.engine.state import EngineState
from pbp.render.disclosure import Disclosure, Identified
from pbp.render.roster import RosterViews
from pbp.render.ruleset import RulesetViews
from pbp.rulesets.distat import rules as distat
from pbp.rulesets.distat.engine.model import DistatRound, RosterReport, own
from pbp.rulesets.distat.sheet import DistatSheet
from pbp.rulesets.distat.views.ledger import ledger_action, ledger_character
from pbp.rulesets.distat.views.views import (
    DISTAT_NPC_NUMBERS,
    action_view,
    character_row,
    group_labels,
    restraint_lasts,
)
from pbp.tags.model import SceneKind


def _roster_part(report: RoundReport) -> RosterReport:
    return report.parts.get(RosterReport) or RosterReport()


def _actions(report: RoundReport) -> DistatRound:
    return report.parts.get(DistatRound) or DistatRound()


def _has_points(entry: dict[str, Any]) -> bool:
    return bool(entry["body"]["full"] or entry["mind"]["full"])


class DistatViews(RulesetViews):
    """Distat's part of a summary (its actions' table, ``_distat.md.j2``) and its sections of
    the ledger: its actions, and every character's entry."""

    section = "_distat.md.j2"
    npc_numbers = DISTAT_NPC_NUMBERS

    def summary(self, report: RoundReport, *, disclosure: Disclosure) -> dict[str, Any]:
        characters = _roster_part(report).characters
        return {
            "actions": [
                restraint_lasts(action_view(a, disclosure), characters)
                for a in _actions(report).actions
            ]
        }

    def present(self, values: dict[str, Any]) -> bool:
        return bool(values["actions"])

    def ledger_actions(self, report: RoundReport, env: Environment) -> list[dict[str, Any]]:
        return [ledger_action(a, env) for a in _actions(report).actions]

    def ledger_characters(self, state: EngineState, characters: dict[str, Any]) -> None:
        scene = own(state.round.base if state.round is not None else state.scene)
        for name in distat.names(scene):
            entry = ledger_character(distat.view(scene, name))
            # a character of another scene's rules only (no Body, no Mind) is not "zeroed":
            # Distat's status is not its state; that scene's own views say it
            if state.scene_kind is not SceneKind.DISTAT and not _has_points(entry):
                entry["status"] = "active"
            characters[name] = entry


class DistatRosterViews(RosterViews):
    """The Distat scene's characters as the replies show them."""

    scene_section = "_distat_scene.md.j2"
    rest_section = "_distat_rest.md.j2"
    status_section = "_distat_status.md.j2"
    sheet_section = "_distat_sheet.md.j2"

    def identified(self, state: EngineState) -> Identified:
        # the scene after the last closed round knows every talent identified in this thread
        return own(state.scene).identified

    def example_talent(self, campaign: Campaign, *, own: Sequence[str]) -> str | None:
        sheets = sorted(campaign.characters, key=lambda c: c.name not in own)  # own first
        talents = [
            t.name for c in sheets for t in c.part(DistatSheet).talents if t.kind == "active"
        ]
        return talents[0] if talents else None

    def rows(self, roster: Roster, disclosure: Disclosure) -> list[dict[str, Any]]:
        scene = own(roster)
        labels = group_labels(scene)
        return [
            character_row(distat.view(scene, n), disclosure, labels) for n in distat.names(scene)
        ]

    def sheet(self, roster: Roster, name: str, disclosure: Disclosure) -> dict[str, Any]:
        scene = own(roster)
        row = character_row(distat.view(scene, name), disclosure, group_labels(scene))
        talents = [] if row["hidden"] else list(distat.fighter(scene, name).talents)
        return {**row, "talents": talents}

    def summary(
        self, report: RoundReport, *, roster: Roster, disclosure: Disclosure
    ) -> dict[str, Any]:
        part = _roster_part(report)
        labels = group_labels(own(roster))
        return {
            "recovered": [
                r for r in part.recovered if disclosure.number(r.character, 0) is not None
            ],
            "characters": [character_row(c, disclosure, labels) for c in part.characters],
        }


DISTAT_VIEWS = DistatViews()
DISTAT_ROSTER_VIEWS = DistatRosterViews()
