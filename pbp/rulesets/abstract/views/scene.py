"""What ``!status``, ``!sheet`` and a summary show of an abstract encounter: the banks and the
tasks (secret DCs hidden under ``hide-npcs``)."""

from __future__ import annotations

from pbp.engine.state import EngineState
from pbp.render.environment import md_escape as md
from pbp.render.tables import HIDDEN, SheetLines, Shown, Table, scene_names, side_of
from pbp.rulesets.abstract.engine.model import AbstractState


def abstract_table(state: EngineState, shown: Shown) -> Table:
    """An abstract encounter: each character's banked pips (RULES E6, E15) and the tasks."""
    abstract = state.slot(AbstractState)
    rows = tuple(
        (md(n), md(side_of(state, n)), shown.value(n, abstract.bank(n))) for n in scene_names(state)
    )
    notes: list[str] = []
    if abstract.interval is not None:
        notes.append(f"Each interval is {_duration(abstract.interval.total_seconds())}.")
    for task in abstract.tasks:
        dc = HIDDEN if task.secret and shown.hide else str(task.dc)
        done = f"done by {md(task.done_by)}" if task.done_by else "open"
        notes.append(f"Task {md(task.name)}: DC {dc}, {done}.")
    if not abstract.tasks:
        notes.append("No task yet: the GM sets one with `!task NAME dc N`.")
    return Table(columns=("Character", "Side", "Banked pips"), rows=rows, notes=tuple(notes))


def abstract_sheet(state: EngineState, name: str, shown: Shown) -> SheetLines:
    """A character's sheet in an abstract encounter: the bank is theirs, across encounters."""
    if name in shown.hidden:
        return SheetLines(lines=None)
    return SheetLines(lines=(("Banked pips", str(state.slot(AbstractState).bank(name))),))


def _duration(seconds: float) -> str:
    for size, unit in ((86400, "day"), (3600, "hour"), (60, "minute")):
        if seconds >= size and seconds % size == 0:
            n = int(seconds // size)
            return f"{n} {unit}{'s' if n != 1 else ''}"
    return f"{int(seconds)} seconds"
