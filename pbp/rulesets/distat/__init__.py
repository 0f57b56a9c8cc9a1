"""Distat: opposed Body and Mind checks, movement, talents (RULES D*). It also keeps the
roster every scene shares (its characters, groups and features, Body and Mind)."""

from pbp.rulesets import RulesetPlugin

RULESET = RulesetPlugin(
    name="distat",
    package=__name__,
    kinds=("distat",),
    called=(("distat", "Distat"),),
    rank=0,
    grammar=".tags",
    engine=".engine.ruleset:DISTAT",
    views=".views.ruleset:DISTAT_VIEWS",
    sheets=(".sheet:DISTAT_SHEET",),
    cast=".engine.roster:DISTAT_CAST",
    roster_views=".views.ruleset:DISTAT_ROSTER_VIEWS",
    encounter_options=(("distat", frozenset(), "nothing after distat"),),
    npc_scores=(("bonus_pool", 80),),
)
