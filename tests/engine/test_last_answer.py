"""A pure function's last answer is kept for the very value it was asked about, never for an
equal one, and the answers stay those of the function."""

from __future__ import annotations

from dataclasses import dataclass

from pbp.engine.last_answer import keeps_last_answer


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
