"""A pure function's last answer, kept for the value it was asked about: the engine asks the
same question of one frozen value several times in a row (the turn board of the state a step
starts from, then of the one it left, which the next step starts from; a ruleset's view of one
roster, once for every check of a post), and the answer depends on that value alone.

Only the very objects last asked about are answered from the keep (``is``, never ``==``): they
are held, so no other object can take their place, and frozen, so their answers cannot change.
The last ``KEPT`` answers are kept, newest first, swapped as one tuple: safe when threads share
it (at worst, computed again). More than one: a step asks of the round's first scene and of the
scene as it stands now in turn (the checks of a post, then the examples of its reply), and one
answer kept was one computed again at every other question (half of Distat's scene views of a
replay were made again)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

Value = TypeVar("Value")
Answer = TypeVar("Answer")


KEPT = 4  # answers kept by each function


def keeps_last_answer(function: Callable[[Value], Answer]) -> Callable[[Value], Answer]:
    """``function`` (of one frozen value, pure) with its last answers kept for those values."""
    kept: list[tuple[tuple[object, object], ...]] = [()]

    @functools.wraps(function)
    def answer(value: Value) -> Answer:
        pairs = kept[0]  # (read once: another thread may swap it meanwhile)
        for asked, answered in pairs:
            if asked is value:
                return answered  # type: ignore[return-value]
        found = function(value)
        kept[0] = ((value, found), *pairs[: KEPT - 1])
        return found

    return answer
