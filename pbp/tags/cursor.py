"""A small scanner over the body of one tag: words, numbers, names and options.

Readers raise ``Reject`` with a problem (positions filled in later by the post reader); a tag
is either read whole or rejected whole.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Sequence

from pbp.errors import Problem
from pbp.tags.names import resolve_name
from pbp.tags.problems import BadNumber, IncompleteTag
from pbp.values import frozen_value, replace

SEPARATORS = ",|/"
_BLANKS = " " + SEPARATORS
_WORD = re.compile(r"[^\s,|/;]+")
_SPACE = re.compile(r"\s*")
_SPACED_WORD = re.compile(r"\s*([^\s,|/;]*)")  # always matches: the word may be empty
_SPACE_OR_SEPARATOR = re.compile(r"[\s,|/]*")
_COUNT = re.compile(r"\+?\d{1,6}")
_SIGNED = re.compile(r"[+-]\d{1,6}")


class Reject(Exception):  # control flow inside the reader, never escapes it
    """The tag cannot be read; ``problem`` says why."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.code)
        self.problem = problem


@frozen_value
class Names:
    """The names a tag may use; ``known`` is False when the reader has none at all."""

    characters: tuple[str, ...] = ()
    features: tuple[str, ...] = ()
    talents: tuple[str, ...] = ()
    tasks: tuple[str, ...] = ()

    @property
    def known(self) -> bool:
        """Whether there are names to match against (else names are read as written)."""
        return bool(self.characters or self.features or self.talents or self.tasks)


def is_signed(word: str) -> bool:
    """``+3`` or ``-2``."""
    return _SIGNED.fullmatch(word) is not None


