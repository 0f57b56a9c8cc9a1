"""A pure function's last answers, kept for the values they were asked about: the engine asks
the same question of one frozen value several times (the turn board of the state a step starts
from, then of the one it left, which the thread's next step starts from; a ruleset's view of
one roster, once for every check of a post), and the answer depends on that value alone.

Only the very objects asked about are answered from the keep (``is``, never ``==``): they are
held, so no other object can take their place (nor their ``id``), and frozen, so their answers
cannot change. The answers of the last ``KEPT`` values asked about are kept, the oldest
forgotten first. That many: a running bot steps its threads in turn, and the state one of
them starts from is the one it left a poll of each other thread ago (with four kept, as
before, a bot of 50 threads computed every turn board, scene view and list of those out of
play twice a step). Safe when threads share it: at worst, an answer is computed again."""

from __future__ import annotations

import functools
from collections.abc import Callable
from contextlib import suppress
from typing import TypeVar

Value = TypeVar("Value")
Answer = TypeVar("Answer")


KEPT = 256  # answers kept by each function (their values held: mostly a bot's current states)


def keeps_last_answer(function: Callable[[Value], Answer]) -> Callable[[Value], Answer]:
    """``function`` (of one frozen value, pure) with its last answers kept for those values."""
    kept: dict[int, tuple[object, object]] = {}  # id of the value -> (the value, its answer)

    @functools.wraps(function)
    def answer(value: Value) -> Answer:
        found = kept.get(id(value))
        if found is not None and found[0] is value:
            return found[1]  # type: ignore[return-value]
        answered = function(value)
        if len(kept) >= KEPT:
            with suppress(RuntimeError, StopIteration, KeyError):  # (another thread's change)
                del kept[next(iter(kept))]
        kept[id(value)] = (value, answered)
        return answered

    return answer
