"""The numbers a d20 tag leaves to the character sheets: a skill's bonus (``[check: Stealth vs
15]``), the opponent's in an opposed check, an attack bonus and a Defense (``[attack:
Goblin]``), scores and resistance ranks. A number the sheet does not have is a refusal that
says which, and how to write it in the tag instead (the example's other numbers are not the
sheet's: an NPC's tag gets the same reply, and players read it)."""

from __future__ import annotations

from pbp.campaign.model import Campaign
from pbp.campaign.sheets.skills import SkillSheet
from pbp.errors import Problem
from pbp.rulesets.d20.engine.refusals import NotOnSheet
from pbp.rulesets.d20.rules.resistances import RESISTANCE_BASE
from pbp.rulesets.d20.sheet import D20Sheet
from pbp.rulesets.d20.tags import AidTag, AttackRollTag, CheckTag, CompareTag, EffectTag
from pbp.tags.registry import Tag
from pbp.values import replace


def from_sheets(tag: Tag, *, actor: str, campaign: Campaign) -> Tag | Problem:
    """``tag`` with every number it left out taken from the sheets, or why that cannot be."""
    match tag:
        case CheckTag():
            return _check(tag, actor=actor, campaign=campaign)
        case AidTag(modifier=None):
            bonus = _skill(campaign, actor, tag.skill)
            if bonus is None:
                return _missing(
                    tag, actor, f"{tag.skill} bonus", f"[aid: {tag.target} {tag.skill} +3]"
                )
            return replace(tag, modifier=bonus)
        case AttackRollTag():
            return _attack(tag, actor=actor, campaign=campaign)
        case CompareTag():
            return _compare(tag, actor=actor, campaign=campaign)
        case EffectTag():
            return _effect(tag, actor=actor, campaign=campaign)
    return tag


def _compare(tag: CompareTag, *, actor: str, campaign: Campaign) -> CompareTag | Problem:
    """RULES A12: each side's score, the tag's or the sheet's (its ``skills`` table)."""
    if tag.value is None:
        value = _skill(campaign, actor, tag.score)
        if value is None:
            return _missing(
                tag, actor, f"{tag.score} score", f"[compare: {tag.score} 16 vs {tag.opponent}]"
            )
        tag = replace(tag, value=value)
    if tag.opponent_value is None:
        value = _skill(campaign, tag.opponent, tag.score)
        if value is None:
            # the example's own score is not the sheet's: the reply may be about an NPC's
            # tag, which players read too (SPEC §4.5)
            return _missing(
                tag,
                tag.opponent,
                f"{tag.score} score",
                f"[compare: {tag.score} 16 vs {tag.opponent} 14]",
            )
        tag = replace(tag, opponent_value=value)
    return tag


def _effect(tag: EffectTag, *, actor: str, campaign: Campaign) -> EffectTag | Problem:
    """RULES A9: the roll's bonus (the tag's, or the sheet's attack bonus) against a static DC,
    10 + the target's rank in the resistance (its ``skills`` entry of that name)."""
    if tag.modifier is None:
        bonus = _d20(campaign, actor).attack
        if bonus is None:
            return _missing(tag, actor, "attack bonus", "[effect: +6 vs 15]")
        tag = replace(tag, modifier=bonus)
    if tag.dc is None and tag.target is not None and tag.resistance is not None:
        rank = _skill(campaign, tag.target, tag.resistance)
        if rank is None:
            name = tag.resistance.capitalize()
            return _missing(tag, tag.target, f"{name} rank", "[effect: +6 vs 15]")
        tag = replace(tag, dc=RESISTANCE_BASE + rank)
    return tag


def _check(tag: CheckTag, *, actor: str, campaign: Campaign) -> CheckTag | Problem:
    if tag.modifier is None:
        bonus = _skill(campaign, actor, tag.skill)
        if bonus is None:
            return _missing(tag, actor, f"{tag.skill} bonus", f"[check: {tag.skill} +4 vs 15]")
        tag = replace(tag, modifier=bonus)
    opponent = tag.opponent
    if opponent is not None and opponent.modifier is None:
        bonus = _skill(campaign, opponent.name, opponent.skill)
        if bonus is None:
            return _missing(
                tag,
                opponent.name,
                f"{opponent.skill} bonus",
                f"[check: {tag.skill} vs {opponent.name} {opponent.skill} +3]",
            )
        tag = replace(tag, opponent=replace(opponent, modifier=bonus))
    return tag


def _attack(tag: AttackRollTag, *, actor: str, campaign: Campaign) -> AttackRollTag | Problem:
    if tag.modifier is None:
        bonus = _d20(campaign, actor).attack
        if bonus is None:
            return _missing(tag, actor, "attack bonus", "[attack: +5 vs 12]")
        tag = replace(tag, modifier=bonus)
    if tag.defense is None and tag.target is not None:
        defense = _d20(campaign, tag.target).defense
        if defense is None:
            return _missing(tag, tag.target, "Defense", "[attack: +5 vs 12]")
        tag = replace(tag, defense=defense)
    return tag


def _d20(campaign: Campaign, name: str) -> D20Sheet:
    """``name``'s d20 part of the sheet (an empty one for a name without a sheet)."""
    sheet = campaign.character(name)
    return sheet.part(D20Sheet) if sheet is not None else D20Sheet()


def _skill(campaign: Campaign, name: str, skill: str) -> int | None:
    sheet = campaign.character(name)
    return sheet.part(SkillSheet).skill(skill) if sheet is not None else None


def _missing(tag: Tag, owner: str, what: str, example: str) -> NotOnSheet:
    src = tag.source
    return NotOnSheet(
        tag=src.text, line=src.line, column=src.column, owner=owner, what=what, example=example
    )
