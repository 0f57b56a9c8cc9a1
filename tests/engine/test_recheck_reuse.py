"""The close's check of every post (SPEC §4.3) keeps a post's verdicts only while what they were
read against is unchanged: the verdicts come out as a check from scratch would give them."""

from __future__ import annotations

from dataclasses import replace

from engine_helpers import Row, play

from pbp.engine.problems import ActionUsed
from pbp.engine.rounds import recheck
from pbp.engine.state import EngineState, PostRecord


def _verdicts(posts: tuple[PostRecord, ...]) -> list[tuple[str, object, object]]:
    return [(p.post_id, p.accepted, p.problems) for p in posts]


def _from_scratch(state: EngineState) -> list[tuple[str, object, object]]:
    assert state.round is not None
    forgot = replace(state.round, posts=tuple(replace(p, checked=None) for p in state.round.posts))
    return _verdicts(recheck(state, forgot).posts)


def _kept(state: EngineState) -> list[tuple[str, object, object]]:
    assert state.round is not None
    return _verdicts(recheck(state, state.round).posts)


OPEN: list[Row] = [
    ("post", "g0", "gm_sam", 0, "!group Aria, Goblin, Ogre"),
    ("post", "p1", "alice", 1, "[mental: attack Goblin]"),
    ("post", "p2", "alice", 2, "[mental: attack Ogre]"),  # the Mental action is taken
    ("post", "p3", "bob", 3, "[mental: attack Goblin]"),
]


def test_nothing_changed_keeps_every_verdict() -> None:
    state = play(OPEN).state
    assert state.round is not None
    assert all(p.checked is not None for p in state.round.posts)
    assert _kept(state) == _from_scratch(state)
    p2 = state.round.post("p2")
    assert p2 is not None and isinstance(p2.problems[0], ActionUsed)


def test_an_earlier_post_edited_checks_the_later_ones_again() -> None:
    state = play([*OPEN, ("edit", "p1", "alice", 4, "[physical: attack Goblin]")]).state
    assert state.round is not None
    kept = _kept(state)
    assert kept == _from_scratch(state)
    p2 = dict((post_id, (accepted, problems)) for post_id, accepted, problems in kept)["p2"]
    assert p2[0] and not p2[1]  # the Mental action is free again: p2 acts


def test_an_earlier_post_deleted_or_a_set_up_command_checks_them_again() -> None:
    for row in (
        ("delete", "p1", "alice", 4),
        ("post", "g1", "gm_sam", 4, "!group Aria, Bram, Goblin, Ogre"),
        ("post", "g1", "gm_sam", 4, "!npc Imp body 2 mind 1"),
    ):
        state = play([*OPEN, row]).state
        assert _kept(state) == _from_scratch(state), row
