"""The closed posts' ids answer as a set would, and stay in few parts however long the thread:
adding a round's posts copies a few small sets, not every post of the thread."""

from __future__ import annotations

import itertools
import math
import pickle

from hypothesis import given
from hypothesis import strategies as st

from pbp.engine.post_ids import PostIds

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
