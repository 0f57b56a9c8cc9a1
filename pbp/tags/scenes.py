"""Tags of the other scenes: Epic Path (§2.2), d20 Advanced (§2.3), Markhorspire (§2.4)."""

from __future__ import annotations

from typing import Literal

from pbp.tags.cursor import SEPARATORS, Cursor, Names, Reject, is_signed
from pbp.tags.dice import check_notation
from pbp.tags.model import (
    RESISTANCES,
    TRACKS,
    AbstractTag,
    ActTag,
    AidTag,
    AttackRollTag,
    CastTag,
    CheckTag,
    CompareTag,
    EffectTag,
    Opponent,
    Payment,
    PaymentKind,
    ReactionTag,
    RollTag,
    SkillSource,
    SkirmishAttackTag,
    Source,
)
from pbp.tags.options import (
    AS,
    Arg,
    Option,
    OptionValue,
    first_int,
    first_str,
    flag,
    read_options,
)
from pbp.tags.problems import ConflictingOptions, IncompleteTag, MissingTarget

ABSTRACT_OPTIONS = {
    "bailiwick": Option(), "other": Option(), "bank": Option(), "auto": Option(),
    "spend": Option(Arg.CHOICE, choices=("all",), or_count=True), "as": AS,
}  # fmt: skip
CHECK_OPTIONS = {
    "take": Option(Arg.CHOICE, choices=("1", "10", "20")),
    "tools": Option(Arg.CHOICE, choices=("none", "improvised")),
    "pool": Option(), "as": AS,
}  # fmt: skip
SKIRMISH_OPTIONS = {"adv": Option(repeats=True), "dis": Option(repeats=True), "as": AS}
TARGETED_OPTIONS = {**SKIRMISH_OPTIONS, "react": Option()}  # RULES M7: battle reactions
# RULES §6: in a battle the tag gives an attack's damage and a heal's amount (1 when absent)
ATTACK_OPTIONS = {**TARGETED_OPTIONS, "damage": Option(Arg.DICE)}
HEAL_OPTIONS = {**TARGETED_OPTIONS, "amount": Option(Arg.DICE)}
AS_ONLY = {"as": AS}
_PAYMENTS = ("spend", "bank", "auto")


def _skill(cursor: Cursor, *, verb: str, stop: frozenset[str]) -> tuple[str, int | None]:
    """``SKILL +N``: the words up to a modifier (skills may hold spaces and parentheses); with
    no ``+N`` the bonus is the sheet's (None)."""
    skill = cursor.take_words(stop, signed_stops=True).strip()
    if not skill:
        raise Reject(IncompleteTag(tag="", verb=verb, missing="SKILL +N"))
    if not is_signed(cursor.peek_word()):
        return skill, None
    return skill, cursor.take_signed(verb=verb, option=skill)


def read_abstract(body: str, *, source: Source, names: Names) -> AbstractTag:
    """``[abstract: SKILL +N on TASK, …]`` or ``[abstract: spell on TASK]``."""
    cursor = Cursor(body)
    skill: str | None = None
    modifier: int | None = 0
    if cursor.peek_word() == "spell":
        cursor.take_word()
    else:
        skill, modifier = _skill(cursor, verb="abstract", stop=frozenset({"on"}))
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


def read_check(body: str, *, source: Source, names: Names) -> CheckTag:
    """``[check: SKILL +N vs DC]`` / ``[check: SKILL +N vs NAME SKILL +M]`` with options."""
    cursor = Cursor(body)
    skill, modifier = _skill(cursor, verb="check", stop=frozenset({"vs"}))
    cursor.expect("vs", verb="check", missing="vs DC")
    dc: int | None = None
    opponent: Opponent | None = None
    if cursor.peek_word().isdigit():
        dc = cursor.take_count(verb="check", option="vs")
    else:
        name = cursor.take_name(
            names.characters, names=names, stop=CHECK_OPTIONS, kind="character", single_word=True
        )
        if not name:
            raise Reject(IncompleteTag(tag="", verb="check", missing="vs DC"))
        other, other_modifier = _skill(cursor, verb="check", stop=frozenset(CHECK_OPTIONS))
        opponent = Opponent(name=name, skill=other, modifier=other_modifier)
    found = read_options(cursor, CHECK_OPTIONS, verb="check", names=names)
    take = first_str(found, "take")
    tools = first_str(found, "tools")
    return CheckTag(
        source=source, skill=skill, modifier=modifier, dc=dc, opponent=opponent,
        take=_TAKES[take] if take else None,
        tools="none" if tools == "none" else "improvised" if tools else None,
        pool=flag(found, "pool"), as_name=first_str(found, "as"),
    )  # fmt: skip


