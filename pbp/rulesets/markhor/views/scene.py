"""What ``!status``, ``!sheet`` and a summary show of a skirmish or battle: everyone's pools,
a battle's action points a turn, the turn order."""

from __future__ import annotations

from pbp.engine.state import EngineState
from pbp.render.environment import md_escape as md
from pbp.render.tables import SheetLines, Shown, Table, scene_names, side_of
from pbp.rulesets.markhor.engine.model import MarkhorState
from pbp.rulesets.markhor.rules.actions import action_points

TURN_AP_CAP = 6  # the Actions page: at most 6 AP on one's own turn


def _fight(state: EngineState) -> tuple[list[str], dict[str, tuple[int, int, bool]]]:
    """The fight's entities in turn order (roster order before initiative) and their pools
    (full, from the sheet or the skirmish formula, before the first close)."""
    from pbp.rulesets.markhor.engine.resolve import skirmish_formula, with_pools

    names = scene_names(state)
    entities = [(n, side_of(state, n)) for n in names]
    markhor = with_pools(
        state.slot(MarkhorState), entities, state.scores, formula=skirmish_formula(state.campaign)
    )
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
    battle = state.slot(MarkhorState).mode == "battle"
    order, pools = _fight(state)
    rows = []
    fight = state.slot(MarkhorState)
    for name in order:
        fate = fight.fate(name)
        hp, wp, out = pools.get(name, (0, 0, False))
        row = [md(name), md(side_of(state, name))]
        # RULES M8: a foe a won skirmish left has no pools, and is not back in the fight
        row += ["–", "–"] if fate else [shown.value(name, hp), shown.value(name, wp)]
        if battle:
            stamina = state.scores(name).get("stamina") or 0
            ap = min(action_points(stamina=stamina), TURN_AP_CAP)
            row.append("–" if fate else shown.value(name, ap))
        row.append(fate or ("out" if out else "in the fight"))
        rows.append(tuple(row))
    label = "" if battle else "Skirmish "
    columns = (
        "Character",
        "Side",
        f"{label}HP",
        f"{label}WP",
        *(("AP a turn",) if battle else ()),
        "State",
    )
    rolled = [r.name for r in state.slot(MarkhorState).order]
    notes = (
        f"Turn order: {' → '.join(md(n) for n in rolled)}."
        if rolled
        else "Initiative is rolled at the encounter's first close.",
    )
    return Table(columns=columns, rows=tuple(rows), notes=notes)


def markhor_sheet(state: EngineState, name: str, shown: Shown) -> SheetLines:
    """A character's scores and pools in a skirmish or battle."""
    if name in shown.hidden:
        return SheetLines(lines=None)
    scores = state.scores(name)
    fate = state.slot(MarkhorState).fate(name)
    if fate is not None:  # RULES M8: the skirmish pools are dismissed
        return SheetLines(lines=(("State", f"{fate}: out of the fight since a won skirmish"),))
    _order, pools = _fight(state)
    hp, wp, out = pools.get(name, (0, 0, False))
    battle = state.slot(MarkhorState).mode == "battle"
    label = "HP and WP" if battle else "Skirmish HP and WP"
    # the scores this kind of fight reads: a skirmish's pools come from Constitution and
    # Wisdom (RULES M1), a battle's initiative from Intuition (M5); AP from Stamina in both
    keys = ("intuition", "stamina") if battle else ("constitution", "wisdom", "stamina")
    lines = [(key.capitalize(), str(scores.get(key) or 0)) for key in keys]
    lines.append((label, f"{hp} and {wp}{' (out)' if out else ''}"))
    return SheetLines(lines=tuple(lines))
