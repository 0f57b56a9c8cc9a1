"""d20 tags into intents, and the checks a d20 tag gets when it is read (SPEC §2.3, §4.2).

A tag the rules would refuse at the close is refused now, with the rules' reason: a take the
situation forbids, a pool that is empty, a character out of actions this round. Nothing is
clamped or guessed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbp.campaign.model import Campaign
from pbp.engine.actors import Actor
from pbp.engine.pending import Pending
from pbp.engine.state import Accepted
from pbp.errors import Problem
from pbp.rulesets.d20.engine.model import (
    D20_INTENTS,
    D20Aid,
    D20Attack,
    D20Check,
    D20Compare,
    D20Effect,
    D20Intent,
    D20State,
    DiceRoll,
    activity_of,
)
from pbp.rulesets.d20.engine.refusals import (
    TAKES,
    AidSelf,
    D20Refused,
    OpposedSelf,
    PoolEmpty,
    PoolOpposed,
    RoundFreeLimit,
    RoundNoActionsLeft,
    Take1BonusTooLow,
)
from pbp.rulesets.d20.rules.actions import RoundBudget, spend
from pbp.rulesets.d20.rules.checks import Check, Difficulty, Situation, Tools, refuse_take
from pbp.rulesets.d20.rules.conditions import Track
from pbp.rulesets.d20.rules.errors import D20Error
from pbp.rulesets.d20.sheet import D20Sheet
from pbp.rulesets.d20.tags import AidTag, AttackRollTag, CheckTag, CompareTag, EffectTag
from pbp.tags.model import RollTag
from pbp.tags.registry import Tag
from pbp.values import replace

# RULES A10: the tracks as `| inflict` writes them
TRACK_WORDS = {
    "injury": Track.INJURY,
    "advantage": Track.COMBAT_ADVANTAGE,
    "action": Track.ACTION,
    "check": Track.CHECK,
    "movement": Track.MOVEMENT,
}


def _given(number: int | None) -> int:
    """A number of the tag, or of the sheets (its ``sheets`` filled it in first)."""
    assert number is not None, "a tag's number is read from the sheets before its intent"
    return number


def intent_of(tag: Tag, *, actor: str) -> D20Intent | None:
    """The d20 intent of a tag acting for ``actor`` (None: not a d20 tag)."""
    match tag:
        case CheckTag():
            opponent = tag.opponent
            return D20Check(
                actor=actor,
                skill=tag.skill,
                modifier=_given(tag.modifier),
                dc=tag.dc,
                opponent=opponent.name if opponent else None,
                opponent_skill=opponent.skill if opponent else None,
                opponent_modifier=_given(opponent.modifier) if opponent else 0,
                take=tag.take,
                tools=tag.tools,
                pool=tag.pool,
            )
        case AttackRollTag():
            return D20Attack(
                actor=actor,
                modifier=_given(tag.modifier),
                defense=_given(tag.defense),
                target=tag.target,
            )
        case AidTag():
            return D20Aid(
                actor=actor, target=tag.target, skill=tag.skill, modifier=_given(tag.modifier)
            )
        case CompareTag():
            return D20Compare(
                actor=actor,
                score=tag.score,
                value=_given(tag.value),
                opponent=tag.opponent,
                opponent_value=_given(tag.opponent_value),
                boost=tag.boost,
            )
        case EffectTag():
            return D20Effect(
                actor=actor,
                modifier=_given(tag.modifier),
                dc=_given(tag.dc),
                target=tag.target,
                resistance=tag.resistance,
                inflict=TRACK_WORDS.get(tag.inflict or ""),
            )
        case RollTag():
            return DiceRoll(actor=actor, expression=tag.expression)
    return None


def pool_size(campaign: Campaign, d20: D20State, name: str) -> int:
    """``name``'s dice pool now: the sheet's ``dice_pool`` less the dice lost (RULES A8)."""
    sheet = campaign.character(name)
    return (sheet.part(D20Sheet).dice_pool if sheet is not None else 0) - d20.spent(name)


def _at(refused: D20Refused, tag: Tag) -> D20Refused:
    src = tag.source
    return replace(refused, tag=src.text, line=src.line, column=src.column)


def _check_problem(intent: D20Check, *, campaign: Campaign, d20: D20State) -> D20Refused | None:
    if intent.opponent is not None and intent.opponent.casefold() == intent.actor.casefold():
        return OpposedSelf(tag="", actor=intent.actor)
    if intent.take is not None:
        check = Check(bonus=intent.modifier, tools=Tools(intent.tools or "proper"))
        dc = Difficulty(base=intent.dc) if intent.dc is not None else None
        try:  # RULES A3, A4: when a take is allowed
            refuse_take(
                take=intent.take,
                situation=Situation(pressure=d20.pressure),
                check=check,
                dc=dc,
                opposed=intent.opponent is not None,
            )
        except D20Error as refused:
            if refused.code == Take1BonusTooLow.cause and dc is not None:
                return Take1BonusTooLow(tag="", needs=dc.value - 1)
            return TAKES[refused.code](tag="")
    if intent.pool:
        if intent.opponent is not None:
            return PoolOpposed(tag="")
        size = pool_size(campaign, d20, intent.actor)
        if size <= 0:  # RULES A8: a pool of 0 cannot be used
            return PoolEmpty(tag="", actor=intent.actor, size=size)
    return None


def check_d20_tag(
    *, tag: Tag, actor: Actor, campaign: Campaign, d20: D20State, pending: Pending
) -> Accepted | Problem:
    """Accept a d20 tag for ``actor`` or say why the rules refuse it."""
    intent = intent_of(tag, actor=actor.name)
    assert intent is not None  # the caller routes only d20 tags here
    match intent:
        case D20Check():
            problem = _check_problem(intent, campaign=campaign, d20=d20)
        case D20Aid() if intent.target.casefold() == intent.actor.casefold():
            problem = AidSelf(tag="", actor=intent.actor)
        case _:
            problem = None
    if problem is not None:
        return _at(problem, tag)
    activity = activity_of(intent)
    if activity is not None:
        budget = pending.of(Spent).budgets.get(actor.name, RoundBudget())
        try:  # RULES A11: two actions per round, counted over the round's accepted tags
            spend(budget, activity=activity)
        except D20Error as refused:
            if refused.code == RoundFreeLimit.cause:
                return _at(RoundFreeLimit(tag="", limit=budget.free_limit or 0), tag)
            return _at(
                RoundNoActionsLeft(
                    tag="", activity=activity.name, cost=activity.cost.actions, left=budget.left
                ),
                tag,
            )
    return Accepted(
        tag=tag,
        intent=intent,
        actor=actor.name,
        on_behalf=actor.on_behalf,
        slots=frozenset(),
        bonus=0,
    )


@dataclass(slots=True)
class Spent:
    """The actions each character's accepted d20 tags take this round (RULES A11)."""

    budgets: dict[str, RoundBudget] = field(default_factory=dict)


def count(pending: Pending, accepted: Accepted) -> None:
    """Count an accepted d20 tag's action against its character's round."""
    activity = activity_of(accepted.intent) if isinstance(accepted.intent, D20_INTENTS) else None
    if activity is not None:
        spent = pending.of(Spent)
        budget = spent.budgets.get(accepted.actor, RoundBudget())
        spent.budgets[accepted.actor] = spend(budget, activity=activity)
