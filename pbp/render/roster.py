"""What the replies show of the roster every scene shares (``engine.roster``), behind one
interface: the characters of ``!status``, a character's ``!sheet`` row, the roster's part of a
round's summary, what the party has identified. ``render.registry.ROSTER`` names the views of
the ruleset that keeps the roster; nothing else in render names it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbp.campaign.model import Campaign
from pbp.engine.report import RoundReport
from pbp.engine.roster import Roster
from pbp.engine.state import EngineState
from pbp.render.disclosure import Disclosure, Identified


class RosterViews:
    """The roster's views. The defaults show nobody."""

    scene_section: str | None = None  # its table of the characters under a summary
    rest_section: str | None = None  # its line of the short rest at an encounter's end
    status_section: str | None = None  # its table of the characters in !status
    sheet_section: str | None = None  # its part of a character's !sheet

    def identified(self, state: EngineState) -> Identified:
        """What the party has identified in this thread (observer, target, talent)."""
        return frozenset()

    def example_talent(self, campaign: Campaign, *, own: Sequence[str]) -> str | None:
        """The talent a problem reply's example uses: one the sheets of ``own`` (the
        author's characters) or else the campaign's give; None when no sheet has one."""
        return None

    def rows(self, roster: Roster, disclosure: Disclosure) -> list[dict[str, Any]]:
        """Every character's row of the status table, in roster order."""
        return []

    def sheet(self, roster: Roster, name: str, disclosure: Disclosure) -> dict[str, Any]:
        """A character's ``!sheet`` values: its row, and its talents unless hidden."""
        return {}

    def summary(
        self, report: RoundReport, *, roster: Roster, disclosure: Disclosure
    ) -> dict[str, Any]:
        """The roster's values of a round's summary (``roster``: the scene, for where each
        character stands)."""
        return {}