_TAKES: dict[str, Literal[1, 10, 20]] = {"1": 1, "10": 10, "20": 20}


def read_attack_roll(body: str, *, source: Source, names: Names) -> AttackRollTag:
    """``[attack: +6 vs 15]`` (d20); the bonus may be left to the sheet (``[attack: vs 15]``)
    and the Defense named (``[attack: +6 vs Goblin]``, ``[attack: Goblin]``)."""
    cursor = Cursor(body)
    if not cursor.peek_word():
        raise Reject(IncompleteTag(tag="", verb="attack", missing="+N vs DEFENSE"))
    modifier: int | None = None
    if is_signed(cursor.peek_word()):
        modifier = cursor.take_signed(verb="attack", option="attack")
        cursor.expect("vs", verb="attack", missing="vs DEFENSE")
    elif cursor.peek_word() == "vs":
        cursor.take_word()
    defense: int | None = None
    target: str | None = None
    if cursor.peek_word().isdigit():
        defense = cursor.take_count(verb="attack", option="vs")
    else:
        target = cursor.take_name(names.characters, names=names, stop=AS_ONLY, kind="character")
        if not target:
            raise Reject(IncompleteTag(tag="", verb="attack", missing="+N vs DEFENSE"))
    found = read_options(cursor, AS_ONLY, verb="attack", names=names)
    return AttackRollTag(
        source=source, modifier=modifier, defense=defense, target=target,
        as_name=first_str(found, "as"),
    )  # fmt: skip


COMPARE_OPTIONS = {"boost": Option(Arg.COUNT), "as": AS}


def _score(cursor: Cursor, *, verb: str) -> int | None:
    """A score written after a name (a whole number), or None: the sheet's."""
    return cursor.take_count(verb=verb, option=verb) if cursor.peek_word().isdigit() else None


def read_compare(body: str, *, source: Source, names: Names) -> CompareTag:
    """``[compare: SCORE N vs NAME M]`` (d20, RULES A12); the numbers may be left to the
    sheets, ``boost N`` raises one's own score."""
    cursor = Cursor(body)
    score = ""
    while (word := cursor.peek_word()) and word != "vs" and not word.isdigit():
        score = f"{score} {cursor.take_word()}".strip()
    if not score:
        raise Reject(IncompleteTag(tag="", verb="compare", missing="SCORE vs NAME"))
    value = _score(cursor, verb="compare")
    cursor.expect("vs", verb="compare", missing="vs NAME")
    opponent = cursor.take_name(names.characters, names=names, stop=COMPARE_OPTIONS,
                                kind="character", single_word=True)
    if not opponent:
        raise Reject(IncompleteTag(tag="", verb="compare", missing="vs NAME"))
    opponent_value = _score(cursor, verb="compare")
    found = read_options(cursor, COMPARE_OPTIONS, verb="compare", names=names)
    return CompareTag(
        source=source, score=score, value=value, opponent=opponent,
        opponent_value=opponent_value, boost=first_int(found, "boost") or 0,
        as_name=first_str(found, "as"),
    )  # fmt: skip


# RULES A10: `| inflict movement` worsens the target's Movement track one step if it gets through
EFFECT_OPTIONS = {"inflict": Option(Arg.CHOICE, choices=TRACKS), "as": AS}


def read_effect(body: str, *, source: Source, names: Names) -> EffectTag:
    """``[effect: +6 vs NAME RESISTANCE | inflict TRACK]`` or ``[effect: +6 vs DC]`` (d20,
    RULES A9, A10)."""
    cursor = Cursor(body)
    modifier: int | None = None
    if is_signed(cursor.peek_word()):
        modifier = cursor.take_signed(verb="effect", option="effect")
    cursor.expect("vs", verb="effect", missing="vs NAME FORTITUDE")
    if cursor.peek_word().isdigit():
        dc = cursor.take_count(verb="effect", option="vs")
        found = read_options(cursor, AS_ONLY, verb="effect", names=names)
        return EffectTag(source=source, modifier=modifier, dc=dc, as_name=first_str(found, "as"))
    target = cursor.take_name(names.characters, names=names, stop=(*RESISTANCES, "as"),
                              kind="character", single_word=True)
    resistance = cursor.peek_word()
    if not target or resistance not in RESISTANCES:
        raise Reject(IncompleteTag(tag="", verb="effect",
                                   missing="vs NAME and one of " + ", ".join(RESISTANCES)))
    cursor.take_word()
    found = read_options(cursor, EFFECT_OPTIONS, verb="effect", names=names)
    return EffectTag(source=source, modifier=modifier, target=target, resistance=resistance,
                     inflict=first_str(found, "inflict"), as_name=first_str(found, "as"))


