"""Options after a tag's body: a closed set of words per verb (SPEC §2).

Each option word takes no argument (a flag), a whole number, a name, or one of a few words.
Options may be separated by ``,``, ``|``, ``/`` or nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum

from pbp.tags.cursor import Cursor, Names, Reject
from pbp.tags.dice import check_notation
from pbp.tags.problems import BadNumber, BadOption, DuplicateOption, MissingTarget
from pbp.values import frozen_value


class Arg(Enum):
    """What follows an option word."""

    FLAG = "flag"
    COUNT = "count"
    NAME = "name"  # a character
    CHOICE = "choice"
    DICE = "dice"  # a number or dice notation (``3``, ``2d6+1``), kept canonical


@frozen_value(kw_only=False)
class Option:
    """One option word: what it takes, the words it may take, whether it may repeat."""

    arg: Arg = Arg.FLAG
    choices: tuple[str, ...] = ()
    repeats: bool = False
    or_count: bool = False  # CHOICE that also takes a whole number (``spend 4`` / ``spend all``)


OptionTable = Mapping[str, Option]
OptionValue = bool | int | str
AS = Option(Arg.NAME)


def read_options(
    cursor: Cursor, table: OptionTable, *, verb: str, names: Names
) -> dict[str, list[OptionValue]]:
    """Every option to the end of the body; unknown words and repeats are problems."""
    found: dict[str, list[OptionValue]] = {}
    if cursor.pos >= len(cursor.text):  # most tags: no option at all
        return found
    cursor.skip_separators()
    if cursor.at_end():
        return found
    stop = frozenset(table)
    while True:
        cursor.skip_separators()
        if cursor.at_end():
            return found
        word = cursor.take_word()
        option = table.get(word.lower())
        if option is None:
            raise Reject(BadOption(tag="", verb=verb, option=word, allowed=tuple(table)))
        key = word.lower()
        if key in found and not option.repeats:
            raise Reject(DuplicateOption(tag="", verb=verb, option=key))
        value = _argument(cursor, option, verb=verb, key=key, names=names, stop=stop)
        found.setdefault(key, []).append(value)


def _argument(
    cursor: Cursor, option: Option, *, verb: str, key: str, names: Names, stop: frozenset[str]
) -> OptionValue:
    match option.arg:
        case Arg.FLAG:
            return True
        case Arg.COUNT:
            return cursor.take_count(verb=verb, option=key)
        case Arg.NAME:
            name = cursor.take_name(names.characters, names=names, stop=stop, kind="character")
            if not name:
                raise Reject(MissingTarget(tag="", verb=verb, maneuver=key, what="character"))
            return name
        case Arg.DICE:
            word = cursor.take_word()
            if not word:
                raise Reject(
                    BadNumber(
                        tag="",
                        verb=verb,
                        option=key,
                        value="",
                        expected="a number or dice, like 3 or 2d6",
                    )
                )
            return check_notation(word.lower())
        case Arg.CHOICE:
            word = cursor.take_word()
            if word.lower() in option.choices:
                return word.lower()
            if option.or_count and word.isdigit() and len(word) <= 6:
                return int(word)
            expected = " or ".join(option.choices + (("a number",) if option.or_count else ()))
            raise Reject(BadNumber(tag="", verb=verb, option=key, value=word, expected=expected))


def flag(found: Mapping[str, list[OptionValue]], key: str) -> bool:
    """Whether a flag option was given."""
    return key in found


def first_str(found: Mapping[str, list[OptionValue]], key: str) -> str | None:
    """The (string) argument of an option, or None."""
    values = found.get(key)
    return str(values[0]) if values else None


def first_int(found: Mapping[str, list[OptionValue]], key: str) -> int | None:
    """The (number) argument of an option, or None."""
    values = found.get(key)
    return int(values[0]) if values else None
