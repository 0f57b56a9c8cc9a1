"""Skirmish initiative (RULES M4) and battle initiative (RULES M5)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Mapping, Sequence

from hypothesis import given, settings
from hypothesis import strategies as st
from scripted_dice import ScriptedDice

from pbp.rules.dice.source import Roller
from pbp.rulesets.markhor.rules.initiative import (
    MAX_TIEBREAK_ROUNDS,
    InitiativeRoll,
    battle_initiative,
    skirmish_initiative,
)


def scripted(script: Mapping[str, Sequence[int]]) -> Callable[[str], Roller]:
    # Per-key scripts start over when asked for twice, so this also checks that each entity's
    # roller is taken once and kept for its tie-break re-rolls.
    dice = ScriptedDice({("init", name): values for name, values in script.items()})
    return lambda name: dice.for_key("init", name)


def summary(order: Sequence[InitiativeRoll]) -> list[tuple[str, int, tuple[int, ...]]]:
    return [(r.name, r.total, r.tiebreak) for r in order]


# --- RULES M4 ---------------------------------------------------------------------------------


def test_m4_every_member_of_the_ambushing_side_adds_24() -> None:
    order = skirmish_initiative(
        [("Aria", "party"), ("Bram", "party"), ("Gob", "foes")],
        ambush="party",
        roller_for=scripted({"Aria": [5], "Bram": [20], "Gob": [24]}),
    )
    assert summary(order) == [("Bram", 44, ()), ("Aria", 29, ()), ("Gob", 24, ())]
    assert [(r.rolls, r.bonus, r.kept) for r in order] == [
        ((20,), 24, 20),
        ((5,), 24, 5),
        ((24,), 0, 24),
    ]


def test_m4_without_ambush_it_is_a_straight_d24() -> None:
    order = skirmish_initiative(
        [("Aria", "party"), ("Gob", "foes")],
        ambush=None,
        roller_for=scripted({"Aria": [5], "Gob": [24]}),
    )
    assert summary(order) == [("Gob", 24, ()), ("Aria", 5, ())]


def test_m4_ties_reroll_among_the_tied_only_until_settled() -> None:
    # Dax rolls once only: a re-roll for him would run out of script.
    order = skirmish_initiative(
        [("Aria", "party"), ("Bram", "party"), ("Cole", "party"), ("Dax", "foes")],
        ambush=None,
        roller_for=scripted({"Aria": [10, 5, 7], "Bram": [10, 12], "Cole": [10, 5, 2], "Dax": [3]}),
    )
    assert summary(order) == [
        ("Bram", 10, (12,)),
        ("Aria", 10, (5, 7)),
        ("Cole", 10, (5, 2)),
        ("Dax", 3, ()),
    ]


def test_initiative_ties_that_never_settle_fall_back_to_name_order() -> None:
    class Stuck:
        def roll(self, sides: int) -> int:
            return 7

    order = skirmish_initiative(
        [("b", "x"), ("a", "y")], ambush=None, roller_for=lambda name: Stuck()
    )
    assert [r.name for r in order] == ["a", "b"]
    assert all(len(r.tiebreak) == MAX_TIEBREAK_ROUNDS for r in order)


def test_initiative_advantage_rolls_more_d24s() -> None:
    order = skirmish_initiative(
        [("Aria", "party"), ("Gob", "foes")],
        ambush=None,
        roller_for=scripted({"Aria": [5, 19], "Gob": [20, 3, 9]}),
        advantage={"Aria": 1, "Gob": -2},
    )
    assert [(r.name, r.rolls, r.total) for r in order] == [
        ("Aria", (5, 19), 19),
        ("Gob", (20, 3, 9), 3),
    ]


# --- RULES M5 ---------------------------------------------------------------------------------


def test_m5_d24_plus_intuition_descending_through_negative_totals() -> None:
    order = battle_initiative(
        [("Aria", 3), ("Bram", -5), ("Gob", 1), ("Rat", -6)],
        roller_for=scripted({"Aria": [9], "Bram": [4], "Gob": [20], "Rat": [1]}),
    )
    assert summary(order) == [("Gob", 21, ()), ("Aria", 12, ()), ("Bram", -1, ()), ("Rat", -5, ())]


def test_m5_a_tie_goes_to_the_higher_intuition_before_any_reroll() -> None:
    order = battle_initiative(
        [("Bram", -5), ("Rat", -4), ("Aria", 3), ("Gob", 1)],
        roller_for=scripted({"Aria": [10], "Bram": [2], "Gob": [12], "Rat": [1]}),
    )
    assert summary(order) == [("Aria", 13, ()), ("Gob", 13, ()), ("Rat", -3, ()), ("Bram", -3, ())]


def test_m5_equal_total_and_intuition_reroll_a_d24() -> None:
    order = battle_initiative(
        [("Aria", 2), ("Gob", 2)],
        roller_for=scripted({"Aria": [8, 3], "Gob": [8, 15]}),
    )
    assert summary(order) == [("Gob", 10, (15,)), ("Aria", 10, (3,))]


# --- properties -------------------------------------------------------------------------------


class SeededRoller:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def roll(self, sides: int) -> int:
        return self.rng.randint(1, sides)


names = st.lists(st.text("abcdefgh", min_size=1, max_size=3), min_size=1, max_size=12, unique=True)


@settings(max_examples=200)
@given(
    entities=names.flatmap(
        lambda ns: st.tuples(
            st.just(ns),
            st.lists(
                st.sampled_from(["party", "foes", "others"]), min_size=len(ns), max_size=len(ns)
            ),
        )
    ),
    ambush=st.sampled_from([None, "party", "foes"]),
    rng=st.randoms(use_true_random=False),
)
def test_skirmish_order_is_a_permutation_sorted_by_total(
    entities: tuple[list[str], list[str]], ambush: str | None, rng: random.Random
) -> None:
    pairs = list(zip(*entities, strict=True))
    order = skirmish_initiative(pairs, ambush=ambush, roller_for=lambda n: SeededRoller(rng))
    assert sorted(r.name for r in order) == sorted(entities[0])
    totals = [r.total for r in order]
    assert totals == sorted(totals, reverse=True)
    # every tie was settled by re-rolls, or fell back to name order after the cap
    for first, second in itertools.pairwise(order):
        if (first.total, first.tiebreak) == (second.total, second.tiebreak):
            assert len(first.tiebreak) == MAX_TIEBREAK_ROUNDS and first.name < second.name
        elif first.total == second.total:
            assert first.tiebreak > second.tiebreak


@settings(max_examples=200)
@given(
    entities=names.flatmap(
        lambda ns: st.tuples(
            st.just(ns), st.lists(st.integers(-6, 6), min_size=len(ns), max_size=len(ns))
        )
    ),
    rng=st.randoms(use_true_random=False),
)
def test_battle_order_is_a_permutation_sorted_by_total_then_intuition(
    entities: tuple[list[str], list[int]], rng: random.Random
) -> None:
    pairs = list(zip(*entities, strict=True))
    intuition = dict(pairs)
    order = battle_initiative(pairs, roller_for=lambda n: SeededRoller(rng))
    assert sorted(r.name for r in order) == sorted(entities[0])
    ranks = [(r.total, intuition[r.name]) for r in order]
    assert ranks == sorted(ranks, reverse=True)
    assert all(r.total == r.kept + intuition[r.name] and 1 <= r.kept <= 24 for r in order)
