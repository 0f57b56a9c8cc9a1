"""Paying and banking action pips (RULES E4–E7, E9)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbp.rulesets.abstract.rules.payment import (
    PoolUse,
    auto,
    bank_best,
    least_waste,
    meets,
    spend,
    spend_all,
)

pools = st.lists(st.integers(1, 6), min_size=0, max_size=12)
# Sizes drawn evenly, so the brute-force comparisons see big pools as often as small ones.
sized_pools = st.integers(0, 12).flatmap(
    lambda size: st.lists(st.integers(1, 6), min_size=size, max_size=size)
)


def every_die(use: PoolUse) -> list[int]:
    return sorted([*use.paid, *use.banked, *use.discarded, *use.unused])


def brute_least_waste(dice: Sequence[int], need: int) -> tuple[int, ...] | None:
    """Every subset: least waste, then fewest dice, then the lowest dice (highest first)."""
    best: tuple[int, int, tuple[int, ...]] | None = None
    for size in range(len(dice) + 1):
        for subset in combinations(dice, size):
            if sum(subset) < need:
                continue
            chosen = tuple(sorted(subset, reverse=True))
            key = (sum(subset) - need, size, chosen)
            if best is None or key < best:
                best = key
    return None if best is None else best[2]


# RULES E4 -------------------------------------------------------------------------------------


def test_e4_meeting_the_dc_exactly_succeeds() -> None:
    assert meets(paid=12, opposition=0, dc=12)
    assert meets(paid=13, opposition=0, dc=12)
    assert not meets(paid=11, opposition=0, dc=12)


# RULES E5 -------------------------------------------------------------------------------------


def test_e5_worked_example_bank_the_two_sixes_discard_two_and_one_lose_the_four() -> None:
    use = bank_best([6, 6, 4, 2, 1])
    assert use.banked == (6, 6)
    assert use.banked_pips == 12
    assert use.discarded == (2, 1)
    assert use.unused == (4,)
    assert (use.paid, use.bank_used, use.pips_paid, use.wasted, use.target) == ((), 0, 0, 0, 0)


def test_e5_banking_does_not_depend_on_the_order_rolled() -> None:
    assert bank_best([1, 4, 6, 2, 6]) == bank_best([6, 6, 4, 2, 1])


def test_e5_an_even_pool_banks_half_and_discards_half() -> None:
    use = bank_best([3, 5, 1, 6])
    assert (use.banked, use.discarded, use.unused) == ((6, 5), (3, 1), ())


@given(pools)
def test_e5_bank_best_banks_the_top_half_for_as_many_discards(dice: list[int]) -> None:
    use = bank_best(dice)
    assert every_die(use) == sorted(dice)
    assert len(use.banked) == len(use.discarded) == len(dice) // 2
    assert len(use.unused) == len(dice) % 2
    assert use.banked_pips == sum(sorted(dice, reverse=True)[: len(dice) // 2])
    if use.banked:
        assert min(use.banked) >= max([*use.unused, *use.discarded])


# RULES E6 -------------------------------------------------------------------------------------


def test_e6_the_bank_pays_only_the_shortfall_and_the_rest_stays_banked() -> None:
    use = spend([3, 2], need=9, bank=10)
    assert use is not None
    assert (use.paid, use.bank_used, use.pips_paid, use.wasted) == ((3, 2), 4, 9, 0)
    assert 10 - use.bank_used == 6  # what stays in the bank for later intervals


def test_e6_dice_pay_first_because_the_bank_outlasts_the_interval() -> None:
    use = spend([6, 6], need=5, bank=100)
    assert use is not None
    assert (use.paid, use.bank_used, use.unused) == ((6,), 0, (6,))


def test_spend_is_none_when_dice_and_bank_fall_short() -> None:
    assert spend([3, 2], need=9, bank=3) is None
    assert spend([3, 2], need=9, bank=4) is not None


def test_spend_all_pays_every_die_and_the_whole_bank_without_waste() -> None:
    use = spend_all([2, 6, 3], bank=7)
    assert (use.paid, use.bank_used, use.pips_paid, use.target, use.wasted) == (
        (6, 3, 2),
        7,
        18,
        18,
        0,
    )


# RULES E7 -------------------------------------------------------------------------------------


def test_e7_worked_example_cost_12_with_three_fives_pays_all_three_and_wastes_three() -> None:
    assert least_waste([5, 5, 5], need=12) == (5, 5, 5)
    use = spend([5, 5, 5], need=12, bank=0)
    assert use is not None
    assert (use.paid, use.pips_paid, use.wasted, use.unused) == ((5, 5, 5), 15, 3, ())


def test_e7_least_waste_prefers_an_exact_payment_even_with_more_dice() -> None:
    assert least_waste([6, 6, 4, 2], need=8) == (6, 2)
    assert least_waste([6, 6, 3, 2], need=11) == (6, 3, 2)  # not 6+6: one pip wasted


def test_least_waste_ties_pay_with_the_lowest_dice_and_keep_the_high_ones() -> None:
    # 6+1, 5+2 and 4+3 all pay 7 with two dice: the documented tie-break keeps 6 and 5.
    assert least_waste([6, 5, 4, 3, 2, 1], need=7) == (4, 3)


def test_least_waste_edges() -> None:
    assert least_waste([1, 2], need=4) is None
    assert least_waste([1, 2], need=0) == ()
    assert least_waste([], need=-3) == ()
    with pytest.raises(ValueError, match="1 to 6"):
        least_waste([7], need=3)


def test_least_waste_is_fast_on_sixty_dice() -> None:
    dice = [6, 5, 4, 3, 2, 1] * 10
    paid = least_waste(dice, need=200)
    assert paid is not None
    assert sum(paid) == 200
    # Exactly 200 with the fewest dice: the 6s, 5s, 4s and 3s (180) and ten 2s.
    assert len(paid) == 50
    assert paid.count(1) == 0


@settings(max_examples=150, deadline=None)
@given(sized_pools, st.integers(-2, 75))
def test_least_waste_matches_brute_force_over_every_subset(dice: list[int], need: int) -> None:
    assert least_waste(dice, need=need) == brute_least_waste(dice, max(0, need))


# Partitions -----------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(sized_pools, st.integers(0, 60), st.integers(0, 20))
def test_spend_partitions_the_pool_and_pays_at_least_the_need(
    dice: list[int], need: int, bank: int
) -> None:
    use = spend(dice, need=need, bank=bank)
    if sum(dice) + bank < need:
        assert use is None
        return
    assert use is not None
    assert every_die(use) == sorted(dice)
    assert use.banked == use.discarded == ()
    assert use.target == need
    assert use.pips_paid >= need
    assert 0 <= use.bank_used <= bank
    if use.bank_used:  # the bank only tops up a pool that cannot pay alone, exactly
        assert use.unused == () and use.pips_paid == need and use.wasted == 0
    else:
        best = brute_least_waste(dice, need)
        assert best is not None
        assert use.wasted == sum(best) - need
        assert len(use.paid) == len(best)


@given(pools, st.one_of(st.none(), st.integers(1, 60)), st.integers(0, 30), st.integers(0, 10))
def test_auto_pays_when_it_can_else_banks(
    dice: list[int], dc: int | None, bank: int, opposition: int
) -> None:
    use = auto(dice, dc=dc, bank=bank, opposition=opposition)
    assert every_die(use) == sorted(dice)
    if dc is not None and sum(dice) + bank >= dc + opposition:
        assert meets(paid=use.pips_paid, opposition=opposition, dc=dc)
        assert use.banked == ()
    else:
        assert use == bank_best(dice)


# RULES E9 -------------------------------------------------------------------------------------


def test_e9_opposition_pips_are_subtracted_from_the_payment() -> None:
    assert meets(paid=15, opposition=3, dc=12)
    assert not meets(paid=14, opposition=3, dc=12)


def test_e9_auto_pays_dc_plus_opposition_or_banks_when_it_cannot() -> None:
    dice = [6, 6, 4, 2, 1]
    plain = auto(dice, dc=12, bank=0)
    assert (plain.paid, plain.wasted) == ((6, 6), 0)
    opposed = auto(dice, dc=12, bank=0, opposition=4)
    assert (opposed.paid, opposed.pips_paid, opposed.target) == ((6, 6, 4), 16, 16)
    assert meets(paid=opposed.pips_paid, opposition=4, dc=12)
    too_strong = auto(dice, dc=12, bank=0, opposition=8)
    assert too_strong == bank_best(dice)


def test_auto_with_an_unknown_dc_banks() -> None:
    assert auto([6, 6, 4, 2, 1], dc=None, bank=50) == bank_best([6, 6, 4, 2, 1])


def test_auto_uses_the_bank_to_meet_the_dc() -> None:
    use = auto([6, 6, 4, 2, 1], dc=30, bank=20)
    assert use is not None
    assert (use.pips_paid, use.bank_used, use.wasted) == (30, 11, 0)


def test_pool_use_refuses_impossible_values() -> None:
    with pytest.raises(ValueError):
        PoolUse(paid=(7,), bank_used=0, banked=(), discarded=(), unused=(), target=7)
    with pytest.raises(ValueError):
        PoolUse(paid=(), bank_used=-1, banked=(), discarded=(), unused=(), target=0)
