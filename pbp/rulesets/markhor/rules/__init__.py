"""Markhorspire skirmishes and battles (seed 004, RULES §4 M1–M9).

Pure functions over frozen values and a :class:`~pbp.rules.dice.source.Roller`. Modules:
``pools`` (skirmish and battle HP/WP, damage, casting, healing), ``initiative`` (turn order),
``advantage`` (advantage and disadvantage), ``actions`` (battle AP and reactions),
``skirmish`` (end states, fate of foes, one course of action per turn), ``errors``.
"""

from pbp.rulesets.markhor.rules.actions import (
    BASE_AP,
    TURN_CAP,
    Cost,
    TurnBudget,
    action_points,
    react,
    spend_on_turn,
    start_turn,
)
from pbp.rulesets.markhor.rules.advantage import (
    MAX_NET,
    AdvantageRoll,
    clamp_net,
    net_advantage,
    roll_with,
)
from pbp.rulesets.markhor.rules.errors import (
    ActionRefused,
    CourseRefused,
    MarkhorError,
    PoolRefused,
)
from pbp.rulesets.markhor.rules.initiative import (
    AMBUSH_BONUS,
    INITIATIVE_DIE,
    MAX_TIEBREAK_ROUNDS,
    InitiativeRoll,
    battle_initiative,
    skirmish_initiative,
)
from pbp.rulesets.markhor.rules.pools import (
    DEFAULT_BATTLE_POOL,
    MIN_BATTLE_POOL,
    MIN_SKIRMISH_POOL,
    Pools,
    SkirmishFormula,
    battle_pools,
    cast_cost,
    heal,
    heal_by,
    skirmish_pools,
    take_damage,
)
from pbp.rulesets.markhor.rules.skirmish import (
    COURSES_PER_TURN,
    Fate,
    Outcome,
    fate_of_foes,
    needs_roll,
    skips_turn,
    skirmish_outcome,
    take_course,
)

__all__ = [
    "AMBUSH_BONUS",
    "BASE_AP",
    "COURSES_PER_TURN",
    "DEFAULT_BATTLE_POOL",
    "INITIATIVE_DIE",
    "MAX_NET",
    "MAX_TIEBREAK_ROUNDS",
    "MIN_BATTLE_POOL",
    "MIN_SKIRMISH_POOL",
    "TURN_CAP",
    "ActionRefused",
    "AdvantageRoll",
    "Cost",
    "CourseRefused",
    "Fate",
    "InitiativeRoll",
    "MarkhorError",
    "Outcome",
    "PoolRefused",
    "Pools",
    "SkirmishFormula",
    "TurnBudget",
    "action_points",
    "battle_initiative",
    "battle_pools",
    "cast_cost",
    "clamp_net",
    "fate_of_foes",
    "heal",
    "heal_by",
    "needs_roll",
    "net_advantage",
    "react",
    "roll_with",
    "skips_turn",
    "skirmish_initiative",
    "skirmish_outcome",
    "skirmish_pools",
    "spend_on_turn",
    "start_turn",
    "take_course",
    "take_damage",
]
