"""Exact odds of completing an abstract task within some intervals."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbp.rulesets.abstract.rules.odds import MAX_INTERVALS, completion_odds
from pbp.rulesets.abstract.rules.payment import auto, meets
from pbp.rulesets.abstract.rules.pool import DIVISORS, dice_count, skill_result


def brute_odds(*, dc: int, bank: int, modifier: int, source: str, intervals: int) -> Fraction:
    """Every d20 face and every ordered roll of the d6s, played with ``auto`` each interval."""
    counts: Counter[int] = Counter()
    for roll in range(1, 21):
        result = roll if source == "spell" else skill_result(roll=roll, modifier=modifier)
        counts[dice_count(result=result, divisor=DIVISORS[source])] += 1
    assert max(counts) <= 4, "brute force is only for pools of at most 4 dice"

    @cache
    def outcome(dice: tuple[int, ...], held: int) -> tuple[bool, int]:
        use = auto(dice, dc=dc, bank=held)
        return meets(paid=use.pips_paid, opposition=0, dc=dc), held + use.banked_pips

    @cache
    def chance(left: int, held: int) -> Fraction:
        if left == 0:
            return Fraction(0)
        total = Fraction(0)
        for count, faces in counts.items():
            for rolled in product(range(1, 7), repeat=count):
                done, banked = outcome(tuple(sorted(rolled)), held)
                weight = Fraction(faces, 20 * 6**count)
                total += weight if done else weight * chance(left - 1, banked)
        return total

    return chance(intervals, bank)


@pytest.mark.parametrize(
    ("dc", "bank", "modifier", "source"),
    [
        (5, 0, -1, "skill"),
        (12, 0, -3, "skill"),
        (14, 3, -1, "skill"),
        (9, 2, 40, "spell"),
        (16, 0, 20, "bailiwick"),
        (20, 3, 30, "other"),
        (11, 0, -20, "skill"),
    ],
)
def test_odds_match_brute_force_for_one_and_two_intervals(
    dc: int, bank: int, modifier: int, source: str
) -> None:
    exact = completion_odds(dc=dc, bank=bank, modifier=modifier, source=source, intervals=(1, 2))
    expected = tuple(
        brute_odds(dc=dc, bank=bank, modifier=modifier, source=source, intervals=count)
        for count in (1, 2)
    )
    assert exact == expected
    assert 0 < expected[0] < expected[1] < 1  # the cases are not trivial


def test_two_dice_against_dc_12_is_one_in_thirty_six() -> None:
    # A modifier this low always gives the minimum of 2 dice; only double six makes 12.
    assert completion_odds(dc=12, bank=0, modifier=-30, source="skill", intervals=(1,)) == (
        Fraction(1, 36),
    )
    assert completion_odds(dc=7, bank=0, modifier=-30, source="skill", intervals=(1,)) == (
        Fraction(7, 12),
    )


def test_a_bank_that_meets_the_dc_is_certain() -> None:
    assert completion_odds(dc=40, bank=40, modifier=0, source="skill") == (Fraction(1),) * 3
    # Two dice show at least 2 pips, so a bank of dc - 2 finishes in the next interval.
    assert completion_odds(dc=40, bank=38, modifier=0, source="skill") == (Fraction(1),) * 3


def test_no_interval_means_no_chance() -> None:
    none, one = completion_odds(dc=10, bank=0, modifier=5, source="skill", intervals=(0, 1))
    assert none == 0 < one


def test_spell_odds_ignore_the_modifier() -> None:
    low = completion_odds(dc=30, bank=0, modifier=-10, source="spell")
    high = completion_odds(dc=30, bank=0, modifier=200, source="spell")
    assert low == high


def test_summary_sized_tasks_are_exact_fractions_in_order() -> None:
    odds = completion_odds(dc=40, bank=0, modifier=12, source="skill")
    assert all(isinstance(chance, Fraction) for chance in odds)
    assert 0 < odds[0] < odds[1] < odds[2] < 1


def test_odds_refuse_bad_input() -> None:
    with pytest.raises(ValueError, match="unknown source"):
        completion_odds(dc=10, bank=0, modifier=0, source="luck")
    with pytest.raises(ValueError, match="intervals"):
        completion_odds(dc=10, bank=0, modifier=0, source="skill", intervals=(MAX_INTERVALS + 1,))
    with pytest.raises(ValueError, match="intervals"):
        completion_odds(dc=10, bank=0, modifier=0, source="skill", intervals=(-1,))
    with pytest.raises(ValueError, match="bank"):
        completion_odds(dc=10, bank=-1, modifier=0, source="skill")


@settings(max_examples=40, deadline=None)
@given(
    st.integers(1, 80),
    st.integers(0, 80),
    st.integers(-10, 30),
    st.sampled_from(sorted(DIVISORS)),
)
def test_odds_are_probabilities_that_grow_with_intervals_and_bank(
    dc: int, bank: int, modifier: int, source: str
) -> None:
    spans = (0, 1, 2, 3, 5)
    odds = completion_odds(dc=dc, bank=bank, modifier=modifier, source=source, intervals=spans)
    assert all(0 <= chance <= 1 for chance in odds)
    assert list(odds) == sorted(odds)
    richer = completion_odds(
        dc=dc, bank=bank + 5, modifier=modifier, source=source, intervals=spans
    )
    assert all(more >= less for more, less in zip(richer, odds, strict=True))
