"""The number an abstract tag leaves to the character sheets: an Epic Path skill's bonus
(``[abstract: Athletics on TASK]``). A bonus the sheet does not have is a refusal that says
which, and how to write it in the tag instead."""

from __future__ import annotations

from pbp.campaign.model import Campaign
from pbp.campaign.sheets.skills import SkillSheet
from pbp.errors import Problem
from pbp.rulesets.abstract.engine.refusals import NotOnSheet
from pbp.rulesets.abstract.tags import AbstractTag
from pbp.tags.names import likely_typo
from pbp.tags.registry import Tag
from pbp.values import replace


def from_sheets(tag: Tag, *, actor: str, campaign: Campaign) -> Tag | Problem:
    """``tag`` with the skill bonus it left out taken from the actor's sheet, or why not."""
    match tag:
        case AbstractTag(modifier=None, skill=str() as skill):
            sheet = campaign.character(actor)
            skills = sheet.part(SkillSheet) if sheet is not None else SkillSheet()
            bonus = skills.skill(skill)
            if bonus is None:
                src = tag.source
                near = likely_typo(skill, (name for name, _ in skills.skills))
                return NotOnSheet(
                    tag=src.text,
                    line=src.line,
                    column=src.column,
                    actor=actor,
                    skill=skill,
                    task=tag.task,
                    near=near or "",
                )
            return replace(tag, modifier=bonus)
    return tag
