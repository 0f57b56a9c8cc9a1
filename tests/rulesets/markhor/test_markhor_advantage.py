"""Advantage and disadvantage (RULES M6)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scripted_dice import ScriptedDice

from pbp.rules.dice.source import Roller
from pbp.rulesets.markhor.rules.advantage import net_advantage, roll_with


def rolls(*values: int) -> Roller:
    return ScriptedDice(list(values)).for_key("p1", 0)


def test_m6_sources_cancel_one_for_one_before_the_net_is_clamped() -> None:
    assert net_advantage(advantages=3, disadvantages=1) == 2
    assert net_advantage(advantages=2, disadvantages=2) == 0
    assert net_advantage(advantages=1, disadvantages=4) == -2
    # clamping each side to 2 first (the flagged alternative) would give 0 here
    assert net_advantage(advantages=4, disadvantages=2) == 2


@pytest.mark.parametrize(
    ("net", "dice", "kept"),
    [
        (0, (9,), 9),
        (1, (9, 17), 17),
        (2, (9, 17, 4), 17),
        (-1, (9, 17), 9),
        (-2, (9, 17, 4), 4),
    ],
)
def test_m6_advantage_rolls_more_dice_and_keeps_highest_disadvantage_lowest(
    net: int, dice: tuple[int, ...], kept: int
) -> None:
    rolled = roll_with(sides=24, net=net, roller=rolls(*dice))
    assert (rolled.dice, rolled.kept, rolled.net) == (dice, kept, net)


def test_m6_a_raw_count_beyond_double_is_clamped_when_rolling() -> None:
    rolled = roll_with(sides=20, net=5, roller=rolls(3, 8, 6))
    assert (rolled.dice, rolled.kept, rolled.net) == ((3, 8, 6), 8, 2)


@given(a=st.integers(0, 50), d=st.integers(0, 50))
def test_net_advantage_is_within_double_and_symmetric(a: int, d: int) -> None:
    net = net_advantage(advantages=a, disadvantages=d)
    assert -2 <= net <= 2
    assert net_advantage(advantages=d, disadvantages=a) == -net
    assert (net > 0) == (a > d) and (net < 0) == (a < d)
