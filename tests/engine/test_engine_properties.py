"""Random threads: whatever players and the GM post, edit or delete, the engine holds up."""

from __future__ import annotations

import pytest
from engine_helpers import ledger, thread
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

AUTHORS = ["alice", "bob", "cara", "gm_sam", "stranger", "pbp_bot"]
TAGS = [
    "[physical: attack Goblin]",
    "[mental: attack Ogre]",
    "[move: Goblin]",
    "[move: away]",
    "[pass]",
    "[phisical: attack Goblin]",
    "[mental: attack Nobody]",
    "[p attack gob bonus 1]",
    "[physical: attack Goblin with 2; attack Ogre with 2]",
    "[identify: Ogre]",
    "[mental: attack Goblin | as Dax]",
    "[physical: restrain Aria | as Goblin]",
    "[physical: escape]",
    "[mental: feat vs 3]",
    "[move: Ogre, body]",
    "[roll eyes]",
    "> [move: Ogre]",
    "~~[pass]~~",
    "[mental: attack Bram | as Ogre]",
    "[physical: attack]",
]
COMMANDS = [
    "!close",
    "!undo",
    "!deadline 2h",
    "!deadline off",
    "!group Aria, Goblin",
    "!clsoe",
    "!damage Goblin body 1",
    "!heal Aria body 1",
    "!bonus Aria +1",
    "!void p1",
    "!npc Rat body 2 mind 1",
    "!encounter end medic Aria",
    "!rest night",
    "!status",
    "!help",
]

bodies = st.lists(st.sampled_from(TAGS + COMMANDS + ["Some prose."]), min_size=1, max_size=4).map(
    "\n".join
)
actions = st.one_of(
    st.tuples(st.just("post"), st.sampled_from(AUTHORS), bodies),
    st.tuples(st.just("edit"), st.integers(0, 20), bodies),
    st.tuples(st.just("delete"), st.integers(0, 20), st.just("")),
    st.tuples(st.just("tick"), st.just(""), st.just("")),
)


def _rows(script: list[tuple[str, object, str]]) -> list[tuple[object, ...]]:
    rows: list[tuple[object, ...]] = []
    posted = 0
    minute = 0.0
    for kind, who, body in script:
        minute += 37
        match kind:
            case "post":
                posted += 1
                rows.append(("post", f"p{posted}", who, minute, body))
            case "edit" | "delete" if posted:
                post_id = f"p{int(str(who)) % posted + 1}"
                rows.append((kind, post_id, None, minute, body or None))
            case "tick":
                rows.append(("tick", None, None, minute))
    return rows


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(actions, min_size=1, max_size=14))
def test_random_threads_never_raise_and_number_rounds_with_one_summary_each(
    script: list[tuple[str, object, str]],
) -> None:
    run = thread(_rows(script))
    data = ledger(run)
    rounds = data["rounds"]
    assert [r["number"] for r in rounds] == list(range(1, len(rounds) + 1))
    closed = [r for r in rounds if r["closed_by"] is not None]
    assert [r for r in rounds if r["closed_by"] is None] == rounds[len(closed) :][:1]
    for r in closed:
        summary = run.posted[f"summary-{r['number']}"].text
        assert summary == r["summary"]
        assert summary.count(f"Round {r['number']}: results") == 1
    assert not any(key.startswith("summary-") and int(key.split("-")[1]) > len(rounds)
                   for key in run.posted)  # fmt: skip
