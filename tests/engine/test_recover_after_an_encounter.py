"""RULES D16 step 3 (RULES §7.7 "Spending bonus points at a short rest"): after the GM's
`!encounter end` and before the next round's first action, a player spends their character's
bonus points, 2 a point of damage (`!recover Aria body 2` spends 4 to remove 2 Body damage);
refused with the reason otherwise."""

from __future__ import annotations

from typing import Any

from engine_helpers import thread

from pbp.rulesets.distat import rules as distat
from pbp.rulesets.distat.engine.model import own

# Aria: Body 5, bonus pool 2 on the sheet; the GM adds 2 and deals her 3 Body damage
HURT = ("post", "g0", "gm_sam", 0, "!group Aria, Goblin\n!damage Aria body 3\n!bonus Aria +2")
END = ("post", "g1", "gm_sam", 1, "!encounter end")


def _aria(run: Any) -> Any:
    return distat.view(own(run.state.round.base), "Aria")


def _said(run: Any, post_id: str) -> str:
    return next(v.text for k, v in run.posted.items() if k.endswith(post_id))


def test_D16_step_3_bonus_points_recover_damage_after_the_encounter_ends() -> None:
    run = thread([HURT, END])
    before = _aria(run)
    run = thread([HURT, END, ("post", "p1", "alice", 2, "!recover Aria body 2")])
    after = _aria(run)
    assert (before.body.damage - after.body.damage, before.bonus_pool - after.bonus_pool) == (2, 4)
    said = _said(run, "p1")
    assert "**Aria** spends 4 bonus points to recover 2 Body damage" in said, said


def test_D16_step_3_is_refused_before_the_encounter_ends() -> None:
    run = thread([HURT, ("post", "p1", "alice", 1, "!recover Aria body 1")])
    assert "after the GM ends an encounter" in _said(run, "p1")
    assert _aria(run).bonus_pool == 2  # nothing spent (the GM's +2 acts at the close)


def test_D16_step_3_is_refused_once_someone_has_acted_in_the_next_round() -> None:
    run = thread(
        [
            HURT,
            END,
            ("post", "p1", "bob", 2, "[mental: attack Goblin]"),
            ("post", "p2", "alice", 3, "!recover Aria body 1"),
        ]
    )
    assert "before anyone acts in the next round" in _said(run, "p2")


def test_D16_step_3_a_player_spends_only_their_own_characters_points() -> None:
    run = thread([HURT, END, ("post", "p1", "bob", 2, "!recover Aria body 1")])
    assert "Aria is not your character" in _said(run, "p1")


def test_D16_step_3_says_what_is_possible_when_asked_for_too_much() -> None:
    run = thread([HURT, END, ("post", "p1", "alice", 2, "!recover Aria body 3")])
    said = _said(run, "p1")
    assert "costs 2 bonus points a point of damage: 6 points" in said, said
    assert "`!recover Aria body 2`" in said


def test_D16_step_3_the_gm_may_spend_for_a_character() -> None:
    run = thread([HURT, END, ("post", "g2", "gm_sam", 2, "!recover Aria body 1")])
    assert "spends 2 bonus points to recover 1 Body damage" in _said(run, "g2")
