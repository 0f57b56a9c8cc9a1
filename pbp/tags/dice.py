"""Dice notation in ``[roll: …]`` (SPEC §2.3): checked before the tag is accepted.

The rules package's parser is used when it is there (``pbp.rules.dice.notation``); otherwise a
careful pattern: NdS terms, keep/drop highest or lowest, exploding ``!``, and ± constants.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable

from pbp.errors import PbpError
from pbp.tags.cursor import Reject
from pbp.tags.problems import BadDice

MAX_DICE = 100
MAX_SIDES = 1000
_TERM = r"(?:\d{0,3}d(?:\d{1,4}|%)(?:!)?(?:(?:kh|kl|dh|dl|k)\d{1,3})?|\d{1,6})"
_NOTATION = re.compile(rf"[+-]?{_TERM}(?:[+-]{_TERM})*")
_DICE = re.compile(r"(\d{0,3})d(\d{1,4}|%)")


def _rules_parser() -> Callable[[str], object] | None:
    try:
        module = importlib.import_module("pbp.rules.dice.notation")
    except ImportError:
        return None
    parser = getattr(module, "parse_notation", None)
    return parser if callable(parser) else None


def check_notation(expression: str) -> str:
    """The expression (spaces removed, lower case) if it is valid dice notation."""
    parser = _rules_parser()
    if parser is not None:
        try:
            parser(expression)
        except PbpError as error:
            raise Reject(BadDice(tag="", expression=expression, reason=str(error))) from None
        return expression
    if _NOTATION.fullmatch(expression) is None or "d" not in expression:
        raise Reject(BadDice(tag="", expression=expression, reason="not dice notation"))
    for count, sides in _DICE.findall(expression):
        if int(count or 1) > MAX_DICE or (sides != "%" and not 2 <= int(sides) <= MAX_SIDES):
            raise Reject(BadDice(tag="", expression=expression, reason="over the limits"))
    return expression
