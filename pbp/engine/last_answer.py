"""A pure function's last answer, kept for the value it was asked about: the engine asks the
same question of one frozen value several times in a row (the turn board of the state a step
starts from, then of the one it left, which the next step starts from; a ruleset's view of one
roster, once for every check of a post), and the answer depends on that value alone.

Only the very object last asked about is answered from the keep (``is``, never ``==``): it is
held, so no other object can take its place, and frozen, so its answer cannot change. One
answer kept, swapped as one tuple: safe when threads share it (at worst, computed again)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

Value = TypeVar("Value")
Answer = TypeVar("Answer")


def keeps_last_answer(function: Callable[[Value], Answer]) -> Callable[[Value], Answer]:
    """``function`` (of one frozen value, pure) with its last answer kept for that value."""
    last: list[tuple[object, object]] = [(object(), None)]

    @functools.wraps(function)
    def answer(value: Value) -> Answer:
        asked, answered = last[0]
        if asked is value:
            return answered  # type: ignore[return-value]
        found = function(value)
        last[0] = (value, found)
        return found

    return answer
