"""Markhorspire skirmish and battle tags (SPEC §2.4): attack, cast, act."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pbp.tags.cursor import SEPARATORS, Cursor, Names, Reject
from pbp.tags.format import bracket
from pbp.tags.model import Source
from pbp.tags.options import (
    AS,
    Arg,
    Option,
    OptionValue,
    first_str,
    flag,
    read_options,
)
from pbp.tags.problems import (
    IncompleteTag,
    MissingTarget,
)
from pbp.values import frozen_value

# Its tag types


@frozen_value
class SkirmishAttackTag:
    """``[attack: TARGET]`` in a skirmish or battle; ``react``: a battle reaction, made during
    the target's turn (RULES M7)."""

    source: Source
    target: str
    advantage: int = 0  # count of `adv` minus count of `dis` (RULES M6 clamps it)
    react: bool = False
    as_name: str | None = None
    amount: str | None = None  # `damage N` / `damage 2d6`: a battle hit's damage (RULES §6)


@frozen_value
class CastTag:
    """``[cast: TARGET]`` or ``[cast: heal NAME]``; ``react`` as for an attack."""

    source: Source
    target: str
    heal: bool = False
    advantage: int = 0
    react: bool = False
    as_name: str | None = None
    amount: str | None = None  # battle: `damage` of a cast, `amount` of a heal (RULES §6)


@frozen_value
class ActTag:
    """``[act: free text]``: any other course of action."""

    source: Source
    text: str
    advantage: int = 0
    as_name: str | None = None


SKIRMISH_OPTIONS = {"adv": Option(repeats=True), "dis": Option(repeats=True), "as": AS}
TARGETED_OPTIONS = {**SKIRMISH_OPTIONS, "react": Option()}  # RULES M7: battle reactions
# RULES §6: in a battle the tag gives an attack's damage and a heal's amount (1 when absent)
ATTACK_OPTIONS = {**TARGETED_OPTIONS, "damage": Option(Arg.DICE)}
HEAL_OPTIONS = {**TARGETED_OPTIONS, "amount": Option(Arg.DICE)}


def _advantage(found: dict[str, list[OptionValue]]) -> int:
    return len(found.get("adv", ())) - len(found.get("dis", ()))


def read_skirmish_attack(body: str, *, source: Source, names: Names) -> SkirmishAttackTag:
    """``[attack: TARGET]`` (skirmish, battle)."""
    cursor = Cursor(body)
    target = cursor.take_name(names.characters, names=names, stop=ATTACK_OPTIONS, kind="character")
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


# The verbs of a skirmish or a battle, and their readers.
VERBS: frozenset[str] = frozenset({"attack", "cast", "act"})
# reader(body, *, source, names) -> its tag; raises cursor.Reject with the problem that stops it
READERS: Mapping[str, Callable[..., SkirmishAttackTag | CastTag | ActTag]] = {
    "attack": read_skirmish_attack, "cast": read_cast, "act": read_act,
}  # fmt: skip


def _advantage_words(advantage: int) -> list[str]:
    return ["adv"] * advantage if advantage >= 0 else ["dis"] * -advantage


def _attack(tag: SkirmishAttackTag) -> str:
    react = ["react"] if tag.react else []
    amount = [f"damage {tag.amount}"] if tag.amount else []
    options = _advantage_words(tag.advantage) + react + amount
    return bracket("attack", tag.target, options, tag.as_name)


def _cast(tag: CastTag) -> str:
    body = f"heal {tag.target}" if tag.heal else tag.target
    react = ["react"] if tag.react else []
    amount = [f"{'amount' if tag.heal else 'damage'} {tag.amount}"] if tag.amount else []
    return bracket("cast", body, _advantage_words(tag.advantage) + react + amount, tag.as_name)


# the canonical text of each tag kind (pbp.tags.format), and what it means (SPEC §2)
FORMATS: Mapping[type, Callable[[Any], str]] = {
    SkirmishAttackTag: _attack,
    CastTag: _cast,
    ActTag: lambda tag: bracket("act", tag.text, _advantage_words(tag.advantage), tag.as_name),
}
MEANINGS: Mapping[type, str] = {
    SkirmishAttackTag: "skirmish attack: 1 Skirmish HP",
    CastTag: "a spell for 1 Skirmish WP",
    ActTag: "another course of action",
}
