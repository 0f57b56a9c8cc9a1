"""A small scanner over the body of one tag: words, numbers, names and options.

Readers raise ``Reject`` with a problem (positions filled in later by the post reader); a tag
is either read whole or rejected whole.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace

from pbp.errors import Problem
from pbp.tags.names import resolve_name
from pbp.tags.problems import BadNumber, IncompleteTag

SEPARATORS = ",|/"
_WORD = re.compile(r"[^\s,|/;]+")
_COUNT = re.compile(r"\+?\d{1,6}")
_SIGNED = re.compile(r"[+-]\d{1,6}")


class Reject(Exception):  # control flow inside the reader, never escapes it
    """The tag cannot be read; ``problem`` says why."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.code)
        self.problem = problem


@dataclass(frozen=True, slots=True, kw_only=True)
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
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def skip_separators(self) -> None:
        """Move past white space and option separators."""
        while self.pos < len(self.text) and (
            self.text[self.pos].isspace() or self.text[self.pos] in SEPARATORS
        ):
            self.pos += 1

    def at_end(self) -> bool:
        """Whether only white space and separators are left."""
        return not self.text[self.pos :].strip(" " + SEPARATORS)

    def peek_word(self) -> str:
        """The next word, lower-cased, or "" at a separator or the end."""
        self.skip_space()
        found = _WORD.match(self.text, self.pos)
        return found.group().lower() if found else ""

    def take_word(self) -> str:
        """The next word as written ("" at a separator or the end)."""
        self.skip_space()
        found = _WORD.match(self.text, self.pos)
        if not found:
            return ""
        self.pos = found.end()
        return found.group()

    def take_words(self, stop: Collection[str], *, signed_stops: bool = False) -> str:
        """Words up to a stop word, a separator or the end, as written ("" if none)."""
        self.skip_space()
        start = end = self.pos
        while True:
            word = self.peek_word()
            if not word or word in stop or (signed_stops and is_signed(word)):
                break
            self.take_word()
            end = self.pos
        self.pos = end
        return self.text[start:end]

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
        exact = self._exact_name(candidates)
        start = self.pos
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

    def _exact_name(self, candidates: Sequence[str]) -> str:
        best = ""
        for name in candidates:
            end = self.pos + len(name)
            if len(name) <= len(best) or self.text[self.pos : end].lower() != name.lower():
                continue
            if end == len(self.text) or not _WORD.match(self.text[end]):
                best = name
        return best


def _bad(*, verb: str, option: str, value: str, expected: str) -> Problem:
    return BadNumber(tag="", verb=verb, option=option, value=value, expected=expected)
