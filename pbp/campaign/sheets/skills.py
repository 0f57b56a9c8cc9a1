"""The skills part of a character sheet, which two rulesets read: each skill's bonus
(``skills = { Stealth = 6 }``), taken by d20 Advanced checks (and, by the resistance's name,
its ranks: RULES A9) and by Epic Path abstract rolls."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import ClassVar

from pbp.campaign.names import check_name
from pbp.campaign.sheets.base import SheetKey, SheetReader, read_bonus, sheet_key
from pbp.campaign.tables import KeyPath, Reader, Table
from pbp.tags.model import SceneKind
from pbp.values import frozen_value


@frozen_value
class SkillSheet:
    """A character's skill bonuses, as the sheet spells the skills."""

    skills: tuple[tuple[str, int], ...] = ()

    def skill(self, name: str) -> int | None:
        """The bonus in a skill (named case-insensitively), or None."""
        low = name.casefold()
        return next((bonus for skill, bonus in self.skills if skill.casefold() == low), None)

    def scores(self) -> Mapping[str, int | None]:
        """None: a skill is read by its name, never as a score."""
        return {}


class SkillSheetReader(SheetReader):
    """Reads ``skills``."""

    keys: ClassVar[Mapping[str, SheetKey]] = {
        "skills": sheet_key(
            "skill bonuses (d20 checks, Epic Path abstract rolls)",
            SceneKind.D20,
            SceneKind.ABSTRACT,
            listed=120,
        ),
    }
    misplaced: ClassVar[Mapping[str, tuple[str, str]]] = {
        "ranks": (
            "Epic Path skill ranks: each skill's bonus goes in skills",
            "skills = { Athletics = 12 }",
        ),
    }

    def read(self, reader: Reader, row: Table, at: KeyPath) -> SkillSheet:
        return SkillSheet(skills=reader.attempt(lambda: _skills(reader, row, at), ()))


def _skills(reader: Reader, row: Table, at: KeyPath) -> tuple[tuple[str, int], ...]:
    """``skills = { Stealth = 6, "Disable Device" = 4 }``: each skill's bonus."""
    table = reader.table(row, at, "skills") or {}
    found: list[tuple[str, int]] = []
    seen: set[str] = set()
    for skill in table:
        read = reader.attempt(partial(_skill, reader, table, at, skill, seen), None)
        if read is not None:
            found.append(read)
    return tuple(found)


def _skill(
    reader: Reader, table: Table, at: KeyPath, skill: str, seen: set[str]
) -> tuple[str, int]:
    where = (*at, "skills", skill)
    name = check_name(reader, skill, where, what="skill")
    if name.casefold() in seen:
        reader.fail(where, f'skill "{name}" is given twice', "each skill once")
    seen.add(name.casefold())
    bonus = read_bonus(reader, table, (*at, "skills"), skill)
    assert bonus is not None
    return name, bonus


SKILL_SHEET = SkillSheetReader()
