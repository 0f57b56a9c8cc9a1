"""Which scene kinds read each key of a character sheet, and the checks a sheet gets for them.

A campaign starts its threads in one ruleset (``ruleset``); a GM may start a scene of any other
kind with ``!encounter``, so a key that only another kind reads is allowed but reported as a
warning that says which scene reads it. Words that belong to a ruleset but not to the sheet's
keys (``fortitude``, ``ap``, ``eav``) are mistakes that say where the number goes instead.
Pure: the loader hands in the parsed row.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pbp.campaign.tables import KeyPath, Reader, Table
from pbp.rules.markhor.pools import MIN_BATTLE_POOL
from pbp.tags.model import SceneKind

DISTAT, ABSTRACT, D20 = SceneKind.DISTAT, SceneKind.ABSTRACT, SceneKind.D20
SKIRMISH, BATTLE = SceneKind.SKIRMISH, SceneKind.BATTLE
MAX_RATING = 6  # RULES §4.1: Markhorspire aspects run 0..+6


@dataclass(frozen=True, slots=True)
class SheetKey:
    """A sheet key: the scene kinds that read it and what it is, as a message says it."""

    kinds: frozenset[SceneKind]
    what: str


def _key(what: str, *kinds: SceneKind) -> SheetKey:
    return SheetKey(frozenset(kinds), what)


SHEET_KEYS: Mapping[str, SheetKey] = {
    "body": _key("a Distat stat (points invested in Body)", DISTAT),
    "mind": _key("a Distat stat (points invested in Mind)", DISTAT),
    "bonus_pool": _key("Distat's bonus pool", DISTAT),
    "talents": _key("Distat talents", DISTAT),
    "skills": _key("skill bonuses (d20 checks, Epic Path abstract rolls)", D20, ABSTRACT),
    "attack": _key("a d20 attack bonus", D20),
    "defense": _key("a d20 Defense (what an attack roll must meet)", D20),
    "dice_pool": _key("the d20 dice pool (RULES A8)", D20),
    "constitution": _key("a Markhorspire score (Skirmish HP, RULES M1)", SKIRMISH),
    "wisdom": _key("a Markhorspire score (Skirmish WP, RULES M1)", SKIRMISH),
    "intuition": _key("a Markhorspire score (battle initiative, RULES M5)", BATTLE),
    "hp": _key("Markhorspire battle HP (RULES M8)", BATTLE),
    "wp": _key("Markhorspire battle WP (RULES M8)", BATTLE),
    "stamina": _key("Markhorspire Stamina (AP = Stamina + 3)", SKIRMISH, BATTLE),
}

# Words a GM may write as a sheet key that belong elsewhere: (what it is, where it goes).
_RESISTANCE = "a d20 resistance: its rank goes in skills (RULES A9)"
MISPLACED: Mapping[str, tuple[str, str]] = {
    "fortitude": (_RESISTANCE, "skills = { Fortitude = 4 }"),
    "will": (_RESISTANCE, "skills = { Will = 2 }"),
    "toughness": (_RESISTANCE, "skills = { Toughness = 3 }"),
    "reflex": (_RESISTANCE, "skills = { Reflex = 3 }"),
    "ap": ("Markhorspire AP: they come from Stamina (AP = Stamina + 3)", "stamina = 1"),
    "vigor": ("Markhorspire Vigor: the sheet takes the full battle HP it gives", "hp = 18"),
    "eav": ("a Distat value worked out from body and its talents", "body = 6"),
    "epv": ("a Distat value worked out from mind and its talents", "mind = 3"),
    "ranks": ("Epic Path skill ranks: each skill's bonus goes in skills",
              "skills = { Athletics = 12 }"),
}  # fmt: skip

_NAMES = {
    DISTAT: "Distat",
    ABSTRACT: "Epic Path abstract",
    D20: "d20 Advanced",
    SKIRMISH: "Markhorspire skirmish",
    BATTLE: "Markhorspire battle",
}


def home_kinds(ruleset: SceneKind) -> frozenset[SceneKind]:
    """The scene kinds a campaign runs without a GM's ``!encounter``: its ruleset's, and a
    battle after a skirmish the party loses (RULES M8)."""
    return frozenset({SKIRMISH, BATTLE}) if ruleset is SKIRMISH else frozenset({ruleset})


def check_misplaced(reader: Reader, row: Table, at: KeyPath) -> None:
    """Each key of ``row`` that names a number of some ruleset the sheet keeps elsewhere."""
    for key in row:
        if key.casefold() in MISPLACED:
            what, example = MISPLACED[key.casefold()]
            reader.report((*at, key), f'"{key}" is {what}', example)


def warn_unused(reader: Reader, row: Table, at: KeyPath, ruleset: SceneKind) -> set[str]:
    """Warn about each key no scene of the campaign's own ruleset reads; return those keys."""
    home = home_kinds(ruleset)
    runs = " and ".join(_NAMES[k] for k in sorted(home, key=list(SceneKind).index))
    unused: set[str] = set()
    for key in row:
        entry = SHEET_KEYS.get(key)
        if entry is None or entry.kinds & home:
            continue
        unused.add(key)
        starts = " or ".join(f"!encounter {k.value}" for k in sorted(entry.kinds))
        reader.warn(
            (*at, key),
            f"{key} is {entry.what}; this campaign runs {runs} scenes "
            f'(ruleset = "{ruleset.value}"), so it counts only in a scene a GM starts with '
            f"{starts}",
        )
    return unused


def warn_values(
    reader: Reader, row: Table, at: KeyPath, ruleset: SceneKind, skip: set[str]
) -> None:
    """Numbers that load but do not act as written (each key of ``skip`` was warned about)."""
    for key in ("hp", "wp"):
        value: Any = row.get(key)
        if key not in skip and isinstance(value, int) and 0 <= value < MIN_BATTLE_POOL:
            reader.warn(
                (*at, key),
                f"{key} = {value} is below the least full {key.upper()} a battle gives, "
                f"{MIN_BATTLE_POOL}: the battle starts this character at {MIN_BATTLE_POOL}",
                f"{key} = {MIN_BATTLE_POOL} or more",
            )
    for key in ("constitution", "wisdom", "intuition"):
        value = row.get(key)
        if key not in skip and isinstance(value, int) and value > MAX_RATING:
            reader.warn(
                (*at, key),
                f"{key} = {value} is above +{MAX_RATING}, the highest Markhorspire rating "
                "(a rating, not a D&D-style score): the scene reads it as written",
                f"{key} from 0 to {MAX_RATING}",
            )
    if ruleset is DISTAT and row.get("player") is not None:
        points = [row.get(k, 0) for k in ("body", "mind")]
        if all(isinstance(p, int) and p == 0 for p in points) and not row.get("talents"):
            reader.warn(
                at,
                "this PC has no points in body or mind: it starts zeroed and cannot act in "
                "a Distat scene",
                "body = 6, mind = 3 (the points invested in each)",
            )
