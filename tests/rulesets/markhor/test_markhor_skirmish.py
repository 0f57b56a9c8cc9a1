"""Skirmish end states (RULES M8) and courses of action (RULES M9)."""

from __future__ import annotations

import pytest

from pbp.rulesets.markhor.rules.errors import CourseRefused
from pbp.rulesets.markhor.rules.pools import Pools
from pbp.rulesets.markhor.rules.skirmish import (
    fate_of_foes,
    needs_roll,
    skips_turn,
    skirmish_outcome,
    take_course,
)

# --- RULES M8 ---------------------------------------------------------------------------------


def test_m8_the_party_fails_when_every_member_is_out() -> None:
    sides = {"party": [True, True], "foes": [False]}
    assert skirmish_outcome(sides=sides) == "party_failed"


def test_m8_the_party_wins_when_every_member_of_every_other_side_is_out() -> None:
    sides = {"party": [False, True], "foes": [True, True], "beasts": [True]}
    assert skirmish_outcome(sides=sides) == "party_won"
    sides["beasts"] = [False]
    assert skirmish_outcome(sides=sides) is None


def test_m8_the_party_side_can_have_another_name() -> None:
    sides = {"heroes": [True], "party": [False]}
    assert skirmish_outcome(sides=sides, party="heroes") == "party_failed"
    assert skirmish_outcome(sides=sides) == "party_won"


def test_m8_a_skirmish_without_party_or_foes_has_no_outcome_yet() -> None:
    assert skirmish_outcome(sides={"party": [False]}) is None
    assert skirmish_outcome(sides={"foes": [True]}) is None
    assert skirmish_outcome(sides={"party": [], "foes": [True]}) is None


def test_m8_the_failure_wins_when_both_sides_are_out_at_once() -> None:
    assert skirmish_outcome(sides={"party": [True], "foes": [True]}) == "party_failed"


def test_m8_sapient_foes_are_incapacitated_and_simple_beasts_dead() -> None:
    assert fate_of_foes(sapient=True) == "incapacitated"
    assert fate_of_foes(sapient=False) == "dead"


def test_an_entity_out_of_the_skirmish_skips_its_turn() -> None:
    assert skips_turn(Pools(hp=0, wp=0))
    assert not skips_turn(Pools(hp=0, wp=1))


# --- RULES M9 ---------------------------------------------------------------------------------


def test_m9_a_course_of_action_succeeds_unless_the_gm_calls_for_a_roll() -> None:
    assert needs_roll(gm_requires=False) is False
    assert needs_roll(gm_requires=True) is True


def test_m9_one_course_of_action_per_turn() -> None:
    assert take_course(taken=0) == 1
    with pytest.raises(CourseRefused) as refused:
        take_course(taken=1)
    assert refused.value.code == "one_course_per_turn"
