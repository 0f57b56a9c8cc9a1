"""Dice notation in ``[roll: …]`` (SPEC §2.3): checked, with its limits, before a tag is read.

The notation's parser loads with the first notation read: a thread whose posts hold none
never needs it."""

from __future__ import annotations

from pbp.tags.cursor import Reject
from pbp.tags.problems import BadDice


def check_notation(expression: str) -> str:
    """The canonical notation (``2D6 + 3`` -> ``2d6+3``), or a rejection saying what is wrong."""
    from pbp.rules.dice.notation import NotationError, format_notation, parse_notation

    try:
        return format_notation(parse_notation(expression))
    except NotationError as error:
        problem = BadDice(
            tag="", expression=expression, cause=error.code, expected=error.expected,
            position=error.position,
        )  # fmt: skip
        raise Reject(problem) from None