class Cursor:
    """Reads one tag body from left to right."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def skip_space(self) -> None:
        """Move past white space."""
        self.pos = _SPACE.match(self.text, self.pos).end()  # type: ignore[union-attr]

    def skip_separators(self) -> None:
        """Move past white space and option separators."""
        self.pos = _SPACE_OR_SEPARATOR.match(self.text, self.pos).end()  # type: ignore[union-attr]

    def at_end(self) -> bool:
        """Whether only white space and separators are left."""
        return self.pos >= len(self.text) or not self.text[self.pos :].strip(_BLANKS)

    def peek_word(self) -> str:
        """The next word, lower-cased, or "" at a separator or the end."""
        found = _SPACED_WORD.match(self.text, self.pos)
        self.pos = found.start(1)  # type: ignore[union-attr]
        return found.group(1).lower()  # type: ignore[union-attr]

    def take_word(self) -> str:
        """The next word as written ("" at a separator or the end)."""
        found = _SPACED_WORD.match(self.text, self.pos)
        self.pos = found.end()  # type: ignore[union-attr]
        return found.group(1)  # type: ignore[union-attr]

    def take_words(self, stop: Collection[str], *, signed_stops: bool = False) -> str:
        """Words up to a stop word, a separator or the end, as written ("" if none)."""
        self.skip_space()
        text, start = self.text, self.pos
        end = start
        while True:
            found = _SPACED_WORD.match(text, end)
            word = found.group(1).lower()  # type: ignore[union-attr]
            if not word or word in stop or (signed_stops and is_signed(word)):
                break
            end = found.end()  # type: ignore[union-attr]
        self.pos = end
        return text[start:end]

    def take_count(self, *, verb: str, option: str) -> int:
        """A whole number (``3`` or ``+3``)."""
        word = self.take_word()
        if _COUNT.fullmatch(word) is None:
            raise Reject(_bad(verb=verb, option=option, value=word, expected="a whole number"))
        return int(word)

    def take_signed(self, *, verb: str, option: str) -> int:
        """A modifier (``+3``, ``-2``; a bare ``3`` reads as ``+3``)."""
        word = self.take_word()
        if _SIGNED.fullmatch(word) is None and _COUNT.fullmatch(word) is None:
            raise Reject(_bad(verb=verb, option=option, value=word, expected="a modifier like +3"))
        return int(word)

    def expect(self, word: str, *, verb: str, missing: str) -> None:
        """Take ``word`` (case-insensitive) or reject the tag as incomplete."""
        if self.peek_word() != word:
            raise Reject(IncompleteTag(tag="", verb=verb, missing=missing))
        self.take_word()

    def take_name(
        self,
        candidates: Sequence[str],
        *,
        names: Names,
        stop: Collection[str],
        kind: str,
        single_word: bool = False,
    ) -> str:
        """A name: the longest exact name here, else the typed words resolved by prefix.

        ``single_word`` reads one word when no exact name matches (a name followed by more
        free words, as in ``vs Goblin Perception +3``). "" when nothing is there.
        """
        self.skip_space()
        exact = self.exact_name(candidates)
        start = self.pos
        if exact and self._ends_name(start + len(exact), stop):
            # the words typed stop where the name does: they are no longer than it
            self.pos = start + len(exact)
            return exact
        typed = self.take_word() if single_word else self.take_words(stop, signed_stops=True)
        if exact and (single_word or len(exact) >= len(typed)):
            self.pos = start + len(exact)
            return exact
        if not typed or not names.known:
            return typed
        found = resolve_name(typed, candidates=candidates)
        if isinstance(found, str):
            return found
        if exact:  # "Ogre quickly": the name is Ogre, and "quickly" is read as an option
            self.pos = start + len(exact)
            return exact
        raise Reject(replace(found, kind=kind))

    def _ends_name(self, end: int, stop: Collection[str]) -> bool:
        """Whether ``take_words`` would stop at ``end``: a separator, the end, a stop word or a
        modifier follows (the shortcut for the common case of an exact name)."""
        if end == len(self.text):
            return True
        word = _SPACED_WORD.match(self.text, end).group(1).lower()  # type: ignore[union-attr]
        return not word or word in stop or is_signed(word)

    def exact_name(self, candidates: Sequence[str]) -> str:
        """The longest candidate written here (the first of equal length), as a whole word."""
        return exact_name_at(self.text, self.pos, candidates)


def exact_name_at(text: str, pos: int, candidates: Sequence[str]) -> str:
    """The longest candidate written at ``pos`` of ``text`` (the first of equal length), as a
    whole word ("" if none)."""
    if text.isascii():  # most tags: one match of the roster's expression
        expression, named = _ascii_names(tuple(candidates))
        found = expression.match(text.lower(), pos) if expression is not None else None
        return named[found.group()] if found is not None else ""
    for length, lowered in _by_length(tuple(candidates)):
        end = pos + length
        name = lowered.get(text[pos:end].lower())
        # ``end`` may pass the text's end: lower-casing lengthens some letters (İ → i̇)
        if name is not None and (end >= len(text) or not _WORD.match(text[end])):
            return name
    return ""


@functools.lru_cache(maxsize=256)
def _by_length(candidates: tuple[str, ...]) -> tuple[tuple[int, dict[str, str]], ...]:
    """The candidates by length, longest first: lower-cased name -> the first name so written.

    A roster is read against many times; its names are lower-cased once.
    """
    groups: dict[int, dict[str, str]] = {}
    for name in candidates:
        if name:
            groups.setdefault(len(name), {}).setdefault(name.lower(), name)
    return tuple(sorted(groups.items(), reverse=True))


@functools.lru_cache(maxsize=256)
def _ascii_names(
    candidates: tuple[str, ...],
) -> tuple[re.Pattern[str] | None, dict[str, str]]:
    """What ``exact_name`` needs on ASCII text: an expression matching, longest first and as a
    whole word, every lower-cased name ASCII text can spell; and the name each one stands for.

    Lower-casing ASCII keeps its length, so a slice of ASCII text can equal only a lower-cased
    name that is ASCII and as long as the name (lower-casing never shortens a name).
    """
    named = {
        lowered: name
        for length, names in _by_length(candidates)
        for lowered, name in names.items()
        if len(lowered) == length and lowered.isascii()
    }
    if not named:
        return None, named
    spelled = "|".join(re.escape(lowered) for lowered in sorted(named, key=len, reverse=True))
    return re.compile(f"(?:{spelled})(?=[\\s,|/;]|\\Z)"), named


def _bad(*, verb: str, option: str, value: str, expected: str) -> Problem:
    return BadNumber(tag="", verb=verb, option=option, value=value, expected=expected)
