"""Which scene kinds read each key of a character sheet, and the checks a sheet gets for them.

A campaign starts its threads in one ruleset (``ruleset``); a GM may start a scene of any other
kind with ``!encounter``, so a key that only another kind reads is allowed but reported as a
warning that says which scene reads it. Words that belong to a ruleset but not to the sheet's
keys (``fortitude``, ``ap``, ``eav``) are mistakes that say where the number goes instead.
Each ruleset's keys are its part's (``sheets.registry``). Pure: the loader hands in the
parsed row.
"""

from __future__ import annotations

from pbp.campaign.sheets.registry import MISPLACED, NAMES, SHEET_KEYS, home_kinds
from pbp.campaign.tables import KeyPath, Reader, Table
from pbp.tags.model import SceneKind


def check_misplaced(reader: Reader, row: Table, at: KeyPath) -> None:
    """Each key of ``row`` that names a number of some ruleset the sheet keeps elsewhere."""
    for key in row:
        if key.casefold() in MISPLACED:
            what, example = MISPLACED[key.casefold()]
            reader.report((*at, key), f'"{key}" is {what}', example)


def warn_unused(reader: Reader, row: Table, at: KeyPath, ruleset: SceneKind) -> set[str]:
    """Warn about each key no scene of the campaign's own ruleset reads; return those keys."""
    home = home_kinds(ruleset)
    runs = " and ".join(NAMES[k] for k in sorted(home, key=list(SceneKind).index))
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
