"""What a ruleset shows, behind one interface; ``render.registry`` lists them. A ruleset's
views: its table for ``!status`` and a summary, a character's sheet lines, its part of a round's
summary, and its sections of the JSON ledger (SPEC §5). The defaults show nothing, so a
ruleset states only what it has."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from jinja2 import Environment

from pbp.engine.report import RoundReport
from pbp.engine.state import EngineState
from pbp.render.disclosure import Disclosure
from pbp.render.tables import SheetLines, Shown, Table
from pbp.rules.dice.seeded import RollRecord


class RulesetViews:
    """One ruleset's views (the roster's rows and sheet are templates of their own,
    ``render.roster``)."""

    summary_table: bool = False  # its table shows in the round summary too
    section: str | None = None  # the summary's template of its part (``_<name>.md.j2``)
    shows_scene: bool = False  # its section shows the scene (no roster table under it)
    round_word: str = "Round"  # what its scene calls a round (an interval, say), capitalised
    # the actor's numbers its problems and violations carry, by cause or code: left out of
    # what players read when the actor is an NPC under hide-npcs (``render.disclosure``)
    npc_numbers: ClassVar[Mapping[str, tuple[str, ...]]] = {}

    def table(self, state: EngineState, shown: Shown) -> Table | None:
        """The scene's own table, for ``!status`` (and the summary when ``summary_table``)."""
        return None

    def sheet(self, state: EngineState, name: str, shown: Shown) -> SheetLines | None:
        """A character's lines of the scene on ``!sheet``."""
        return None

    def standing(self, state: EngineState, name: str) -> str | None:
        """What its state says of a character in every scene, for ``!sheet`` where another
        ruleset runs the scene (a foe a won skirmish left dead); None: nothing."""
        return None

    def summary(self, report: RoundReport, *, disclosure: Disclosure) -> dict[str, Any]:
        """Its part of the summary template's values, as players may see them (under
        ``hide-npcs``, the NPCs' numbers and unidentified talents hidden)."""
        return {}

    def present(self, values: dict[str, Any]) -> bool:
        """Whether its part of a summary (``summary``'s values) has anything to show."""
        return any(values.values())

    def rolls(self, values: dict[str, Any]) -> list[dict[str, Any]]:
        """The rolls of its part of a summary, for the dice line."""
        return []

    def ledger_actions(self, report: RoundReport, env: Environment) -> list[dict[str, Any]]:
        """Its entries of the round's ``actions`` in the ledger."""
        return []

    def ledger_rolls(self, report: RoundReport) -> tuple[RollRecord, ...]:
        """The round's rolls of its part that no action of the ledger carries (a GM's
        opposition, initiative): the ledger lists them so that it holds every die of the
        summary (RULES §7)."""
        return ()

    def ledger_round(self, report: RoundReport) -> dict[str, Any]:
        """Its keys of a closed round in the ledger."""
        return {}

    def ledger_characters(self, state: EngineState, characters: dict[str, Any]) -> None:
        """Add its values to each character's ledger entry, as the scene stands."""

    def targets(self, state: EngineState) -> tuple[str, tuple[str, ...]] | None:
        """What its tags aim at, as the cheat sheet and ``!help`` list them: a label and the
        names (None: the scene's characters, as "Targets")."""
        return None

    def example_task(self, state: EngineState) -> str | None:
        """A task a problem reply's example may name (None: the scene has none)."""
        return None
