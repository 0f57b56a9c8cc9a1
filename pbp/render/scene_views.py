"""What ``!status``, ``!sheet`` and a summary show of a scene, each kind of scene its own:
a d20 scene its dice pools and aid waiting, an abstract encounter its banks and tasks, a
skirmish or battle its pools, action points and turn order. Distat keeps its own templates
(Body and Mind, groups, restraints); no Distat column shows in another scene.

Each scene gives tables (columns and rows of Markdown, user text escaped) and sheet lines;
under ``hide-npcs`` an NPC's numbers are ``?``, whether it is out is not.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pbp.engine.d20_tags import pool_size
from pbp.engine.markhor_resolve import skirmish_formula, with_pools
from pbp.engine.state import EngineState
from pbp.render.environment import md_escape as md
from pbp.rules import distat
from pbp.rules.markhor import action_points
from pbp.tags.model import SceneKind

HIDDEN = "?"
TURN_AP_CAP = 6  # the Actions page: at most 6 AP on one's own turn


@dataclass(frozen=True, slots=True, kw_only=True)
class Table:
    """A table of a scene: its columns, one row per character, and lines under it."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class SheetLines:
    """One character's sheet in a scene: label and value pairs (None: hidden from players)."""

    lines: tuple[tuple[str, str], ...] | None


@dataclass(frozen=True, slots=True, kw_only=True)
class Shown:
    """What players may see: under ``hide-npcs`` (``hide``), none of these NPCs' numbers
    and no secret DC."""

    hide: bool
    hidden: frozenset[str]

    def value(self, owner: str, value: object) -> str:
        """A number of ``owner``'s as players see it."""
        return HIDDEN if owner in self.hidden else str(value)


def _names(state: EngineState) -> list[str]:
    scene = state.round.base if state.round is not None else state.scene
    return list(distat.names(scene))


def _side(state: EngineState, name: str) -> str:
    scene = state.round.base if state.round is not None else state.scene
    return distat.view(scene, name).side


# -- d20 Advanced -----------------------------------------------------------------------------


def _d20_aid(state: EngineState, name: str) -> str:
    waiting = [a for a in state.d20.aid if a.target == name]
    return ", ".join(f"+{a.bonus} {md(a.skill)} (from {md(a.helper)})" for a in waiting) or "–"


def _d20_pool(state: EngineState, name: str) -> str:
    sheet = state.campaign.character(name)
    size = sheet.dice_pool if sheet is not None else 0
    return f"{pool_size(state.campaign, state.d20, name)} of {size}" if size else "–"


def d20_table(state: EngineState, shown: Shown) -> Table:
    """A d20 scene: each character's dice pool (RULES A8) and the aid waiting for it (A5)."""
    rows = tuple(
        (md(n), md(_side(state, n)), shown.value(n, _d20_pool(state, n)), _d20_aid(state, n))
        for n in _names(state)
    )
    notes = ("Under pressure: nobody may take 10 or 20.",) if state.d20.pressure else ()
    return Table(columns=("Character", "Side", "Dice pool", "Aid waiting"), rows=rows,
                 notes=notes)


def d20_sheet(state: EngineState, name: str, shown: Shown) -> SheetLines:
    """A character's sheet in a d20 scene."""
    if name in shown.hidden:
        return SheetLines(lines=None)
    return SheetLines(lines=(("Dice pool", _d20_pool(state, name)),
                             ("Aid waiting", _d20_aid(state, name))))


# -- Epic Path abstract encounters ------------------------------------------------------------


def abstract_table(state: EngineState, shown: Shown) -> Table:
    """An abstract encounter: each character's banked pips (RULES E6, E15) and the tasks."""
    abstract = state.abstract
    rows = tuple((md(n), md(_side(state, n)), shown.value(n, abstract.bank(n)))
                 for n in _names(state))
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
    return SheetLines(lines=(("Banked pips", str(state.abstract.bank(name))),))


def _duration(seconds: float) -> str:
    for size, unit in ((86400, "day"), (3600, "hour"), (60, "minute")):
        if seconds >= size and seconds % size == 0:
            n = int(seconds // size)
            return f"{n} {unit}{'s' if n != 1 else ''}"
    return f"{int(seconds)} seconds"


# -- Markhorspire skirmishes and battles ------------------------------------------------------


def _fight(state: EngineState) -> tuple[list[str], dict[str, tuple[int, int, bool]]]:
    """The fight's entities in turn order (roster order before initiative) and their pools
    (full, from the sheet or the skirmish formula, before the first close)."""
    names = _names(state)
    entities = [(n, _side(state, n)) for n in names]
    markhor = with_pools(state.markhor, entities, state.scores,
                         formula=skirmish_formula(state.campaign))
    order = [r.name for r in markhor.order if r.name in names]
    order += [n for n in names if n not in order]
    pools = {}
    for name in order:
        pool = markhor.pool(name)
        if pool is not None:
            pools[name] = (pool.hp, pool.wp, pool.out)
    return order, pools


def markhor_table(state: EngineState, shown: Shown) -> Table:
    """A skirmish or battle: everyone's pools and state in turn order; a battle's action
    points a turn (Stamina + 3, at most 6)."""
    battle = state.markhor.mode == "battle"
    order, pools = _fight(state)
    rows = []
    for name in order:
        hp, wp, out = pools.get(name, (0, 0, False))
        row = [md(name), md(_side(state, name)), shown.value(name, hp), shown.value(name, wp)]
        if battle:
            stamina = state.scores(name).get("stamina") or 0
            row.append(shown.value(name, min(action_points(stamina=stamina), TURN_AP_CAP)))
        row.append("out" if out else "in the fight")
        rows.append(tuple(row))
    label = "" if battle else "Skirmish "
    columns = ("Character", "Side", f"{label}HP", f"{label}WP",
               *(("AP a turn",) if battle else ()), "State")
    rolled = [r.name for r in state.markhor.order]
    notes = (f"Turn order: {' → '.join(md(n) for n in rolled)}." if rolled
             else "Initiative is rolled at the encounter's first close.",)
    return Table(columns=columns, rows=tuple(rows), notes=notes)


def markhor_sheet(state: EngineState, name: str, shown: Shown) -> SheetLines:
    """A character's scores and pools in a skirmish or battle."""
    if name in shown.hidden:
        return SheetLines(lines=None)
    scores = state.scores(name)
    _order, pools = _fight(state)
    hp, wp, out = pools.get(name, (0, 0, False))
    label = "HP and WP" if state.markhor.mode == "battle" else "Skirmish HP and WP"
    lines = [(key.capitalize(), str(scores.get(key) or 0))
             for key in ("constitution", "wisdom", "intuition", "stamina")]
    lines.append((label, f"{hp} and {wp}{' (out)' if out else ''}"))
    return SheetLines(lines=tuple(lines))


SceneTable = Callable[[EngineState, Shown], Table]
SceneSheet = Callable[[EngineState, str, Shown], SheetLines]

# the scenes shown through these plain tables; Distat has templates of its own
SCENES: dict[SceneKind, tuple[SceneTable, SceneSheet]] = {
    SceneKind.D20: (d20_table, d20_sheet),
    SceneKind.ABSTRACT: (abstract_table, abstract_sheet),
    SceneKind.SKIRMISH: (markhor_table, markhor_sheet),
    SceneKind.BATTLE: (markhor_table, markhor_sheet),
}
