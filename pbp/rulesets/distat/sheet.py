"""Distat's part of a character sheet: the points invested in Body and Mind, the bonus pool
and the talents (RULES §1), read and checked as the campaign file gives them."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any, ClassVar

from pbp.campaign.names import check_name
from pbp.campaign.sheets.base import OptionKey, SheetKey, SheetReader, sheet_key
from pbp.campaign.tables import KeyPath, Reader, Table
from pbp.rulesets.distat.rules.intents import STATS, Stat
from pbp.rulesets.distat.rules.talents import Talent, TalentEffect, TalentKind
from pbp.tags.model import SceneKind
from pbp.values import frozen_value

_POINTS = ("body", "mind", "bonus_pool")
_TALENT_KEYS = ("name", "stat", "level", "kind", "eav", "epv", "effect")
_STATS: tuple[Stat, ...] = STATS
_KINDS: tuple[TalentKind, ...] = ("active", "passive")
_EFFECTS: tuple[TalentEffect, ...] = ("attack", "restrain", "none")


@frozen_value
class DistatSheet:
    """A character's Distat numbers (the roster's Body and Mind start from them)."""

    body: int = 0
    mind: int = 0
    bonus_pool: int = 0
    talents: tuple[Talent, ...] = ()

    def scores(self) -> Mapping[str, int | None]:
        """None: the roster reads Body and Mind, never by key."""
        return {}


@frozen_value
class DistatOptions:
    """Distat's table options (``[campaign.options]``; defaults as RULES.md writes them)."""

    identify_bonus_requires_owning: bool = False  # RULES D14


class DistatSheetReader(SheetReader):
    """Reads ``body``, ``mind``, ``bonus_pool`` and ``[[characters.talents]]``, and the
    option ``identify_bonus_requires_owning``."""

    keys: ClassVar[Mapping[str, SheetKey]] = {
        "body": sheet_key("a Distat stat (points invested in Body)", SceneKind.DISTAT, listed=10),
        "mind": sheet_key("a Distat stat (points invested in Mind)", SceneKind.DISTAT, listed=20),
        "bonus_pool": sheet_key("Distat's bonus pool", SceneKind.DISTAT, listed=30),
        "talents": sheet_key("Distat talents", SceneKind.DISTAT, listed=110),
    }
    misplaced: ClassVar[Mapping[str, tuple[str, str]]] = {
        "eav": ("a Distat value worked out from body and its talents", "body = 6"),
        "epv": ("a Distat value worked out from mind and its talents", "mind = 3"),
    }
    options: ClassVar[Mapping[str, OptionKey]] = {
        "identify_bonus_requires_owning": OptionKey(False, listed=10),  # RULES D14
    }

    def read_options(self, given: Mapping[str, bool | int]) -> DistatOptions:
        return DistatOptions(
            identify_bonus_requires_owning=bool(given["identify_bonus_requires_owning"])
        )

    def read(self, reader: Reader, row: Table, at: KeyPath) -> DistatSheet:
        points: dict[str, Any] = {
            key: reader.attempt(partial(reader.whole, row, at, key, default=0, minimum=0), None)
            for key in _POINTS
        }
        rows: list[Table] = reader.attempt(lambda: reader.tables(row, at, "talents"), [])
        talents = tuple(
            reader.attempt(partial(_talent, reader, t, (*at, "talents", i), points), None)
            for i, t in enumerate(rows)
        )
        # a talent may be taken more than once: its copies stack (RULES §1.1), so no
        # uniqueness check
        reader.attempt(lambda: _check_bonus_pool(reader, at, points), None)
        return DistatSheet(
            talents=tuple(t for t in talents if t is not None),
            **{key: value or 0 for key, value in points.items()},
        )

    def warn(
        self, reader: Reader, row: Table, at: KeyPath, *, ruleset: SceneKind, skip: set[str]
    ) -> None:
        if ruleset is SceneKind.DISTAT and row.get("player") is not None:
            points = [row.get(k, 0) for k in ("body", "mind")]
            if all(isinstance(p, int) and p == 0 for p in points) and not row.get("talents"):
                reader.warn(
                    at,
                    "this PC has no points in body or mind: it starts zeroed and cannot act in "
                    "a Distat scene",
                    "body = 6, mind = 3 (the points invested in each)",
                )


def _check_bonus_pool(reader: Reader, at: KeyPath, points: dict[str, Any]) -> None:
    # RULES §1.2 / D15: the pool's maximum is the highest talent level the character can buy
    if None in (points["body"], points["mind"], points["bonus_pool"]):
        return  # a number that is wrong itself was reported already
    most = max(points["body"], points["mind"]) // 2
    if points["bonus_pool"] > most:
        reader.fail(
            (*at, "bonus_pool"),
            f"bonus_pool = {points['bonus_pool']} is above the pool's maximum of {most}",
            f"at most {most}: RULES D15 caps the pool at half the points in the "
            "higher of body and mind",
        )


def _talent(reader: Reader, row: Table, at: KeyPath, points: dict[str, Any]) -> Talent:
    """One talent, every mistake of it kept (``pbp check`` reports them all in one run); a
    talent with any mistake raises the last one, so it is left out."""
    before = len(reader.mistakes)
    reader.attempt(lambda: reader.check_keys(row, at, allowed=_TALENT_KEYS), None)
    for key, example in (
        ("name", '"Aggressive"'),
        ("stat", '"body" or "mind"'),
        ("level", "1 or more"),
        ("kind", '"active" or "passive"'),
    ):
        reader.attempt(partial(reader.required, row, at, key, expected=example), None)
    stat = reader.attempt(
        partial(reader.choice, row, at, "stat", choices=_STATS, default="body"), None
    )
    kind = reader.attempt(
        partial(reader.choice, row, at, "kind", choices=_KINDS, default="passive"), None
    )
    effect = reader.attempt(
        partial(reader.choice, row, at, "effect", choices=_EFFECTS, default=None), None
    )
    level = reader.attempt(partial(reader.whole, row, at, "level", minimum=1), None)
    name = reader.attempt(partial(_name, reader, row, at), None)
    eav = reader.attempt(partial(reader.whole, row, at, "eav"), None)
    epv = reader.attempt(partial(reader.whole, row, at, "epv"), None)
    # RULES §1.2: max talent level in a stat = floor(invested / 2)
    invested = points[stat] if stat is not None else None
    most = invested // 2 if invested is not None else None
    if level is not None and most is not None and level > most:
        reader.report(
            (*at, "level"),
            f"level {level} needs {2 * level} points in {stat}, the sheet has {invested}",
            f"level at most {most}: RULES §1.2 allows half the points invested in {stat}, "
            "rounded down",
        )
    if kind == "passive" and effect not in (None, "none"):
        reader.report(
            (*at, "effect"),
            f'a passive talent cannot have effect = "{effect}"',
            'kind = "active", or no effect (passive talents are never used)',
        )
    if len(reader.mistakes) > before:
        raise reader.mistakes[-1]  # kept already: the talent is left out
    assert stat is not None and kind is not None and level is not None and name is not None
    return Talent(name=name, stat=stat, level=level, kind=kind, eav=eav, epv=epv, effect=effect)


def _name(reader: Reader, row: Table, at: KeyPath) -> str:
    return check_name(reader, reader.text(row, at, "name") or "", (*at, "name"), what="talent name")


DISTAT_SHEET = DistatSheetReader()
