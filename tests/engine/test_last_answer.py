"""A pure function's last answer is kept for the very value it was asked about, never for an
equal one, and the answers stay those of the function."""

from __future__ import annotations

from dataclasses import dataclass

from pbp.engine.last_answer import KEPT, keeps_last_answer


@dataclass(frozen=True)
class Round:
    posts: tuple[str, ...]


def test_the_same_value_is_answered_once_an_equal_one_anew() -> None:
    asked: list[Round] = []

    @keeps_last_answer
    def count(value: Round) -> int:
        asked.append(value)
        return len(value.posts)

    one = Round(posts=("a", "b"))
    assert [count(one), count(one)] == [2, 2]
    assert len(asked) == 1
    twin = Round(posts=("a", "b"))
    assert count(twin) == 2
    assert len(asked) == 2 and asked[1] is twin


def test_values_asked_in_turn_each_get_their_own_answer() -> None:
    @keeps_last_answer
    def first(value: Round) -> str | None:
        return value.posts[0] if value.posts else None

    a, b, empty = Round(posts=("a",)), Round(posts=("b",)), Round(posts=())
    assert [first(v) for v in (a, b, a, empty, empty, b)] == ["a", "b", "a", None, None, "b"]


def test_the_last_few_values_asked_in_turn_are_each_answered_once() -> None:
    asked: list[Round] = []

    @keeps_last_answer
    def count(value: Round) -> int:
        asked.append(value)
        return len(value.posts)

    base, now = Round(posts=("a",)), Round(posts=("a", "b"))
    assert [count(v) for v in (base, now, base, now, base)] == [1, 2, 1, 2, 1]
    assert asked == [base, now]  # the round's first scene and the scene now, in turn: kept
    others = [Round(posts=("x",) * n) for n in range(3, 3 + KEPT)]
    for other in others:
        count(other)
    assert len(asked) == 2 + KEPT
    count(base)  # pushed out by as many newer values as are kept: computed again
    assert len(asked) == 3 + KEPT and asked[-1] is base
