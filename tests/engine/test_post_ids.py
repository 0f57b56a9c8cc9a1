"""The closed posts' ids answer as a set would, and stay in few parts however long the thread:
adding a round's posts copies a few small sets, not every post of the thread."""

from __future__ import annotations

import itertools
import math
import pickle

from hypothesis import given, settings
from hypothesis import strategies as st

from pbp.engine.post_ids import PACK_AT, PackedIds, PostIds

IDS = st.sets(st.sampled_from([f"p{n}" for n in range(60)]), max_size=12)
STEPS = st.lists(st.tuples(st.sampled_from(["close", "undo"]), IDS), max_size=40)


@given(STEPS, IDS)
def test_it_answers_as_a_set_would(steps: list[tuple[str, set[str]]], probe: set[str]) -> None:
    ids, model = PostIds(), frozenset[str]()
    for what, posts in steps:
        ids, model = (
            (ids | posts, model | posts) if what == "close" else (ids - posts, model - posts)
        )
        assert len(ids) == len(model) and frozenset(ids) == model
        assert all((p in ids) == (p in model) for p in probe)
        assert ids == PostIds((model,)) and hash(ids) == hash(PostIds((model,)))
        sizes = [len(part) for part in ids.parts]
        assert all(a >= 2 * b for a, b in itertools.pairwise(sizes))


def test_a_long_thread_stays_in_few_parts_and_copies_little() -> None:
    ids, copied = PostIds(), 0
    for number in range(3200):  # a round of ten posts closed 3,200 times
        ids = ids | {f"r{number}p{n}" for n in range(10)}
        copied += len(ids.parts[-1])  # the newest part is the one made anew
    assert len(ids) == 32000
    assert len(ids.parts) <= math.log2(32000) + 1
    assert copied <= 32000 * (math.log2(3200) + 2)  # a copy of all at each close: 51 M
    assert "r0p0" in ids and "r3199p9" in ids and "r3200p0" not in ids


def test_adding_ids_it_holds_or_taking_ids_it_lacks_changes_nothing() -> None:
    ids = PostIds() | {"p1", "p2"}
    assert (ids | {"p1"}) is ids and (ids - {"p9"}) is ids


def test_it_survives_a_snapshot() -> None:
    ids = PostIds() | {"p1"} | {"p2", "p3"}
    assert pickle.loads(pickle.dumps(ids)) == ids


MANY = st.sets(st.sampled_from([f"t1_{n:x}" for n in range(3000)]), min_size=5, max_size=300)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["close", "close", "undo"]), MANY), max_size=25))
def test_packed_parts_answer_as_a_set_would(steps: list[tuple[str, set[str]]]) -> None:
    ids, model = PostIds(), frozenset[str]()
    for what, posts in steps:
        ids, model = (
            (ids | posts, model | posts) if what == "close" else (ids - posts, model - posts)
        )
        assert len(ids) == len(model) and frozenset(ids) == model
        assert all((f"t1_{n:x}" in ids) == (f"t1_{n:x}" in model) for n in range(0, 3000, 7))
        assert 5 not in ids and "" not in ids
    assert pickle.loads(pickle.dumps(ids)) == ids


def test_a_long_threads_large_parts_are_packed() -> None:
    ids = PostIds()
    for number in range(3200):
        ids = ids | {f"r{number}p{n}" for n in range(10)}
    assert all(isinstance(part, PackedIds) for part in ids.parts if len(part) >= PACK_AT)
    assert sum(len(part) for part in ids.parts if isinstance(part, PackedIds)) > 31000
