"""What the web pages draw of a scene, as plain values (``pbp.web`` turns them into SVG):
who stands with whom, a fight's turn order with its pools, an abstract task's chance to finish.

They come from the same views as ``!status`` and the summaries (``render.registry``), with the
same ``Disclosure``: under hide-npcs an NPC's numbers are ``None`` here as they are ``?`` there.
"""

from __future__ import annotations

from pbp.engine.state import EngineState
from pbp.render.registry import ALL, ROSTER, VIEWS
from pbp.render.replies import Replies
from pbp.render.tables import HIDDEN
from pbp.values import frozen_value


@frozen_value
class Group:
    """Characters standing together (a Distat group), on one side."""

    label: str
    members: tuple[tuple[str, str, bool], ...]  # name, side, out of the fight


@frozen_value
class Fighter:
    """One place of a fight's turn order: its pools (None: hidden from players)."""

    name: str
    side: str
    hp: int | None
    wp: int | None
    out: bool


@frozen_value
class Outlook:
    """A character's chance of finishing a task within each number of intervals."""

    character: str
    task: str
    odds: tuple[tuple[int, float, str], ...]  # intervals, percent, as the summary says it


@frozen_value
class ScenePicture:
    """Everything a scene's picture shows (each part empty when the scene has none)."""

    scene: str
    groups: tuple[Group, ...] = ()
    fighters: tuple[Fighter, ...] = ()
    outlook: tuple[Outlook, ...] = ()


def scene_picture(replies: Replies, state: EngineState) -> ScenePicture:
    """The picture of the thread's scene as ``replies`` would show it (its disclosure)."""
    return ScenePicture(
        scene=state.scene_kind.value,
        groups=_groups(replies, state),
        fighters=_fighters(replies, state),
        outlook=_outlook(replies, state),
    )


def _groups(replies: Replies, state: EngineState) -> tuple[Group, ...]:
    """Who stands with whom: the roster's rows say it of each character ("with A, B")."""
    scene = state.round.base if state.round is not None else state.scene
    rows = [r for r in ROSTER.rows(scene, replies.disclosure(state)) if "group" in r]
    names = {str(r["name"]) for r in rows}
    groups: dict[tuple[str, ...], list[tuple[str, str, bool]]] = {}
    for row in rows:
        name, label = str(row["name"]), str(row.get("group") or "")
        others = label.removeprefix("with ").split(", ") if label.startswith("with ") else []
        together = tuple(sorted({name, *(o for o in others if o in names)}))
        out = str(row.get("status") or "") == "out"
        groups.setdefault(together, []).append((name, str(row.get("side", "")), out))
    return tuple(
        Group(label=" · ".join(k) if len(k) > 1 else f"{k[0]}, alone", members=tuple(v))
        for k, v in groups.items()
    )


def _number(cell: str) -> int | None:
    cell = cell.strip()
    return None if cell == HIDDEN or not cell.lstrip("-").isdigit() else int(cell)


def _fighters(replies: Replies, state: EngineState) -> tuple[Fighter, ...]:
    table = VIEWS[state.scene_kind].table(state, replies.shown(state))
    if table is None:
        return ()
    columns = [c.removeprefix("Skirmish ") for c in table.columns]
    if "HP" not in columns or "WP" not in columns:
        return ()
    hp, wp = columns.index("HP"), columns.index("WP")
    state_at = columns.index("State") if "State" in columns else None
    return tuple(
        Fighter(
            name=row[0].replace("\\", ""),
            side=row[1].replace("\\", ""),
            hp=_number(row[hp]),
            wp=_number(row[wp]),
            out=state_at is not None and row[state_at] == "out",
        )
        for row in table.rows
    )


def _outlook(replies: Replies, state: EngineState) -> tuple[Outlook, ...]:
    """The last closed interval's outlook, as its summary showed it."""
    if not state.closed:
        return ()
    report = state.closed[-1].report
    found: list[Outlook] = []
    for views in ALL:
        own = views.summary(report, disclosure=replies.disclosure(state))
        # a ruleset's values sit under its own key ({"abstract": {"outlook": [...]}})
        for part in (own, *(v for v in own.values() if isinstance(v, dict))):
            for item in part.get("outlook", ()) or ():
                odds = tuple(
                    (int(p["intervals"]), _percent(p["percent"]), str(p["percent"]))
                    for p in item["odds"]
                )
                found.append(
                    Outlook(character=str(item["character"]), task=str(item["task"]), odds=odds)
                )
    return tuple(found)


def _percent(value: object) -> float:
    text = str(value).strip().rstrip("%").replace("<", "").replace(">", "").strip()
    try:
        return float(text)
    except ValueError:
        return 0.0
