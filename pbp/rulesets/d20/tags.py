"""d20 Advanced tags (SPEC §2.3): check, attack (a roll), aid, compare, effect."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal

from pbp.tags.common import AS_ONLY
from pbp.tags.cursor import Cursor, Names, Reject, is_signed
from pbp.tags.format import bracket, signed, with_bonus
from pbp.tags.model import Source
from pbp.tags.options import (
    AS,
    Arg,
    Option,
    first_int,
    first_str,
    flag,
    read_options,
)
from pbp.tags.problems import (
    IncompleteTag,
    MissingTarget,
)
from pbp.tags.skills import read_skill
from pbp.values import frozen_value

# Its tag types


@frozen_value
class Opponent:
    """The other side of an opposed d20 check: ``vs Goblin Perception +3`` (without ``+3``:
    the bonus on Goblin's sheet)."""

    name: str
    skill: str
    modifier: int | None


@frozen_value
class CheckTag:
    """``[check: SKILL +N vs DC]`` or ``[check: SKILL +N vs NAME SKILL +M]`` with options; a
    bonus left out is the character's sheet's."""

    source: Source
    skill: str
    modifier: int | None
    dc: int | None = None
    opponent: Opponent | None = None
    take: Literal[1, 10, 20] | None = None
    tools: Literal["none", "improvised"] | None = None
    pool: bool = False
    as_name: str | None = None


@frozen_value
class AttackRollTag:
    """``[attack: +6 vs 15]`` in a d20 scene; ``[attack: vs Goblin]`` or ``[attack: Goblin]``
    take the attack bonus and the Defense from the sheets."""

    source: Source
    modifier: int | None
    defense: int | None
    target: str | None = None  # whose Defense, when no number is given
    as_name: str | None = None


@frozen_value
class AidTag:
    """``[aid: NAME SKILL +N]``: aid another (RULES A5); without ``+N``: the sheet's bonus."""

    source: Source
    target: str
    skill: str
    modifier: int | None
    as_name: str | None = None


@frozen_value
class CompareTag:
    """``[compare: Strength 16 vs Ogre 18]``: a comparison check, no roll (RULES A12); a score
    left out is the sheet's; ``boost N`` raises one's own for this check (Hero Dice, by hand)."""

    source: Source
    score: str
    value: int | None
    opponent: str
    opponent_value: int | None
    boost: int = 0
    as_name: str | None = None


RESISTANCES = ("fortitude", "will", "toughness", "defense")
# the condition tracks an effect may worsen (RULES A10), as a tag writes them
TRACKS = ("injury", "advantage", "action", "check", "movement")


@frozen_value
class EffectTag:
    """``[effect: +6 vs Goblin Fortitude]`` or ``[effect: +6 vs 15]``: an attack or effect roll
    against a resistance's static DC, 10 + the target's rank in it (RULES A9); a bonus or rank
    left out is the sheet's."""

    source: Source
    modifier: int | None
    dc: int | None = None
    target: str | None = None
    resistance: str | None = None  # one of RESISTANCES, with ``target``
    inflict: str | None = None  # one of TRACKS: the target's track worsens when it gets through
    as_name: str | None = None


CHECK_OPTIONS = {
    "take": Option(Arg.CHOICE, choices=("1", "10", "20")),
    "tools": Option(Arg.CHOICE, choices=("none", "improvised")),
    "pool": Option(), "as": AS,
}  # fmt: skip


def read_check(body: str, *, source: Source, names: Names) -> CheckTag:
    """``[check: SKILL +N vs DC]`` / ``[check: SKILL +N vs NAME SKILL +M]`` with options."""
    cursor = Cursor(body)
    skill, modifier = read_skill(cursor, verb="check", stop=frozenset({"vs"}))
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
        other, other_modifier = read_skill(cursor, verb="check", stop=frozenset(CHECK_OPTIONS))
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
    opponent = cursor.take_name(
        names.characters, names=names, stop=COMPARE_OPTIONS, kind="character", single_word=True
    )
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
    target = cursor.take_name(
        names.characters, names=names, stop=(*RESISTANCES, "as"), kind="character", single_word=True
    )
    resistance = cursor.peek_word()
    if not target or resistance not in RESISTANCES:
        raise Reject(
            IncompleteTag(
                tag="", verb="effect", missing="vs NAME and one of " + ", ".join(RESISTANCES)
            )
        )
    cursor.take_word()
    found = read_options(cursor, EFFECT_OPTIONS, verb="effect", names=names)
    return EffectTag(
        source=source,
        modifier=modifier,
        target=target,
        resistance=resistance,
        inflict=first_str(found, "inflict"),
        as_name=first_str(found, "as"),
    )


def read_aid(body: str, *, source: Source, names: Names) -> AidTag:
    """``[aid: NAME SKILL +N]``."""
    cursor = Cursor(body)
    target = cursor.take_name(
        names.characters, names=names, stop=AS_ONLY, kind="character", single_word=True
    )
    if not target:
        raise Reject(MissingTarget(tag="", verb="aid", what="character"))
    skill, modifier = read_skill(cursor, verb="aid", stop=frozenset(AS_ONLY))
    found = read_options(cursor, AS_ONLY, verb="aid", names=names)
    return AidTag(
        source=source, target=target, skill=skill, modifier=modifier,
        as_name=first_str(found, "as"),
    )  # fmt: skip


# The verbs of a d20 scene, and their readers ("attack" is a roll against a Defense here).
VERBS: frozenset[str] = frozenset({"check", "attack", "aid", "compare", "effect"})
# reader(body, *, source, names) -> its tag; raises cursor.Reject with the problem that stops it
READERS: Mapping[str, Callable[..., CheckTag | AttackRollTag | AidTag | CompareTag | EffectTag]] = {
    "check": read_check, "attack": read_attack_roll, "aid": read_aid,
    "compare": read_compare, "effect": read_effect,
}  # fmt: skip


def _check(tag: CheckTag) -> str:
    against = (
        str(tag.dc)
        if tag.opponent is None
        else f"{tag.opponent.name} {with_bonus(tag.opponent.skill, tag.opponent.modifier)}"
    )
    options = [f"take {tag.take}"] if tag.take is not None else []
    if tag.tools is not None:
        options.append(f"tools {tag.tools}")
    if tag.pool:
        options.append("pool")
    return bracket(
        "check", f"{with_bonus(tag.skill, tag.modifier)} vs {against}", options, tag.as_name
    )


def _attack_roll(tag: AttackRollTag) -> str:
    against = str(tag.defense) if tag.defense is not None else tag.target or ""
    if tag.modifier is None:
        body = against if tag.defense is None else f"vs {against}"
    else:
        body = f"{signed(tag.modifier)} vs {against}"
    return bracket("attack", body, [], tag.as_name)


def _aid(tag: AidTag) -> str:
    return bracket("aid", f"{tag.target} {with_bonus(tag.skill, tag.modifier)}", [], tag.as_name)


def _compare(tag: CompareTag) -> str:
    mine = f"{tag.score} {tag.value}" if tag.value is not None else tag.score
    theirs = (
        f"{tag.opponent} {tag.opponent_value}" if tag.opponent_value is not None else tag.opponent
    )
    boost = [f"boost {tag.boost}"] if tag.boost else []
    return bracket("compare", f"{mine} vs {theirs}", boost, tag.as_name)


def _effect(tag: EffectTag) -> str:
    against = (
        str(tag.dc) if tag.dc is not None else f"{tag.target} {(tag.resistance or '').capitalize()}"
    )
    modifier = f"{signed(tag.modifier)} " if tag.modifier is not None else ""
    inflict = [f"inflict {tag.inflict}"] if tag.inflict else []
    return bracket("effect", f"{modifier}vs {against}", inflict, tag.as_name)


# the canonical text of each tag kind (pbp.tags.format), and what it means (SPEC §2)
FORMATS: Mapping[type, Callable[[Any], str]] = {
    CheckTag: _check,
    AttackRollTag: _attack_roll,
    AidTag: _aid,
    CompareTag: _compare,
    EffectTag: _effect,
}
MEANINGS: Mapping[type, str] = {
    CheckTag: "d20 check",
    AttackRollTag: "d20 attack roll",
    AidTag: "aid another: check vs DC 10",
    CompareTag: "comparison check: the higher score wins, no roll",
    EffectTag: "effect roll against a resistance's static DC",
}
