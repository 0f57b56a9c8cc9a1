"""Resolving d20 intents at the close, in post order, with the round's keyed dice (RULES §3).

Each tag rolls through the roller of its key (post id, tag index); the roller numbers the rolls
(the roll index), so every number can be recomputed from the revealed seed (SPEC §6).
"""

from __future__ import annotations

from pbp.rules.dice.notation import evaluate, parse_notation
from pbp.rules.dice.source import Roller
from pbp.rulesets.d20.engine.model import (
    AidBonus,
    D20Aid,
    D20Attack,
    D20Check,
    D20Compare,
    D20Effect,
    D20Intent,
    D20Record,
    D20State,
    DiceRoll,
)
from pbp.rulesets.d20.rules.aid import AID_DC, roll_aid
from pbp.rulesets.d20.rules.attack import roll_attack
from pbp.rulesets.d20.rules.checks import (
    Check,
    CheckResult,
    Difficulty,
    Situation,
    Tools,
    roll_check,
    take_check,
)
from pbp.rulesets.d20.rules.conditions import step as move_on_track
from pbp.rulesets.d20.rules.opposed import OpposedSide, compare_scores, opposed_check
from pbp.rulesets.d20.rules.pools import DicePool, retry_with_pool
from pbp.rulesets.d20.rules.resistances import RESISTANCE_BASE, Resistance, resist, resistance_dc
from pbp.rulesets.d20.rules.results import Modifier
from pbp.values import frozen_value, replace


@frozen_value
class D20Context:
    """What a d20 intent resolves against: the d20 state and the actor's pool size now."""

    d20: D20State
    pool: int


def _named(modifiers: tuple[Modifier, ...]) -> tuple[tuple[str, int], ...]:
    return tuple((m.name, m.value) for m in modifiers)


def _take_aid(d20: D20State, actor: str, skill: str) -> tuple[D20State, int]:
    """The helpers' bonuses waiting for ``actor``'s check of ``skill``, used up (RULES A5)."""
    mine = [a for a in d20.aid if a.target == actor and a.skill.casefold() == skill.casefold()]
    rest = tuple(a for a in d20.aid if a not in mine)
    return replace(d20, aid=rest), sum(a.bonus for a in mine)  # RULES A5: bonuses stack


def _check(intent: D20Check, ctx: D20Context, roller: Roller) -> tuple[D20State, D20Record]:
    d20, aid = _take_aid(ctx.d20, intent.actor, intent.skill)
    # RULES A7: tools; RULES A5: the helpers' bonus
    check = Check(bonus=intent.modifier, tools=Tools(intent.tools or "proper"), aid=aid)
    if intent.opponent is not None:
        return d20, _opposed(intent, check, roller)
    dc = Difficulty(base=intent.dc or 0)
    situation = Situation(pressure=d20.pressure)
    result: CheckResult
    if intent.take is not None:  # RULES A3, A4 (allowed: checked when the tag was read)
        result = take_check(check=check, dc=dc, take=intent.take, situation=situation)
    else:
        result = roll_check(check=check, dc=dc, roller=roller)  # RULES A2: meet or beat
    record = _check_record(intent, result)
    if intent.pool and result.outcome == "failure" and ctx.pool > 0:
        # RULES A8: retry once with the pool, keep the highest; the pool loses a die
        pooled = retry_with_pool(failed=result, pool=DicePool(size=ctx.pool), roller=roller)
        d20 = d20.with_spent(intent.actor, 1)
        record = replace(
            _check_record(intent, pooled.result),
            first_roll=result.roll if result.roll is not None else result.taken,
            pool_dice=pooled.dice,
            pool_left=pooled.pool_after.size,
        )
    return d20, record


def _check_record(intent: D20Check, result: CheckResult) -> D20Record:
    return D20Record(
        actor=intent.actor,
        verb="check",
        skill=intent.skill,
        roll=result.roll if result.roll is not None else result.taken,
        taken=result.taken,
        modifier=result.modifier,
        modifiers=_named(result.modifiers),
        total=result.total,
        dc=result.dc,
        outcome=result.outcome,
        reason=result.reason.value,
    )


def _opposed(intent: D20Check, check: Check, roller: Roller) -> D20Record:
    # RULES A1: higher total, then higher modifier, then 50/50; the opponent rolls (no take)
    result = opposed_check(
        initiator=OpposedSide(check=check, take=intent.take),
        opponent=OpposedSide(check=Check(bonus=intent.opponent_modifier)),
        roller=roller,
    )
    mine, theirs = result.initiator, result.opponent
    return D20Record(
        actor=intent.actor,
        verb="check",
        skill=intent.skill,
        roll=mine.roll if mine.roll is not None else mine.taken,
        taken=mine.taken,
        modifier=mine.modifier,
        modifiers=_named(mine.modifiers),
        total=mine.total,
        opponent=intent.opponent,
        opponent_skill=intent.opponent_skill,
        opponent_roll=theirs.roll,
        opponent_modifier=theirs.modifier,
        opponent_total=theirs.total,
        outcome=result.outcome,
        reason=result.reason.value,
        tie_roll=result.tie_roll,
    )


