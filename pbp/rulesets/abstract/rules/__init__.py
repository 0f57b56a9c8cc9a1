"""Epic Path abstract encounters (seed 000, RULES §2 E1–E15): pure functions over a Roller.

Modules: ``pool`` (the interval's skill roll and action dice), ``payment`` (paying, banking,
the bot's ``auto`` choice, success under opposition), ``odds`` (exact odds of finishing a task
within some intervals), ``reaction`` (the Reaction Die order).
"""

from pbp.rulesets.abstract.rules.odds import MAX_INTERVALS, completion_odds
from pbp.rulesets.abstract.rules.payment import (
    PoolUse,
    auto,
    bank_best,
    least_waste,
    meets,
    spend,
    spend_all,
)
from pbp.rulesets.abstract.rules.pool import (
    DIVISORS,
    MAX_DICE,
    MAX_MODIFIER,
    MIN_DICE,
    SkillRoll,
    count_for,
    dice_count,
    divisor_for,
    roll_action_dice,
    skill_result,
)
from pbp.rulesets.abstract.rules.reaction import MAX_REROLLS, ReactionRoll, reaction_order

__all__ = [
    "DIVISORS",
    "MAX_DICE",
    "MAX_INTERVALS",
    "MAX_MODIFIER",
    "MAX_REROLLS",
    "MIN_DICE",
    "PoolUse",
    "ReactionRoll",
    "SkillRoll",
    "auto",
    "bank_best",
    "completion_odds",
    "count_for",
    "dice_count",
    "divisor_for",
    "least_waste",
    "meets",
    "reaction_order",
    "roll_action_dice",
    "skill_result",
    "spend",
    "spend_all",
]
