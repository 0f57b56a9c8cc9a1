"""Each ruleset's views, by scene kind (``render.ruleset``), and the views of the roster every
scene shares (``render.roster``): the only render module that names them. ``!status``,
``!sheet``, the summary and the ledger call through here.

Adding a ruleset: its views under ``pbp/render/rulesets/`` and one line below
(docs/rulesets.md)."""

from __future__ import annotations

from pbp.render.disclosure import NpcNumbers
from pbp.render.roster import RosterViews
from pbp.render.ruleset import RulesetViews
from pbp.render.rulesets.abstract.ruleset import ABSTRACT_VIEWS
from pbp.render.rulesets.d20.ruleset import D20_VIEWS
from pbp.render.rulesets.distat.ruleset import DISTAT_ROSTER_VIEWS, DISTAT_VIEWS
from pbp.render.rulesets.markhor.ruleset import MARKHOR_VIEWS
from pbp.tags.model import SceneKind

# the roster is the Distat scene (engine.registry.ROSTER): its characters, Body and Mind
ROSTER: RosterViews = DISTAT_ROSTER_VIEWS
# in the order a round's report and the ledger list their parts (engine.registry.ALL)
ALL: tuple[RulesetViews, ...] = (DISTAT_VIEWS, D20_VIEWS, ABSTRACT_VIEWS, MARKHOR_VIEWS)
VIEWS: dict[SceneKind, RulesetViews] = {
    SceneKind.DISTAT: DISTAT_VIEWS,
    SceneKind.D20: D20_VIEWS,
    SceneKind.ABSTRACT: ABSTRACT_VIEWS,
    SceneKind.SKIRMISH: MARKHOR_VIEWS,
    SceneKind.BATTLE: MARKHOR_VIEWS,
}
# where each ruleset's problems keep their actor's numbers (hidden for an NPC under hide-npcs)
NPC_NUMBERS: NpcNumbers = {key: names for views in ALL for key, names in views.npc_numbers.items()}
