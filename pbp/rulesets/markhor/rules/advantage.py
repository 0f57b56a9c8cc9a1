"""Advantage and disadvantage (RULES M6): cancel one for one, clamp to double, roll and keep."""

from __future__ import annotations

from pbp.rules.dice.source import Roller
from pbp.values import frozen_value

# The seed: "Advantage and Disadvantage cannot exceed the range of doubled."
MAX_NET = 2


@frozen_value
class AdvantageRoll:
    """Every die rolled, the one kept, and the net advantage (-2..+2) it was rolled with."""

    dice: tuple[int, ...]
    kept: int
    net: int


def clamp_net(net: int) -> int:
    """A net advantage limited to double disadvantage .. double advantage (-2..+2)."""
    return max(-MAX_NET, min(MAX_NET, net))


def net_advantage(*, advantages: int, disadvantages: int) -> int:
    """The net advantage of counted sources (RULES M6).

    Advantage and disadvantage sources cancel one for one first; only then is the rest clamped
    to -2..+2 (three advantages and one disadvantage is +2; two of each is 0).
    """
    if advantages < 0 or disadvantages < 0:
        raise ValueError(f"source counts cannot be negative ({advantages}, {disadvantages})")
    return clamp_net(advantages - disadvantages)


def roll_with(*, sides: int, net: int, roller: Roller) -> AdvantageRoll:
    """Roll one die of ``sides`` faces under a net advantage (RULES M6).

    Net 0: one die. +1: two dice, keep the highest; +2: three, keep the highest. -1 and -2 roll
    the same numbers of dice and keep the lowest. ``net`` is clamped again, in case a caller
    passes a raw count.
    """
    net = clamp_net(net)
    dice = tuple(roller.roll(sides) for _ in range(1 + abs(net)))
    kept = min(dice) if net < 0 else max(dice)
    return AdvantageRoll(dice=dice, kept=kept, net=net)
