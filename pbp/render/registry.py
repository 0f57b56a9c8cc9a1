"""Each ruleset's views, by scene kind (``render.ruleset``), and the views of the roster every
scene shares (``render.roster``): the only render module that names them. ``!status``,
``!sheet``, the summary and the ledger call through here.

The views come from the rulesets' plugins (``pbp.rulesets``, docs/rulesets.md)."""

from __future__ import annotations

from pbp.render.disclosure import NpcNumbers
from pbp.render.roster import RosterViews
from pbp.render.ruleset import RulesetViews
from pbp.rulesets import plugins
from pbp.tags.model import SceneKind

_PLUGINS = plugins()
# the views of a plugin's part of the roster (engine.scene_roster): its characters' Body and Mind
ROSTER: RosterViews = next(
    (plugin.part(plugin.roster_views, RosterViews) for plugin in _PLUGINS if plugin.roster_views),
    RosterViews(),  # the scene roster's (engine.scene_roster): no rows of their own
)
# in the order a round's report and the ledger list their parts (engine.registry.ALL)
ALL: tuple[RulesetViews, ...] = tuple(
    plugin.part(plugin.views, RulesetViews) for plugin in _PLUGINS
)
VIEWS: dict[SceneKind, RulesetViews] = {
    SceneKind(kind): views
    for plugin, views in zip(_PLUGINS, ALL, strict=True)
    for kind in plugin.kinds
}
# where each ruleset's problems keep their actor's numbers (hidden for an NPC under hide-npcs)
NPC_NUMBERS: NpcNumbers = {key: names for views in ALL for key, names in views.npc_numbers.items()}
