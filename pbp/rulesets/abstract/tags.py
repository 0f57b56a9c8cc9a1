"""Epic Path abstract encounter tags (SPEC §2.2): abstract, reaction."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import Any

from pbp.tags.common import AS_ONLY
from pbp.tags.cursor import Cursor, Names, Reject
from pbp.tags.format import bracket, with_bonus
from pbp.tags.model import Source
from pbp.tags.options import (
    AS,
    Arg,
    Option,
    OptionValue,
    first_str,
    read_options,
)
from pbp.tags.problems import (
    ConflictingOptions,
    MissingTarget,
)
from pbp.tags.skills import read_skill
from pbp.values import frozen_value

# Its tag types


class SkillSource(StrEnum):
    """What the abstract skill roll uses, which fixes the divisor (RULES E1, E3)."""

    SKILL = "skill"  # the action's proper skill: ÷ 5
    BAILIWICK = "bailiwick"  # ÷ 10
    OTHER = "other"  # another skill the GM allowed: ÷ 12
    SPELL = "spell"  # five spell slots: unmodified d20 ÷ 5


class PaymentKind(StrEnum):
    """How the action dice are used."""

    AUTO = "auto"
    SPEND = "spend"
    ALL = "all"
    BANK = "bank"


@frozen_value
class Payment:
    """``spend N`` (kind SPEND, amount N), ``spend all``, ``bank`` or ``auto``."""

    kind: PaymentKind = PaymentKind.AUTO
    amount: int | None = None


@frozen_value
class AbstractTag:
    """``[abstract: SKILL +N on TASK, …]`` or ``[abstract: spell on TASK]``; without ``+N`` the
    skill's bonus comes from the character's sheet."""

    source: Source
    skill: str | None  # None for spell
    modifier: int | None  # None: the sheet's
    task: str
    skill_source: SkillSource = SkillSource.SKILL
    payment: Payment = Payment()
    as_name: str | None = None


@frozen_value
class ReactionTag:
    """``[reaction]``: roll the Reaction Die (RULES E12)."""

    source: Source
    as_name: str | None = None


ABSTRACT_OPTIONS = {
    "bailiwick": Option(), "other": Option(), "bank": Option(), "auto": Option(),
    "spend": Option(Arg.CHOICE, choices=("all",), or_count=True), "as": AS,
}  # fmt: skip
_PAYMENTS = ("spend", "bank", "auto")


def read_abstract(body: str, *, source: Source, names: Names) -> AbstractTag:
    """``[abstract: SKILL +N on TASK, …]`` or ``[abstract: spell on TASK]``."""
    cursor = Cursor(body)
    skill: str | None = None
    modifier: int | None = 0
    if cursor.peek_word() == "spell":
        cursor.take_word()
    else:
        skill, modifier = read_skill(cursor, verb="abstract", stop=frozenset({"on"}))
    cursor.expect("on", verb="abstract", missing="on TASK")
    task = cursor.take_name(names.tasks, names=names, stop=ABSTRACT_OPTIONS, kind="task")
    if not task:
        raise Reject(MissingTarget(tag="", verb="abstract", maneuver="on", what="task"))
    found = read_options(cursor, ABSTRACT_OPTIONS, verb="abstract", names=names)
    return AbstractTag(
        source=source, skill=skill, modifier=modifier, task=task,
        skill_source=_skill_source(found, spell=skill is None), payment=_payment(found),
        as_name=first_str(found, "as"),
    )  # fmt: skip


def _skill_source(found: dict[str, list[OptionValue]], *, spell: bool) -> SkillSource:
    given = [key for key in ("bailiwick", "other") if key in found]
    if spell and given:
        raise Reject(ConflictingOptions(tag="", verb="abstract", first="spell", second=given[0]))
    if len(given) == 2:
        raise Reject(ConflictingOptions(tag="", verb="abstract", first="bailiwick", second="other"))
    if spell:
        return SkillSource.SPELL
    return SkillSource(given[0]) if given else SkillSource.SKILL


def _payment(found: dict[str, list[OptionValue]]) -> Payment:
    given = [key for key in _PAYMENTS if key in found]
    if len(given) > 1:
        raise Reject(ConflictingOptions(tag="", verb="abstract", first=given[0], second=given[1]))
    if not given or given[0] == "auto":
        return Payment()
    if given[0] == "bank":
        return Payment(kind=PaymentKind.BANK)
    amount = found["spend"][0]
    if amount == "all":
        return Payment(kind=PaymentKind.ALL)
    return Payment(kind=PaymentKind.SPEND, amount=int(amount))


def read_reaction(body: str, *, source: Source, names: Names) -> ReactionTag:
    """``[reaction]``."""
    found = read_options(Cursor(body), AS_ONLY, verb="reaction", names=names)
    return ReactionTag(source=source, as_name=first_str(found, "as"))


# The verbs of an abstract scene, and their readers.
VERBS: frozenset[str] = frozenset({"abstract", "reaction"})
# reader(body, *, source, names) -> its tag; raises cursor.Reject with the problem that stops it
READERS: Mapping[str, Callable[..., AbstractTag | ReactionTag]] = {
    "abstract": read_abstract, "reaction": read_reaction,
}  # fmt: skip


def _abstract(tag: AbstractTag) -> str:
    skill = "spell" if tag.skill is None else with_bonus(tag.skill, tag.modifier)
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
    return bracket("abstract", f"{skill} on {tag.task}", options, tag.as_name)


_NAMED_SOURCES = (SkillSource.BAILIWICK, SkillSource.OTHER)

# the canonical text of each tag kind (pbp.tags.format), and what it means (SPEC §2)
FORMATS: Mapping[type, Callable[[Any], str]] = {
    AbstractTag: _abstract,
    ReactionTag: lambda tag: bracket("reaction", "", [], tag.as_name),
}
MEANINGS: Mapping[type, str] = {
    AbstractTag: "this interval's skill roll toward the task",
    ReactionTag: "roll the Reaction Die",
}
