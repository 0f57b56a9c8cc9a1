"""A new thread of a campaign: each ruleset's state comes along as a new scene finds it."""

from __future__ import annotations

from datetime import timedelta

from engine_helpers import BOT, make_campaign

from pbp.engine.reload import carry_over
from pbp.engine.step import initial_state
from pbp.rulesets.abstract.engine.model import AbstractState, Task
from pbp.rulesets.d20.engine.model import D20State
from pbp.rulesets.d20.rules.conditions import Conditions
from pbp.rulesets.markhor.engine.model import MarkhorState
from pbp.rulesets.markhor.rules.pools import Pools
from pbp.tags.model import SceneKind


def test_a_new_thread_keeps_pools_spent_banks_and_injuries_and_starts_a_fresh_scene() -> None:
    campaign = make_campaign()
    old = initial_state(campaign, bot=BOT, ack="errors")
    old = old.with_slot(D20State(
        pressure=True, pool_spent=(("Aria", 2),),
        conditions=(("Aria", Conditions(injury=1, movement=2)), ("Bram", Conditions(check=1))),
    ))  # fmt: skip
    old = old.with_slot(AbstractState(
        interval=timedelta(hours=1), tasks=(Task(name="Breach the gate", dc=15),),
        banks=(("Aria", 5),),
    ))  # fmt: skip
    old = old.with_slot(MarkhorState(mode="battle", pools=(("Aria", Pools(hp=3, wp=1)),)))
    new = carry_over(old, campaign=campaign, bot=BOT, ack="errors")
    # RULES A8: the pool stays spent; RULES A10: an injury lasts, the scene's other tracks end
    assert new.slot(D20State) == D20State(
        pool_spent=(("Aria", 2),), conditions=(("Aria", Conditions(injury=1)),)
    )
    # RULES E6, E11: the banks belong to the characters; the encounter and its tasks do not
    assert new.slot(AbstractState) == AbstractState(banks=(("Aria", 5),))
    # RULES M8: a fight's pools are dismissed with its scene
    assert new.slot(MarkhorState) == MarkhorState.fresh(campaign.ruleset)
    assert new.scene_kind is campaign.ruleset is SceneKind.DISTAT
