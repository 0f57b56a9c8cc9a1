"""Each ruleset's part of a character sheet (``sheets.base.SheetReader``): the only campaign
module that names them. The loader reads every ``[[characters]]`` table through here, and
the sheet's keys, the words that belong elsewhere and the scene kinds' names in a warning
come from here, and so do the keys of ``[campaign.options]`` beyond the general ones and
each ruleset's part of the campaign's options.

The parts come from the rulesets' plugins (``pbp.rulesets``, docs/rulesets.md).
"""

from __future__ import annotations

from collections.abc import Mapping

from pbp.campaign.sheets.base import OptionKey, SheetKey, SheetReader
from pbp.rulesets import plugins
from pbp.tags.model import SceneKind

# in the order a sheet's parts are read (and their mistakes kept), as engine.registry.ALL: each
# plugin's parts, a part two rulesets read (the skills) once, where the first lists it
ALL: tuple[SheetReader, ...] = tuple(
    dict.fromkeys(
        plugin.part(where, SheetReader) for plugin in plugins() for where in plugin.sheets
    )
)

# what a warning calls the scenes of each kind ("this campaign runs Distat scenes")
NAMES: Mapping[SceneKind, str] = {
    SceneKind(kind): called for plugin in plugins() for kind, called in plugin.called
}

OPTIONS: Mapping[str, OptionKey] = {k: v for part in ALL for k, v in part.options.items()}
SHEET_KEYS: Mapping[str, SheetKey] = {k: v for part in ALL for k, v in part.keys.items()}
# the keys of [campaign.options] the loader reads itself, for every scene (RULES D8)
GENERAL_OPTIONS: Mapping[str, OptionKey] = {"close_on_any_gm_post": OptionKey(False, listed=20)}

# the order an unknown key's message lists the parts' keys in (after name, player, side):
# every part's keys, each once, where each says it stands (tests/campaign/test_sheet_parts.py)
LISTED: tuple[str, ...] = tuple(sorted(SHEET_KEYS, key=lambda k: SHEET_KEYS[k].listed))
# the order the keys of [campaign.options] are read (the first wrong one is the one reported)
# and an unknown key's message lists them: every part's options and the general ones, each once
_EVERY_OPTION = {**OPTIONS, **GENERAL_OPTIONS}
OPTIONS_LISTED: tuple[str, ...] = tuple(
    sorted(_EVERY_OPTION, key=lambda k: _EVERY_OPTION[k].listed)
)
MISPLACED: Mapping[str, tuple[str, str]] = {k: v for part in ALL for k, v in part.misplaced.items()}


def home_kinds(ruleset: SceneKind) -> frozenset[SceneKind]:
    """The scene kinds a campaign runs without a GM's ``!encounter``: its ruleset's, and
    what a part says goes on from it (a battle after a skirmish the party loses)."""
    return frozenset({ruleset}).union(*(part.also_runs(ruleset) for part in ALL))
