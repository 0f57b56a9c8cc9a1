"""Epic Path abstract encounters: tasks paid toward over intervals (RULES E*)."""

from pbp.rulesets import RulesetPlugin

RULESET = RulesetPlugin(
    name="abstract",
    package=__name__,
    kinds=("abstract",),
    called=(("abstract", "Epic Path abstract"),),
    rank=2,
    grammar=".tags",
    engine=".engine.ruleset:ABSTRACT",
    views=".views.ruleset:ABSTRACT_VIEWS",
    sheets=("pbp.campaign.sheets.skills:SKILL_SHEET",),
    encounter_options=(("abstract", frozenset({"interval"}), "an option like interval 1 day"),),
)
