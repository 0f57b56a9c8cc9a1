"""Skirmish and battle HP/WP (RULES M1), damage and casting (M2), healing (M3)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbp.rulesets.markhor.rules.errors import PoolRefused
from pbp.rulesets.markhor.rules.pools import (
    Pools,
    battle_pools,
    cast_cost,
    heal,
    skirmish_pools,
    take_damage,
)

# --- RULES M1: skirmish pools from the Constitution and Wisdom scores --------------------------


def test_m1_skirmish_pools_are_the_constitution_and_wisdom_scores() -> None:
    # RULES M1's example: a score of +3 gives 3
    assert skirmish_pools(constitution=3, wisdom=5) == Pools(hp=3, wp=5)


@pytest.mark.parametrize("score", [0, -2])
def test_m1_a_score_of_zero_or_below_still_gives_one_point(score: int) -> None:
    assert skirmish_pools(constitution=score, wisdom=score) == Pools(hp=1, wp=1)


def test_battle_pools_are_the_sheet_values_with_12_when_missing_and_3_at_least() -> None:
    assert battle_pools(hp=21, wp=15) == Pools(hp=21, wp=15)
    assert battle_pools(hp=None, wp=None) == Pools(hp=12, wp=12)
    assert battle_pools(hp=1, wp=-4) == Pools(hp=3, wp=3)


def test_pools_refuse_negative_values() -> None:
    with pytest.raises(ValueError):
        Pools(hp=-1, wp=2)


# --- RULES M2: damage takes HP, then WP; a cast costs 1 WP ------------------------------------


def test_m2_damage_takes_hp_first_then_wp_and_out_only_when_both_are_gone() -> None:
    pools = Pools(hp=2, wp=1)
    pools = take_damage(pools)
    assert pools == Pools(hp=1, wp=1) and not pools.out
    pools = take_damage(pools)
    assert pools == Pools(hp=0, wp=1) and not pools.out
    pools = take_damage(pools)
    assert pools == Pools(hp=0, wp=0) and pools.out
    assert take_damage(pools) == Pools(hp=0, wp=0)


def test_m2_a_large_hit_spills_from_hp_into_wp() -> None:
    assert take_damage(Pools(hp=2, wp=3), amount=4) == Pools(hp=0, wp=1)


def test_m2_a_cast_costs_one_wp_and_is_refused_at_zero_wp() -> None:
    assert cast_cost(Pools(hp=0, wp=2)) == Pools(hp=0, wp=1)
    with pytest.raises(PoolRefused) as refused:
        cast_cost(Pools(hp=4, wp=0))
    assert refused.value.code == "no_wp_to_cast"


def test_negative_damage_is_a_programming_error() -> None:
    with pytest.raises(ValueError):
        take_damage(Pools(hp=1, wp=1), amount=-1)


@settings(max_examples=300)
@given(hp=st.integers(0, 30), wp=st.integers(0, 30), amount=st.integers(0, 80))
def test_damage_never_goes_negative_and_takes_exactly_what_is_there(
    hp: int, wp: int, amount: int
) -> None:
    before = Pools(hp=hp, wp=wp)
    after = take_damage(before, amount=amount)
    assert after.hp >= 0 and after.wp >= 0
    assert before.total - after.total == min(amount, before.total)
    # WP is touched only once HP is gone
    assert after.wp == wp or after.hp == 0


# --- RULES M3: healing restores all HP, never to someone out ----------------------------------


def test_m3_healing_restores_all_hp_but_no_wp() -> None:
    full = skirmish_pools(constitution=4, wisdom=3)
    hurt = take_damage(cast_cost(full), amount=3)
    assert hurt == Pools(hp=1, wp=2)
    assert heal(hurt, full=full) == Pools(hp=4, wp=2)


def test_m3_healing_reaches_someone_whose_hp_is_gone_but_wp_is_left() -> None:
    full = Pools(hp=3, wp=2)
    assert heal(Pools(hp=0, wp=1), full=full) == Pools(hp=3, wp=1)


def test_m3_someone_out_cannot_be_healed_back_into_the_skirmish() -> None:
    with pytest.raises(PoolRefused) as refused:
        heal(Pools(hp=0, wp=0), full=Pools(hp=3, wp=2))
    assert refused.value.code == "out_cannot_heal"


def test_m1_the_formula_takes_a_minimum_and_points_per_score() -> None:
    from pbp.rulesets.markhor.rules.pools import SkirmishFormula

    formula = SkirmishFormula(minimum=2, per_point=3)
    assert skirmish_pools(constitution=2, wisdom=0, formula=formula) == Pools(hp=6, wp=2)
