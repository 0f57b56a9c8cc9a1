"""d20 Advanced: checks, attacks, aid, comparisons and effects against a DC; it reads the
``[roll]`` every scene shares (SPEC §2)."""

from pbp.rulesets import RulesetPlugin

RULESET = RulesetPlugin(
    name="d20",
    package=__name__,
    kinds=("d20",),
    called=(("d20", "d20 Advanced"),),
    rank=1,
    grammar=".tags",
    engine=".engine.ruleset:D20",
    views=".views.ruleset:D20_VIEWS",
    sheets=(".sheet:D20_SHEET", "pbp.campaign.sheets.skills:SKILL_SHEET"),
    common_tags=True,
    encounter_options=(("d20", frozenset({"pressure"}), "pressure on or pressure off"),),
    npc_scores=(("dice_pool", 70),),
)