def read_aid(body: str, *, source: Source, names: Names) -> AidTag:
    """``[aid: NAME SKILL +N]``."""
    cursor = Cursor(body)
    target = cursor.take_name(
        names.characters, names=names, stop=AS_ONLY, kind="character", single_word=True
    )
    if not target:
        raise Reject(MissingTarget(tag="", verb="aid", what="character"))
    skill, modifier = _skill(cursor, verb="aid", stop=frozenset(AS_ONLY))
    found = read_options(cursor, AS_ONLY, verb="aid", names=names)
    return AidTag(
        source=source, target=target, skill=skill, modifier=modifier,
        as_name=first_str(found, "as"),
    )  # fmt: skip


def read_roll(body: str, *, source: Source, names: Names) -> RollTag:
    """``[roll: 2d6+3]``: the notation may hold spaces (``2d6 + 3``)."""
    cursor = Cursor(body)
    written = cursor.take_words(AS_ONLY)
    if not written.strip():
        raise Reject(IncompleteTag(tag="", verb="roll", missing="DICE"))
    expression = check_notation("".join(written.split()).lower())
    found = read_options(cursor, AS_ONLY, verb="roll", names=names)
    return RollTag(source=source, expression=expression, as_name=first_str(found, "as"))


def _advantage(found: dict[str, list[OptionValue]]) -> int:
    return len(found.get("adv", ())) - len(found.get("dis", ()))


def read_skirmish_attack(body: str, *, source: Source, names: Names) -> SkirmishAttackTag:
    """``[attack: TARGET]`` (skirmish, battle)."""
    cursor = Cursor(body)
    target = cursor.take_name(
        names.characters, names=names, stop=ATTACK_OPTIONS, kind="character"
    )
    if not target:
        raise Reject(MissingTarget(tag="", verb="attack", what="character"))
    found = read_options(cursor, ATTACK_OPTIONS, verb="attack", names=names)
    return SkirmishAttackTag(
        source=source, target=target, advantage=_advantage(found), react=flag(found, "react"),
        as_name=first_str(found, "as"), amount=first_str(found, "damage"),
    )  # fmt: skip


def read_cast(body: str, *, source: Source, names: Names) -> CastTag:
    """``[cast: TARGET]`` / ``[cast: heal NAME]``."""
    cursor = Cursor(body)
    heal = cursor.peek_word() == "heal"
    if heal:
        cursor.take_word()
    table = HEAL_OPTIONS if heal else ATTACK_OPTIONS
    target = cursor.take_name(names.characters, names=names, stop=table, kind="character")
    if not target:
        raise Reject(
            MissingTarget(tag="", verb="cast", maneuver="heal" if heal else "", what="character")
        )
    found = read_options(cursor, table, verb="cast", names=names)
    return CastTag(
        source=source, target=target, heal=heal, advantage=_advantage(found),
        react=flag(found, "react"), as_name=first_str(found, "as"),
        amount=first_str(found, "amount" if heal else "damage"),
    )  # fmt: skip


def read_act(body: str, *, source: Source, names: Names) -> ActTag:
    """``[act: free text]``: trailing option chunks (``, adv``, ``| as Bram``) are options."""
    text, found = _split_free_text(body, names=names)
    if not text:
        raise Reject(IncompleteTag(tag="", verb="act", missing="TEXT"))
    return ActTag(
        source=source, text=text, advantage=_advantage(found), as_name=first_str(found, "as")
    )


def _split_free_text(body: str, *, names: Names) -> tuple[str, dict[str, list[OptionValue]]]:
    found: dict[str, list[OptionValue]] = {}
    text = body.strip()
    while text:
        for head, tail in _option_chunks(text):
            try:
                more = read_options(Cursor(tail), SKIRMISH_OPTIONS, verb="act", names=names)
            except Reject:
                continue
            for key, values in more.items():
                found.setdefault(key, []).extend(values)
            text = head.rstrip(" " + SEPARATORS)
            break
        else:
            break
    return text, found


def _option_chunks(text: str) -> list[tuple[str, str]]:
    """Where trailing options may start: after the last separator, or a last adv/dis word."""
    chunks: list[tuple[str, str]] = []
    cut = max(text.rfind(sep) for sep in SEPARATORS)
    if cut >= 0 and text[cut + 1 :].strip():
        chunks.append((text[:cut], text[cut + 1 :]))
    words = text.rsplit(None, 1)
    if len(words) == 2 and words[1].lower() in ("adv", "dis"):
        chunks.append((words[0], words[1]))
    return chunks
