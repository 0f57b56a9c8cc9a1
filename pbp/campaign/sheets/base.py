"""What every ruleset's sheet module gives the registry: its keys (the scene kinds that read
each, as a warning says it), the words that belong elsewhere, the reading of its part, and its
table options under ``[campaign.options]`` with its part of the campaign's options.

Pure: the loader hands in the parsed row of one ``[[characters]]`` table and the ``Reader``
that keeps every mistake and warning with its line.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from pbp.campaign.parts import SheetPart
from pbp.campaign.tables import KeyPath, Reader, Table
from pbp.tags.model import SceneKind
from pbp.values import frozen_value

SKILL_LIMIT = 999  # a skill bonus, an attack bonus: beyond any real character


@frozen_value(kw_only=False)
class SheetKey:
    """A sheet key: the scene kinds that read it, what it is, as a message says it, and where
    it stands when a message lists every part's keys (lower first)."""

    kinds: frozenset[SceneKind]
    what: str
    listed: int


@frozen_value(kw_only=False)
class OptionKey:
    """A key of ``[campaign.options]``: its default, and what it takes (a whole number at
    least ``minimum``, or true or false when ``minimum`` is None), and where it stands when a
    message lists every key (lower first; read in that order too)."""

    default: bool | int
    minimum: int | None = None
    listed: int = 0


def sheet_key(what: str, *kinds: SceneKind, listed: int) -> SheetKey:
    """The key read by scenes of ``kinds``, described as ``what``, ``listed`` where it stands
    in a list of every key."""
    return SheetKey(frozenset(kinds), what, listed)


class SheetReader:
    """One ruleset's part of the sheet. The defaults read nothing and warn of nothing."""

    # each key of the part, in the order the part reads them
    keys: ClassVar[Mapping[str, SheetKey]] = {}
    # words a GM may write as a sheet key that belong elsewhere: (what it is, where it goes)
    misplaced: ClassVar[Mapping[str, tuple[str, str]]] = {}
    # its keys of [campaign.options] (each one's ``listed`` says the order read)
    options: ClassVar[Mapping[str, OptionKey]] = {}

    def read(self, reader: Reader, row: Table, at: KeyPath) -> SheetPart:
        """The part ``row`` gives; each mistake is kept in ``reader`` (the value returned
        then is never used)."""
        raise NotImplementedError

    def read_options(self, given: Mapping[str, bool | int]) -> object | None:
        """Its part of the campaign's options (``CampaignOptions.part``), from the value of
        each of its ``options`` keys (the default when the file leaves it out); None when it
        has no options."""
        return None

    def warn(
        self, reader: Reader, row: Table, at: KeyPath, *, ruleset: SceneKind, skip: set[str]
    ) -> None:
        """Warn about numbers that load but do not act as written in a campaign of
        ``ruleset`` (each key of ``skip`` was warned about already)."""

    def also_runs(self, ruleset: SceneKind) -> frozenset[SceneKind]:
        """The scene kinds beyond its own that a campaign of ``ruleset`` runs without a GM's
        ``!encounter``."""
        return frozenset()


def read_bonus(reader: Reader, row: Table, at: KeyPath, key: str) -> int | None:
    """A signed bonus (``attack = 5``), at most SKILL_LIMIT either way."""
    found = reader.value(row, at, key, kind=int, expected=f"{key} = 5 (a whole number)")
    if found is not None and abs(found) > SKILL_LIMIT:
        reader.fail(
            (*at, key),
            f"{key} = {found} is beyond ±{SKILL_LIMIT}",
            f"a whole number from -{SKILL_LIMIT} to {SKILL_LIMIT}",
        )
    return None if found is None else int(found)
