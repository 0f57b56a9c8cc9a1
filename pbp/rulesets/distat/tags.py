"""Distat tags (SPEC §2.1): move, physical/mental (with splits), identify."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import Any, Literal

from pbp.tags.common import AS_ONLY
from pbp.tags.cursor import Cursor, Names, Reject, exact_name_at, is_signed
from pbp.tags.format import bracket
from pbp.tags.model import Source
from pbp.tags.names import likely_typo, named
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
from pbp.tags.problems import (
    BonusOnSplit,
    ConflictingOptions,
    DuplicateOption,
    IncompleteTag,
    MissingTarget,
    SplitManeuver,
    SplitOfOnePart,
    SplitWithoutShare,
    UnknownManeuver,
)
from pbp.values import frozen_value

Stat = Literal["body", "mind"]

# Its tag types


class Maneuver(StrEnum):
    """What a physical or mental action does."""

    ATTACK = "attack"
    RESTRAIN = "restrain"
    ESCAPE = "escape"
    FEAT = "feat"
    USE = "use"


@frozen_value
class ActionPart:
    """One check of a physical or mental action; a split has several.

    ``target`` is a character (attack, restrain, use) or a feature (feat); ``tn`` is the
    target number of ``feat vs N``; ``talent`` is the talent of ``use TALENT on TARGET``;
    ``share`` is the ``with N`` of a split part (None outside splits).
    """

    maneuver: Maneuver
    target: str | None = None
    talent: str | None = None
    tn: int | None = None
    share: int | None = None


@frozen_value
class MoveTag:
    """``[move: TARGET]`` or ``[move: away]``; ``stat`` picks the Threatened-check stat."""

    source: Source
    target: str | None  # None: move away and stand alone
    stat: Stat | None = None
    as_name: str | None = None


@frozen_value
class ActionTag:
    """``[physical: …]`` (stat body) or ``[mental: …]`` (stat mind): one part, or a split."""

    source: Source
    stat: Stat
    parts: tuple[ActionPart, ...]
    bonus: int = 0
    as_name: str | None = None

    @property
    def is_split(self) -> bool:
        """Whether the action is split into several checks (SPEC §2.1, RULES D7)."""
        return len(self.parts) > 1


@frozen_value
class IdentifyTag:
    """``[identify: TARGET]``: uses the move (RULES D13)."""

    source: Source
    target: str
    as_name: str | None = None


MOVE_OPTIONS = {"body": Option(), "mind": Option(), "as": AS}
ACTION_OPTIONS = {"with": Option(Arg.COUNT), "bonus": Option(Arg.COUNT), "as": AS}
_ACTION_STOPS = frozenset(ACTION_OPTIONS) | {"on", "vs"}
_SPLIT_MANEUVERS = frozenset({Maneuver.ATTACK, Maneuver.RESTRAIN, Maneuver.USE})
_STATS: dict[str, Stat] = {"physical": "body", "mental": "mind"}
_MANEUVERS = {maneuver.value: maneuver for maneuver in Maneuver}
_MANEUVER_WORDS = tuple(_MANEUVERS)


def read_move(body: str, *, source: Source, names: Names) -> MoveTag:
    """``[move: TARGET]`` / ``[move: away]``, options ``body``, ``mind``, ``as NAME``."""
    cursor = Cursor(body)
    target: str | None = None
    if cursor.peek_word() == "away":
        cursor.take_word()
    else:
        target = cursor.take_name(
            names.characters + names.features, names=names, stop=MOVE_OPTIONS, kind="target"
        )
        if not target:
            raise Reject(MissingTarget(tag="", verb="move", what="character or feature"))
    found = read_options(cursor, MOVE_OPTIONS, verb="move", names=names)
    if flag(found, "body") and flag(found, "mind"):
        raise Reject(ConflictingOptions(tag="", verb="move", first="body", second="mind"))
    stat: Stat | None = "body" if flag(found, "body") else "mind" if flag(found, "mind") else None
    return MoveTag(source=source, target=target, stat=stat, as_name=first_str(found, "as"))


def read_identify(body: str, *, source: Source, names: Names) -> IdentifyTag:
    """``[identify: TARGET]``."""
    cursor = Cursor(body)
    target = cursor.take_name(names.characters, names=names, stop=AS_ONLY, kind="character")
    if not target:
        raise Reject(MissingTarget(tag="", verb="identify", what="character"))
    found = read_options(cursor, AS_ONLY, verb="identify", names=names)
    return IdentifyTag(source=source, target=target, as_name=first_str(found, "as"))


def read_action(verb: str, body: str, *, source: Source, names: Names) -> ActionTag:
    """``[physical: …]`` / ``[mental: …]``: one part with options, or a split (RULES D7)."""
    quick = _quick_action(verb, body, source=source, names=names)
    return quick if quick is not None else read_action_whole(verb, body, source=source, names=names)


# `attack NAME` or `restrain NAME`, and after the name nothing, or one bonus
_QUICK_HEAD = re.compile(r"\s*(attack|restrain)\s+", re.IGNORECASE)
_QUICK_WORD = re.compile(r"[^\s,|/;]+")
_QUICK_TAIL = re.compile(r"[\s,|/]*|[\s,|/]+bonus\s+(\+?\d{1,6})[\s,|/]*", re.IGNORECASE)


def _quick_action(verb: str, body: str, *, source: Source, names: Names) -> ActionTag | None:
    """Most actions as players write them, ``attack NAME`` or ``restrain NAME`` with a name
    of the roster (whole, or the start of one name only) and at most a bonus, read as
    ``read_action_whole`` reads them, in three matches; None for any other body (read the
    whole way). ASCII only: there the exact name is one match of the roster's expression
    (``exact_name_at``)."""
    if ";" in body or not body.isascii():
        return None
    head = _QUICK_HEAD.match(body)
    if head is None:
        return None
    start = head.end()
    written = exact_name_at(body, start, names.characters)  # the longest name there
    if written:
        target = written
    else:  # one word, a name's start (`Gob`), as ``Cursor.take_name`` resolves it
        word = _QUICK_WORD.match(body, start)
        written = word.group() if word is not None else ""
        if not written or written.lower() in _ACTION_STOPS or is_signed(written):
            return None
        found = named(written, candidates=names.characters)
        if found is None:
            return None
        target = found
    tail = _QUICK_TAIL.fullmatch(body, start + len(written))
    if tail is None:
        return None
    part = _one_part(head.group(1).lower(), target)
    bonus = tail.group(1)
    if bonus is None:
        return ActionTag(source=source, stat=_STATS[verb], parts=(part,))
    return ActionTag(source=source, stat=_STATS[verb], parts=(part,), bonus=int(bonus))


@functools.lru_cache(maxsize=256)
def _one_part(maneuver: str, target: str) -> ActionPart:
    """The part ``maneuver target`` (a value: the same one for every tag that names it)."""
    return ActionPart(maneuver=_MANEUVERS[maneuver], target=target)


def read_action_whole(verb: str, body: str, *, source: Source, names: Names) -> ActionTag:
    """``read_action`` of any body, word by word."""
    texts = [text for text in body.split(";") if text.strip()]
    if not texts:
        raise Reject(IncompleteTag(tag="", verb=verb, missing="attack TARGET"))
    parts: list[ActionPart] = []
    options: dict[str, list[OptionValue]] = {}
    for text in texts:
        part, found = _read_part(verb, text, names=names)
        parts.append(part)
        for key, values in found.items():
            if key in options:
                raise Reject(DuplicateOption(tag="", verb=verb, option=key))
            options[key] = values
    _check_split(verb, parts, texts, bonus="bonus" in options)
    if not options:  # most actions
        return ActionTag(source=source, stat=_STATS[verb], parts=tuple(parts))
    return ActionTag(
        source=source,
        stat=_STATS[verb],
        parts=tuple(parts),
        bonus=first_int(options, "bonus") or 0,
        as_name=first_str(options, "as"),
    )


def _check_split(verb: str, parts: list[ActionPart], texts: list[str], *, bonus: bool) -> None:
    if len(parts) == 1:
        if parts[0].share is not None:
            raise Reject(SplitOfOnePart(tag="", verb=verb))
        return
    for part, text in zip(parts, texts, strict=True):
        if part.maneuver not in _SPLIT_MANEUVERS:
            raise Reject(SplitManeuver(tag="", verb=verb, maneuver=part.maneuver.value))
        if part.share is None:
            raise Reject(SplitWithoutShare(tag="", verb=verb, part=text.strip()))
    if bonus:
        raise Reject(BonusOnSplit(tag="", verb=verb))


def _read_part(
    verb: str, text: str, *, names: Names
) -> tuple[ActionPart, dict[str, list[OptionValue]]]:
    cursor = Cursor(text)
    word = cursor.take_word()
    maneuver = _MANEUVERS.get(word.lower())
    if maneuver is None:
        maneuvers = _MANEUVER_WORDS
        near = likely_typo(word, maneuvers) if word else None
        raise Reject(
            UnknownManeuver(
                tag="", verb=verb, word=word, maneuvers=maneuvers, suggestion=near or ""
            )
        )
    part = _PART_READERS[maneuver](cursor, verb=verb, names=names)
    found = read_options(cursor, ACTION_OPTIONS, verb=verb, names=names)
    share = found.pop("with", None)
    if share is not None:
        part = ActionPart(
            maneuver=part.maneuver,
            target=part.target,
            talent=part.talent,
            tn=part.tn,
            share=int(share[0]),
        )
    return part, found


def _character(cursor: Cursor, *, verb: str, maneuver: str, names: Names) -> str:
    target = cursor.take_name(names.characters, names=names, stop=_ACTION_STOPS, kind="character")
    if not target:
        raise Reject(MissingTarget(tag="", verb=verb, maneuver=maneuver, what="character"))
    return target


def _attack(cursor: Cursor, *, verb: str, names: Names) -> ActionPart:
    target = _character(cursor, verb=verb, maneuver="attack", names=names)
    return ActionPart(maneuver=Maneuver.ATTACK, target=target)


def _restrain(cursor: Cursor, *, verb: str, names: Names) -> ActionPart:
    target = _character(cursor, verb=verb, maneuver="restrain", names=names)
    return ActionPart(maneuver=Maneuver.RESTRAIN, target=target)


def _escape(cursor: Cursor, *, verb: str, names: Names) -> ActionPart:
    return ActionPart(maneuver=Maneuver.ESCAPE)


def _feat(cursor: Cursor, *, verb: str, names: Names) -> ActionPart:
    if cursor.peek_word() == "vs":
        cursor.take_word()
        return ActionPart(maneuver=Maneuver.FEAT, tn=cursor.take_count(verb=verb, option="vs"))
    target = cursor.take_name(names.features, names=names, stop=_ACTION_STOPS, kind="feature")
    if not target:
        raise Reject(MissingTarget(tag="", verb=verb, maneuver="feat", what="feature"))
    return ActionPart(maneuver=Maneuver.FEAT, target=target)


def _use(cursor: Cursor, *, verb: str, names: Names) -> ActionPart:
    talent = cursor.take_name(names.talents, names=names, stop=_ACTION_STOPS, kind="talent")
    if not talent:
        raise Reject(MissingTarget(tag="", verb=verb, maneuver="use", what="talent"))
    cursor.expect("on", verb=verb, missing="on TARGET")
    target = _character(cursor, verb=verb, maneuver="use", names=names)
    return ActionPart(maneuver=Maneuver.USE, talent=talent, target=target)


_PART_READERS = {
    Maneuver.ATTACK: _attack,
    Maneuver.RESTRAIN: _restrain,
    Maneuver.ESCAPE: _escape,
    Maneuver.FEAT: _feat,
    Maneuver.USE: _use,
}


# The verbs of a Distat scene, their readers and their aliases (`[p: …]`, `[m: …]`).
VERBS: frozenset[str] = frozenset({"move", "physical", "mental", "identify"})
# reader(body, *, source, names) -> its tag; raises cursor.Reject with the problem that stops it
READERS: Mapping[str, Callable[..., MoveTag | ActionTag | IdentifyTag]] = {
    "move": read_move, "physical": functools.partial(read_action, "physical"),
    "mental": functools.partial(read_action, "mental"), "identify": read_identify,
}  # fmt: skip
ALIASES: dict[str, str] = {"p": "physical", "m": "mental"}
# The words that may stand before a name in a colonless bracket (`[attack Goblin Brute]`)
LEAD_WORDS: frozenset[str] = frozenset(maneuver.value for maneuver in Maneuver)


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


def _action(tag: ActionTag) -> str:
    bonus = [f"bonus {tag.bonus}"] if tag.bonus else []
    body = "; ".join(_part(part) for part in tag.parts)
    return bracket("physical" if tag.stat == "body" else "mental", body, bonus, tag.as_name)


def _move(tag: MoveTag) -> str:
    stat: list[str] = [tag.stat] if tag.stat is not None else []
    return bracket("move", tag.target or "away", stat, tag.as_name)


# the canonical text of each tag kind (pbp.tags.format), and what it means (SPEC §2)
FORMATS: Mapping[type, Callable[[Any], str]] = {
    MoveTag: _move,
    ActionTag: _action,
    IdentifyTag: lambda tag: bracket("identify", tag.target, [], tag.as_name),
}
MEANINGS: Mapping[type, str] = {
    MoveTag: "movement: join the target's group (or stand alone)",
    ActionTag: "opposed or stat check(s) with the action",
    IdentifyTag: "identify the target's latest talent (uses the move)",
}
