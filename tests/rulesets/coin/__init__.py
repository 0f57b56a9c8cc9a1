"""A fifth ruleset, for the tests only: a coin-flip contest. ``[flip: heads]`` calls a side;
at the close each call is flipped (a d2 from the round's dice) and wins or loses. Everything
of it is in this folder; it reaches pbp through its plugin, ``RULESET``, as any ruleset."""

from pbp.rulesets import RulesetPlugin

RULESET = RulesetPlugin(
    name="coin",
    package=__name__,
    kinds=("coin",),
    called=(("coin", "Coin flip"),),
    rank=9,
    grammar=".tags",
    engine=".engine:COIN",
    views=".views:COIN_VIEWS",
    encounter_options=(("coin", frozenset(), "nothing after coin"),),
)
