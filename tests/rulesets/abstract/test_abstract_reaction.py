"""The Reaction Die (RULES E12): highest first, only the tied re-roll, no modifiers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest
from scripted_dice import ScriptedDice

from pbp.rules.dice.source import Roller
from pbp.rulesets.abstract.rules.reaction import MAX_REROLLS, ReactionRoll, reaction_order


class Rollers:
    """Each name's own scripted d6s; counts how often a name's roller was asked for."""

    def __init__(self, rolls: Mapping[str, Sequence[int]]) -> None:
        self.dice = ScriptedDice({(name,): values for name, values in rolls.items()})
        self.asked: list[str] = []

    def __call__(self, name: str) -> Roller:
        self.asked.append(name)
        return self.dice.for_key(name)


def test_e12_highest_reaction_die_acts_first() -> None:
    rollers = Rollers({"Aria": [2], "Bram": [5], "Cole": [4]})
    order = reaction_order(["Aria", "Bram", "Cole"], roller_for=rollers)
    assert order == (
        ReactionRoll(name="Bram", rolls=(5,)),
        ReactionRoll(name="Cole", rolls=(4,)),
        ReactionRoll(name="Aria", rolls=(2,)),
    )


def test_e12_only_the_tied_reroll_and_they_keep_their_place() -> None:
    rollers = Rollers({"Aria": [5, 2], "Bram": [5, 6], "Cole": [3], "Dana": [6]})
    order = reaction_order(["Aria", "Bram", "Cole", "Dana"], roller_for=rollers)
    assert [roll.name for roll in order] == ["Dana", "Bram", "Aria", "Cole"]
    assert {roll.name: roll.rolls for roll in order} == {
        "Dana": (6,),
        "Bram": (5, 6),
        "Aria": (5, 2),
        "Cole": (3,),  # not tied: never re-rolls
    }


def test_e12_ties_within_a_reroll_reroll_again_among_themselves() -> None:
    rollers = Rollers({"Aria": [4, 6, 1], "Bram": [4, 6, 3], "Cole": [4, 1]})
    order = reaction_order(["Aria", "Bram", "Cole"], roller_for=rollers)
    assert [(roll.name, roll.rolls) for roll in order] == [
        ("Bram", (4, 6, 3)),
        ("Aria", (4, 6, 1)),
        ("Cole", (4, 1)),
    ]


def test_each_name_gets_its_own_roller_once() -> None:
    rollers = Rollers({"Aria": [3, 3, 5], "Bram": [3, 3, 2]})
    reaction_order(["Aria", "Bram"], roller_for=rollers)
    assert rollers.asked == ["Aria", "Bram"]


def test_a_single_side_still_rolls_its_die() -> None:
    assert reaction_order(["Aria"], roller_for=Rollers({"Aria": [3]})) == (
        ReactionRoll(name="Aria", rolls=(3,)),
    )
    assert reaction_order([], roller_for=Rollers({})) == ()


class StuckDie:
    def roll(self, sides: int) -> int:
        return 3


def test_a_die_that_always_ties_falls_back_to_the_order_given() -> None:
    order = reaction_order(["Cole", "Aria"], roller_for=lambda name: StuckDie())
    assert [roll.name for roll in order] == ["Cole", "Aria"]
    assert all(len(roll.rolls) == MAX_REROLLS + 1 for roll in order)


def test_names_must_be_distinct() -> None:
    with pytest.raises(ValueError, match="distinct"):
        reaction_order(["Aria", "Aria"], roller_for=Rollers({"Aria": [1, 2]}))
