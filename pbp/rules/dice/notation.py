"""Dice notation: a small grammar of our own, its AST, its canonical text and its evaluation.

Grammar (case-insensitive; spaces are allowed around ``+``/``-`` and before a keep/drop)::

    notation  := ["+" | "-"] term (("+" | "-") term)*
    term      := dice | NUMBER
    dice      := [NUMBER] "d" (NUMBER | "%") ["!"] [select]
    select    := ("kh" | "kl" | "dh" | "dl") NUMBER

``NdS`` rolls N dice of S sides (N defaults to 1, ``d%`` is ``d100``). ``!`` explodes: a die that
shows its maximum is rolled again and added, at most 20 times per die. ``khK``/``klK`` keep the K
highest/lowest dice, ``dhK``/``dlK`` drop them (after explosions: an exploded die counts as one
die with the sum of its rolls). Limits against hostile expressions (ARCHITECTURE practice 5):
at most 100 characters, 10 terms, 100 dice in all, 1000 sides, constants up to 10000.

Positions in :class:`NotationError` count characters of the text from 0.
The AST and evaluation live in :mod:`pbp.rules.dice.expression`; this module re-exports them.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbp.errors import PbpError
from pbp.rules.dice.expression import (
    MAX_CONSTANT,
    MAX_DICE,
    MAX_SIDES,
    MAX_TERMS,
    MAX_TEXT,
    Constant,
    ConstantResult,
    DiceResult,
    DiceTerm,
    DiceTermResult,
    DieResult,
    Notation,
    Selection,
    SelectionKind,
    Term,
    TermResult,
    bounds,
    evaluate,
    format_notation,
)

__all__ = [
    "MAX_CONSTANT",
    "MAX_DICE",
    "MAX_SIDES",
    "MAX_TERMS",
    "MAX_TEXT",
    "Constant",
    "ConstantResult",
    "DiceResult",
    "DiceTerm",
    "DiceTermResult",
    "DieResult",
    "Notation",
    "NotationError",
    "Selection",
    "SelectionKind",
    "Term",
    "TermResult",
    "bounds",
    "evaluate",
    "format_notation",
    "parse_notation",
]


class NotationError(PbpError):
    """Dice notation that cannot be used.

    ``text`` is the notation as given, ``position`` the 0-based index where reading stopped,
    ``expected`` what would have been right there (for a limit, the limit: "at most 100 dice in
    all"). ``code`` names the cause and its reply template: ``notation_syntax`` (not the
    grammar), ``notation_limit`` (over a limit against hostile input) or ``notation_invalid``
    (a number out of range, such as ``0d6`` or ``2d6kh3``).
    """

    def __init__(self, *, text: str, position: int, expected: str, code: str) -> None:
        self.text = text
        self.position = position
        self.expected = expected
        self.code = code
        super().__init__(self.__str__())

    def __str__(self) -> str:
        return f"dice notation {self.text!r} at position {self.position}: expected {self.expected}"


_SELECT_WORDS = {kind.value: kind for kind in SelectionKind}


@dataclass(slots=True)
class _Reader:
    """A cursor over the text: the parser's only state."""

    text: str
    pos: int = 0
    dice: int = 0

    def fail(self, expected: str, *, code: str = "notation_syntax", at: int | None = None) -> None:
        raise NotationError(
            text=self.text, position=self.pos if at is None else at, expected=expected, code=code
        )

    def skip_spaces(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self, size: int = 1) -> str:
        return self.text[self.pos : self.pos + size].lower()

    def number(self) -> int | None:
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] in "0123456789":
            self.pos += 1
        return int(self.text[start : self.pos]) if self.pos > start else None


def parse_notation(text: str) -> Notation:
    """Read dice notation (see the module docstring) into a :class:`Notation`.

    Raises :class:`NotationError` with the position and what was expected.
    """
    reader = _Reader(text=text)
    if len(text) > MAX_TEXT:
        reader.fail(f"at most {MAX_TEXT} characters", code="notation_limit", at=MAX_TEXT)
    terms: list[Term] = []
    reader.skip_spaces()
    sign = _sign(reader)
    while True:
        reader.skip_spaces()
        if len(terms) == MAX_TERMS:
            reader.fail(f"at most {MAX_TERMS} terms", code="notation_limit")
        terms.append(_term(reader, negative=sign < 0))
        reader.skip_spaces()
        if reader.pos == len(text):
            return Notation(terms=tuple(terms))
        sign = _sign(reader)
        if sign == 0:
            reader.fail("'+', '-', a keep/drop (kh, kl, dh, dl) or the end")


def _sign(reader: _Reader) -> int:
    match reader.peek():
        case "+":
            reader.pos += 1
            return 1
        case "-":
            reader.pos += 1
            return -1
        case _:
            return 0


def _term(reader: _Reader, *, negative: bool) -> Term:
    start = reader.pos
    count = reader.number()
    if reader.peek() != "d":
        if count is None:
            reader.fail("a number or dice such as 2d6")
        assert count is not None
        if count > MAX_CONSTANT:
            reader.fail(f"a number up to {MAX_CONSTANT}", code="notation_limit", at=start)
        return Constant(value=count, negative=negative)
    return _dice(reader, start=start, count=1 if count is None else count, negative=negative)


def _dice(reader: _Reader, *, start: int, count: int, negative: bool) -> DiceTerm:
    if count < 1:
        reader.fail("at least 1 die", code="notation_invalid", at=start)
    reader.dice += count
    if reader.dice > MAX_DICE:
        reader.fail(f"at most {MAX_DICE} dice in all", code="notation_limit", at=start)
    reader.pos += 1  # the "d"
    sides = _sides(reader)
    explode = reader.peek() == "!"
    if explode:
        if sides < 2:
            reader.fail("a die of at least 2 sides to explode", code="notation_invalid")
        reader.pos += 1
    return DiceTerm(
        count=count,
        sides=sides,
        explode=explode,
        selection=_selection(reader, count=count),
        negative=negative,
    )


def _sides(reader: _Reader) -> int:
    at = reader.pos
    if reader.peek() == "%":
        reader.pos += 1
        return 100
    sides = reader.number()
    if sides is None:
        reader.fail("the number of sides (such as d6) or %")
    assert sides is not None
    if sides > MAX_SIDES:
        reader.fail(f"at most {MAX_SIDES} sides", code="notation_limit", at=at)
    if sides < 1:
        reader.fail("at least 1 side", code="notation_invalid", at=at)
    return sides


def _selection(reader: _Reader, *, count: int) -> Selection | None:
    before = reader.pos
    reader.skip_spaces()
    kind = _SELECT_WORDS.get(reader.peek(2))
    if kind is None:
        reader.pos = before
        return None
    at = reader.pos
    reader.pos += 2
    reader.skip_spaces()
    number = reader.number()
    if number is None:
        reader.fail(f"how many dice to {kind.verb} after {kind.value}")
    assert number is not None
    low, high = kind.allowed(count)
    if high < low:
        reader.fail(f"at least 2 dice to {kind.verb} from", code="notation_invalid", at=at)
    if not low <= number <= high:
        reader.fail(f"{kind.value} {low} to {high} of {count} dice", code="notation_invalid", at=at)
    return Selection(kind=kind, count=number)
