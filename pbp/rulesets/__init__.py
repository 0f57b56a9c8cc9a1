"""The rulesets pbp runs, one package each (docs/rulesets.md), and the one registry of them.

A ruleset is one plugin object, ``RulesetPlugin``: its name, the scene kinds it runs, and
where each of its parts is, as ``module:attribute`` inside its package (its tag grammar, its
side of the round, its views, its sheet parts, its templates folder). The parts are named, not
imported: each layer's registry (tags, campaign, engine, render) imports only the part it
reads, so loading the plugins imports no ruleset module and the layers hold.

The plugins are found once through the entry-point group ``pbp.rulesets`` (another installed
package may add one), or registered with ``register`` (a test's ruleset). This module is the
only one outside a ruleset's package that finds them; it names none.
"""

from __future__ import annotations

import functools
import importlib
from pathlib import Path
from typing import Any, TypeVar

from pbp.values import frozen_value

GROUP = "pbp.rulesets"

_Part = TypeVar("_Part")


@frozen_value
class RulesetPlugin:
    """One ruleset, everything it provides. ``package`` is its Python package; every part is
    ``module:attribute``, relative to it with a leading dot (``.engine.ruleset:DISTAT``)."""

    name: str
    package: str
    kinds: tuple[str, ...]  # the scene kinds it runs (SceneKind values)
    called: tuple[tuple[str, str], ...]  # what a warning calls each kind's scenes
    rank: int  # where its parts stand in a round's report and the ledger (lower first)
    grammar: str  # its tag grammar module: VERBS, READERS (ALIASES, LEAD_WORDS when it has them)
    engine: str  # its engine.ruleset.Ruleset
    views: str  # its render.ruleset.RulesetViews
    sheets: tuple[str, ...] = ()  # its campaign.sheets.base.SheetReader parts, in reading order
    templates: str = "templates"  # its folder of templates, inside its package
    cast: str | None = None  # its engine.scene_roster.CastKeeper, if it keeps a part of the roster
    roster_views: str | None = None  # its render.roster.RosterViews of that part
    common_tags: bool = False  # it reads the tags every scene shares ([roll], SPEC §2)
    # the options of `!encounter KIND` for each kind it runs, and how a wrong one is explained
    encounter_options: tuple[tuple[str, frozenset[str], str], ...] = ()
    # the sheet numbers `!npc` takes by their campaign-file key, each with where it stands
    # among every ruleset's (the order an NpcCommand keeps them in, lower first)
    npc_scores: tuple[tuple[str, int], ...] = ()
    # the yes-or-no sheet keys `!npc` takes (`sapient no`), kept with the scores as 1 or 0
    npc_flags: tuple[tuple[str, int], ...] = ()

    def part(self, where: str, kind: type[_Part]) -> _Part:
        """The part named ``module:attribute``, checked to be a ``kind``."""
        module, _, attribute = where.partition(":")
        found = getattr(importlib.import_module(module, self.package), attribute)
        if not isinstance(found, kind):
            raise TypeError(f"{self.name}: {where} is not a {kind.__name__}")
        return found

    def module(self, name: str) -> Any:
        """One module of its package (its tag grammar)."""
        return importlib.import_module(name, self.package)

    @property
    def templates_folder(self) -> Path:
        """Its templates, package data inside its package."""
        spec = importlib.import_module(self.package).__file__
        assert spec is not None
        return Path(spec).resolve().parent / self.templates


_REGISTERED: list[RulesetPlugin] = []


class LateRegistration(RuntimeError):
    """A ruleset registered after the rulesets were first read: the registries built from
    them would never hold it."""


@functools.cache
def _installed() -> tuple[RulesetPlugin, ...]:
    from pbp.entry_points import group_entries

    found = []
    for name, value in group_entries(GROUP):
        module, _, attribute = value.split("[")[0].partition(":")  # no extras: `m:a [x]`
        plugin: object = importlib.import_module(module.strip())
        for step in attribute.strip().split(".") if attribute.strip() else ():
            plugin = getattr(plugin, step)
        if not isinstance(plugin, RulesetPlugin):
            raise TypeError(f"entry point {name} of {GROUP} is not a RulesetPlugin")
        found.append(plugin)
    return tuple(found)


@functools.cache
def plugins() -> tuple[RulesetPlugin, ...]:
    """Every ruleset, installed or registered, in report order: read once, and the same for
    every registry built from it (a registration after it fails, ``register``)."""
    every = {plugin.name: plugin for plugin in (*_installed(), *_REGISTERED)}
    return tuple(sorted(every.values(), key=lambda plugin: (plugin.rank, plugin.name)))


def register(plugin: RulesetPlugin) -> None:
    """Add a ruleset that no installed package declares. It must come before the rulesets are
    first read (``plugins``, which each registry reads when it is first imported): a later
    one raises ``LateRegistration`` rather than be left out of the registries built already."""
    if plugins.cache_info().currsize:
        raise LateRegistration(
            f"ruleset {plugin.name!r} registered after the rulesets were read: register it "
            "before anything imports pbp's registries"
        )
    _REGISTERED.append(plugin)
