"""What ``!status``, ``!sheet`` and a summary show of a d20 scene: each character's dice pool
the aid waiting for it and the condition tracks off their best step (under ``hide-npcs`` none
of them for an NPC)."""

from __future__ import annotations

from pbp.campaign.sheets.skills import SkillSheet
from pbp.engine.state import EngineState
from pbp.render.environment import md_escape as md
from pbp.render.tables import SheetLines, Shown, Table, scene_names, side_of
from pbp.rulesets.d20.engine.model import D20State
from pbp.rulesets.d20.rules.conditions import Track
from pbp.rulesets.d20.sheet import D20Sheet


def _d20_aid(state: EngineState, name: str) -> str:
    waiting = [a for a in state.slot(D20State).aid if a.target == name]
    return ", ".join(f"+{a.bonus} {md(a.skill)} (from {md(a.helper)})" for a in waiting) or "–"


def _d20_pool(state: EngineState, name: str) -> str:
    from pbp.rulesets.d20.engine.tags import pool_size

    sheet = state.campaign.character(name)
    size = sheet.part(D20Sheet).dice_pool if sheet is not None else 0
    return f"{pool_size(state.campaign, state.slot(D20State), name)} of {size}" if size else "–"


def _conditions(state: EngineState, name: str) -> str:
    """Where ``name`` stands on the condition tracks off their best step (RULES A10)."""
    now = state.slot(D20State).condition(name)
    worse = [
        f"{track.value.replace('_', ' ')} {now.name(track)}"
        for track in Track
        if now.position(track) > 0
    ]
    return ", ".join(md(w) for w in worse) or "none"


def d20_table(state: EngineState, shown: Shown) -> Table:
    """A d20 scene: each character's dice pool (RULES A8) and the aid waiting for it (A5)."""
    rows = tuple(  # the aid waiting for an NPC is a bonus to its next check: its number
        (
            md(n),
            md(side_of(state, n)),
            shown.value(n, _d20_pool(state, n)),
            shown.value(n, _d20_aid(state, n)),
        )
        for n in scene_names(state)
    )
    notes = ["Under pressure: nobody may take 10 or 20."] if state.slot(D20State).pressure else []
    notes += [
        f"{md(n)}: {_conditions(state, n)}."
        for n in scene_names(state)
        if n not in shown.hidden and _conditions(state, n) != "none"
    ]
    return Table(
        columns=("Character", "Side", "Dice pool", "Aid waiting"), rows=rows, notes=tuple(notes)
    )


def d20_sheet(state: EngineState, name: str, shown: Shown) -> SheetLines:
    """A character's sheet in a d20 scene."""
    if name in shown.hidden:
        return SheetLines(lines=None)
    sheet = state.campaign.character(name)
    own = sheet.part(D20Sheet) if sheet is not None else D20Sheet()
    skills = sheet.part(SkillSheet).skills if sheet is not None else ()
    return SheetLines(
        lines=(
            ("Attack", "–" if own.attack is None else f"{own.attack:+d}"),
            ("Defense", "–" if own.defense is None else str(own.defense)),
            ("Skills", ", ".join(f"{md(skill)} {bonus:+d}" for skill, bonus in skills) or "–"),
            ("Dice pool", _d20_pool(state, name)),
            ("Aid waiting", _d20_aid(state, name)),
            ("Conditions", _conditions(state, name)),
        )
    )
