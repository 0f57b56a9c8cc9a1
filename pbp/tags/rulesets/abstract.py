"""Epic Path abstract encounter tags (SPEC §2.2): abstract, reaction."""

from __future__ import annotations

from pbp.tags.common import AS_ONLY
from pbp.tags.cursor import Cursor, Names, Reject
from pbp.tags.model import (
    AbstractTag,
    Payment,
    PaymentKind,
    ReactionTag,
    SkillSource,
    Source,
)
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
from pbp.tags.readers import Reader
from pbp.tags.skills import read_skill

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
READERS: dict[str, Reader] = {"abstract": read_abstract, "reaction": read_reaction}

# Its tag types (kept with every tag kind in pbp.tags.model), its readers and verbs.
__all__ = [
    "READERS",
    "VERBS",
    "AbstractTag",
    "Payment",
    "PaymentKind",
    "ReactionTag",
    "SkillSource",
    "read_abstract",
    "read_reaction",
]
