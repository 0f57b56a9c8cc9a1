"""The streamed writer writes exactly what ``json.dumps(indent=1, ensure_ascii=False)`` does,
an iterator as the list it yields."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from pbp.services.streamed_json import write_streamed

# JSON values as a ledger holds them, with the characters that could break a layout: newlines,
# quotes, backslashes, controls, non-ASCII, U+2028
TEXT = st.text(alphabet=st.sampled_from(list('ab "\\\n\t\x00\x1b\x85é⚔\u2028{}[],:')), max_size=8)
LEAVES = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | TEXT
VALUES = st.recursive(
    LEAVES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12,
)


def _streamed(obj: dict[str, Any]) -> str:
    out: list[str] = []
    write_streamed(obj, out.append)
    return "".join(out)


def _expected(obj: dict[str, Any]) -> str:
    return json.dumps(
        {k: list(v) if isinstance(v, tuple) else v for k, v in obj.items()},
        indent=1,
        ensure_ascii=False,
    )


@given(st.dictionaries(TEXT, VALUES | st.lists(VALUES, max_size=4).map(tuple), max_size=5))
def test_the_same_text_as_json_dumps(obj: dict[str, Any]) -> None:
    streamed = {k: iter(v) if isinstance(v, tuple) else v for k, v in obj.items()}
    assert _streamed(streamed) == _expected(obj)


def test_an_empty_object_and_an_empty_list() -> None:
    assert _streamed({}) == "{}"
    assert _streamed({"rounds": iter([]), "x": []}) == json.dumps({"rounds": [], "x": []}, indent=1)


def test_a_later_iterator_yields_what_an_earlier_one_filled() -> None:
    seen: list[int] = []

    def rounds() -> Any:
        for n in (1, 2):
            seen.append(n)
            yield {"number": n}

    def after() -> Any:
        yield from seen

    assert json.loads(_streamed({"rounds": rounds(), "rejected": after()})) == {
        "rounds": [{"number": 1}, {"number": 2}],
        "rejected": [1, 2],
    }


# every key and number json writes in its own way: NaN and the infinities, keys that are not
# strings (json writes them as strings), subclasses of str, int and float
KEYS = TEXT | st.integers() | st.floats() | st.booleans() | st.none()
NUMBERS = st.floats() | st.integers() | st.sampled_from([True, False])
ODD = st.recursive(
    NUMBERS | TEXT | st.none(),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.lists(inner, max_size=3).map(tuple)
        | st.dictionaries(KEYS, inner, max_size=3)
    ),
    max_leaves=10,
)


@given(ODD)
def test_each_value_written_as_json_dumps_writes_it(value: Any) -> None:
    assert _streamed({"x": value}) == json.dumps({"x": value}, indent=1, ensure_ascii=False)


def test_values_json_refuses_are_refused_as_json_refuses_them() -> None:
    circular: list[Any] = []
    circular.append(circular)
    for value, error in (({1, 2}, TypeError), ({(1, 2): 3}, TypeError), (circular, ValueError)):
        try:
            json.dumps(value, indent=1)
        except error as expected:
            said = str(expected)
        else:
            raise AssertionError(f"json took {value!r}")
        try:
            _streamed({"x": value})
        except error as got:
            assert str(got) == said
        else:
            raise AssertionError(f"the writer took {value!r}")


class _Name(str):
    pass


def test_subclasses_of_plain_values_are_written_as_their_plain_values() -> None:
    import enum

    class Level(enum.IntEnum):
        HIGH = 3

    value = {_Name("who"): [_Name("Aria"), Level.HIGH, 2.5, float("nan"), float("-inf")]}
    assert _streamed({"x": value}) == json.dumps({"x": value}, indent=1, ensure_ascii=False)
