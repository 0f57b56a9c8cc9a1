"""How a skirmish goes and ends (RULES M8, M9)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from pbp.rulesets.markhor.rules.errors import CourseRefused
from pbp.rulesets.markhor.rules.pools import Pools

Outcome = Literal["party_failed", "party_won"]
Fate = Literal["incapacitated", "dead"]
COURSES_PER_TURN = 1  # the seed: "On their turn, a combatant takes one course of action."


def skirmish_outcome(
    *, sides: Mapping[str, Sequence[bool]], party: str = "party"
) -> Outcome | None:
    """Whether the skirmish has ended, from each side's members' "out" flags (RULES M8).

    ``"party_failed"`` when every party member is out (the encounter then becomes a battle);
    ``"party_won"`` when every member of every other side is out; otherwise None. A party with
    no members, or no foes at all, decides nothing (a skirmish still being set up). Should both
    hold at once, the party has failed: the seed states the failure without exception.
    """
    members = sides.get(party, ())
    foes = [out for side, flags in sides.items() if side != party for out in flags]
    if not members or not foes:
        return None
    if all(members):
        return "party_failed"
    if all(foes):
        return "party_won"
    return None


def fate_of_foes(*, sapient: bool) -> Fate:
    """What becomes of a foe that is out when the party wins (RULES M8).

    Sapient entities are simply incapacitated; only simple non-sapient ones are dead.
    """
    return "incapacitated" if sapient else "dead"


def skips_turn(pools: Pools) -> bool:
    """Whether an entity's skirmish turn is skipped: it is out of combat (the seed)."""
    return pools.out


def needs_roll(*, gm_requires: bool) -> bool:
    """Whether a skirmish course of action is rolled (RULES M9).

    Courses of action succeed automatically; only when the GM calls for a roll (against a
    Narrator-set difficulty) is one made.
    """
    return gm_requires


def take_course(*, taken: int) -> int:
    """Count one more course of action this turn, given ``taken`` so far (RULES M9).

    Raises :class:`CourseRefused` ``one_course_per_turn`` for a second course in one turn.
    """
    if taken >= COURSES_PER_TURN:
        raise CourseRefused(code="one_course_per_turn", detail=f"{taken} already taken")
    return taken + 1
