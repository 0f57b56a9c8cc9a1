"""The canonical text of a tag: what ``pbp parse`` shows and what reads back to the same tag."""

from __future__ import annotations

from pbp.tags.model import PassTag, RollTag
from pbp.tags.registry import Tag
from pbp.tags.rulesets.abstract import AbstractTag, PaymentKind, ReactionTag, SkillSource
from pbp.tags.rulesets.d20 import AidTag, AttackRollTag, CheckTag, CompareTag, EffectTag
from pbp.tags.rulesets.distat import ActionPart, ActionTag, IdentifyTag, Maneuver, MoveTag
from pbp.tags.rulesets.markhor import ActTag, CastTag, SkirmishAttackTag


def _signed(number: int) -> str:
    return f"{number:+d}"


def _bracket(verb: str, body: str, options: list[str], as_name: str | None) -> str:
    if as_name is not None:
        options.append(f"as {as_name}")
    inner = ", ".join([body, *options]) if body else ", ".join(options)
    return f"[{verb}: {inner}]" if inner else f"[{verb}]"


def _part(part: ActionPart) -> str:
    match part.maneuver:
        case Maneuver.ESCAPE:
            text = "escape"
        case Maneuver.FEAT:
            text = f"feat vs {part.tn}" if part.target is None else f"feat {part.target}"
        case Maneuver.USE:
            text = f"use {part.talent} on {part.target}"
        case _:
            text = f"{part.maneuver.value} {part.target}"
    return text if part.share is None else f"{text} with {part.share}"


def _advantage(advantage: int) -> list[str]:
    return ["adv"] * advantage if advantage >= 0 else ["dis"] * -advantage


def _abstract(tag: AbstractTag) -> str:
    skill = "spell" if tag.skill is None else _with_bonus(tag.skill, tag.modifier)
    options = [tag.skill_source.value] if tag.skill_source in _NAMED_SOURCES else []
    match tag.payment.kind:
        case PaymentKind.SPEND:
            options.append(f"spend {tag.payment.amount}")
        case PaymentKind.ALL:
            options.append("spend all")
        case PaymentKind.BANK:
            options.append("bank")
        case PaymentKind.AUTO:
            pass
    return _bracket("abstract", f"{skill} on {tag.task}", options, tag.as_name)


_NAMED_SOURCES = (SkillSource.BAILIWICK, SkillSource.OTHER)


def _check(tag: CheckTag) -> str:
    against = (
        str(tag.dc)
        if tag.opponent is None
        else f"{tag.opponent.name} {_with_bonus(tag.opponent.skill, tag.opponent.modifier)}"
    )
    options = [f"take {tag.take}"] if tag.take is not None else []
    if tag.tools is not None:
        options.append(f"tools {tag.tools}")
    if tag.pool:
        options.append("pool")
    return _bracket(
        "check", f"{_with_bonus(tag.skill, tag.modifier)} vs {against}", options, tag.as_name
    )


def _with_bonus(skill: str, bonus: int | None) -> str:
    """``Climb +4``, or ``Climb`` when the bonus comes from the sheet."""
    return skill if bonus is None else f"{skill} {_signed(bonus)}"


def _attack_roll(tag: AttackRollTag) -> str:
    against = str(tag.defense) if tag.defense is not None else tag.target or ""
    if tag.modifier is None:
        body = against if tag.defense is None else f"vs {against}"
    else:
        body = f"{_signed(tag.modifier)} vs {against}"
    return _bracket("attack", body, [], tag.as_name)


def format_tag(tag: Tag) -> str:
    """The canonical text of a tag, e.g. ``[physical: attack Goblin, bonus 2]``."""
    match tag:
        case MoveTag():
            stat: list[str] = [tag.stat] if tag.stat is not None else []
            return _bracket("move", tag.target or "away", stat, tag.as_name)
        case ActionTag():
            bonus = [f"bonus {tag.bonus}"] if tag.bonus else []
            body = "; ".join(_part(part) for part in tag.parts)
            return _bracket(
                "physical" if tag.stat == "body" else "mental", body, bonus, tag.as_name
            )
        case IdentifyTag():
            return _bracket("identify", tag.target, [], tag.as_name)
        case PassTag():
            return _bracket("pass", "", [], tag.as_name)
        case AbstractTag():
            return _abstract(tag)
        case ReactionTag():
            return _bracket("reaction", "", [], tag.as_name)
        case CheckTag():
            return _check(tag)
        case AttackRollTag():
            return _attack_roll(tag)
        case AidTag():
            body = f"{tag.target} {_with_bonus(tag.skill, tag.modifier)}"
            return _bracket("aid", body, [], tag.as_name)
        case CompareTag():
            mine = f"{tag.score} {tag.value}" if tag.value is not None else tag.score
            theirs = (f"{tag.opponent} {tag.opponent_value}" if tag.opponent_value is not None
                      else tag.opponent)
            boost = [f"boost {tag.boost}"] if tag.boost else []
            return _bracket("compare", f"{mine} vs {theirs}", boost, tag.as_name)
        case EffectTag():
            against = (str(tag.dc) if tag.dc is not None
                       else f"{tag.target} {(tag.resistance or '').capitalize()}")
            signed = f"{_signed(tag.modifier)} " if tag.modifier is not None else ""
            inflict = [f"inflict {tag.inflict}"] if tag.inflict else []
            return _bracket("effect", f"{signed}vs {against}", inflict, tag.as_name)
        case RollTag():
            return _bracket("roll", tag.expression, [], tag.as_name)
        case SkirmishAttackTag():
            react = ["react"] if tag.react else []
            return _bracket("attack", tag.target, _advantage(tag.advantage) + react, tag.as_name)
        case CastTag():
            body = f"heal {tag.target}" if tag.heal else tag.target
            react = ["react"] if tag.react else []
            return _bracket("cast", body, _advantage(tag.advantage) + react, tag.as_name)
        case ActTag():
            return _bracket("act", tag.text, _advantage(tag.advantage), tag.as_name)