def _attack(intent: D20Attack, roller: Roller) -> D20Record:
    # RULES A2: natural 20 always hits (critical threat), natural 1 always misses
    result = roll_attack(
        attack=Check(bonus=intent.modifier), defense=Difficulty(base=intent.defense), roller=roller
    )
    return D20Record(
        actor=intent.actor,
        verb="attack",
        target=intent.target,
        roll=result.roll,
        modifier=result.modifier,
        modifiers=_named(result.modifiers),
        total=result.total,
        dc=result.dc,
        outcome=result.outcome,
        reason=result.reason.value,
        critical_threat=result.critical_threat,
    )


def _aid(intent: D20Aid, ctx: D20Context, roller: Roller) -> tuple[D20State, D20Record]:
    # RULES A5: the helper rolls vs DC 10 (never takes 10); 10-19 gives +2, each 10 more +1
    result = roll_aid(helper=Check(bonus=intent.modifier), roller=roller)
    d20 = ctx.d20
    if result.bonus > 0:
        bonus = AidBonus(
            target=intent.target, skill=intent.skill, helper=intent.actor, bonus=result.bonus
        )
        d20 = replace(d20, aid=(*d20.aid, bonus))
    check = result.result
    return d20, D20Record(
        actor=intent.actor,
        verb="aid",
        skill=intent.skill,
        target=intent.target,
        roll=check.roll,
        modifier=check.modifier,
        modifiers=_named(check.modifiers),
        total=check.total,
        dc=AID_DC,
        outcome=check.outcome,
        reason=check.reason.value,
        aid_bonus=result.bonus,
    )


def _roll(intent: DiceRoll, roller: Roller) -> D20Record:
    result = evaluate(parse_notation(intent.expression), roller=roller)
    kept = tuple(
        die.value for term in result.terms for die in getattr(term, "dice", ()) if die.kept
    )
    return D20Record(
        actor=intent.actor,
        verb="roll",
        expression=intent.expression,
        dice=kept,
        total=result.total,
        outcome="success",  # SPEC §5: a roll needs no check
    )


def _compare(intent: D20Compare, roller: Roller) -> D20Record:
    """RULES A12: no roll, the higher score wins; equal scores, a 50/50 d20."""
    result = compare_scores(
        first=intent.value, second=intent.opponent_value, roller=roller, first_boost=intent.boost
    )
    return D20Record(
        actor=intent.actor, verb="compare", skill=intent.score, modifier=intent.boost,
        total=result.first_score, opponent=intent.opponent, opponent_skill=intent.score,
        opponent_total=result.second_score, tie_roll=result.tie_roll,
        outcome=result.outcome, reason=result.reason.value,
    )  # fmt: skip


def _effect(intent: D20Effect, d20: D20State, roller: Roller) -> tuple[D20State, D20Record]:
    """RULES A9: an effect roll gets through on a total that meets the static DC; with
    ``| inflict TRACK`` one that gets through worsens the target one step on that track
    (RULES A10: the tracks are independent, each held within its steps)."""
    roll = roller.roll(20)
    kind = Resistance(intent.resistance) if intent.resistance else Resistance.DEFENSE
    dc = resistance_dc(resistance=kind, ranks=intent.dc - RESISTANCE_BASE)
    result = resist(effect_total=roll + intent.modifier, dc=dc)
    condition = None
    if intent.inflict is not None and intent.target is not None:
        now = d20.condition(intent.target)
        if result.outcome == "success":
            now = move_on_track(now, track=intent.inflict, by=1)
            d20 = d20.with_condition(intent.target, now)
        condition = now.name(intent.inflict)
    return d20, D20Record(
        actor=intent.actor, verb="effect", target=intent.target, roll=roll,
        modifier=intent.modifier, total=result.effect_total, dc=result.dc,
        resistance=intent.resistance, margin=result.margin, outcome=result.outcome,
        reason="met_dc" if result.outcome == "success" else "below_dc",
        inflicted=intent.inflict.value if intent.inflict is not None else None,
        condition=condition,
    )  # fmt: skip


def resolve_d20(
    intent: D20Intent, *, ctx: D20Context, roller: Roller
) -> tuple[D20State, D20Record]:
    """Resolve one d20 intent; return the d20 state after it and its record (rolls not yet
    attached: the caller knows the key)."""
    match intent:
        case D20Check():
            return _check(intent, ctx, roller)
        case D20Attack():
            return ctx.d20, _attack(intent, roller)
        case D20Aid():
            return _aid(intent, ctx, roller)
        case D20Compare():
            return ctx.d20, _compare(intent, roller)
        case D20Effect():
            return _effect(intent, ctx.d20, roller)
        case DiceRoll():
            return ctx.d20, _roll(intent, roller)
