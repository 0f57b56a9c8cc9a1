"""Markhorspire skirmishes and battles (RULES M*)."""

from pbp.rulesets import RulesetPlugin

RULESET = RulesetPlugin(
    name="markhor",
    package=__name__,
    kinds=("skirmish", "battle"),
    called=(("skirmish", "Markhorspire skirmish"), ("battle", "Markhorspire battle")),
    rank=3,
    grammar=".tags",
    engine=".engine.ruleset:MARKHOR",
    views=".views.ruleset:MARKHOR_VIEWS",
    sheets=(".sheet:MARKHOR_SHEET",),
    encounter_options=(
        ("skirmish", frozenset({"ambush"}), "an option like ambush party"),
        ("battle", frozenset(), "nothing after battle"),
    ),
    npc_scores=(
        ("constitution", 10),
        ("wisdom", 20),
        ("intuition", 30),
        ("hp", 40),
        ("wp", 50),
        ("stamina", 60),
    ),
    npc_flags=(("sapient", 65),),  # RULES M8, §7: a beast ends a won skirmish dead
)
