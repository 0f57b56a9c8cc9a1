"""The Distat ruleset's parts of a round's report (``RoundReport.parts``): the actions it
resolved, and the roster it keeps as the round left it (every scene's characters: Body, Mind,
groups, restraints, bonus pools), with what a short rest healed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from pbp.engine.done import Done
from pbp.engine.roster import Roster
from pbp.rulesets.distat.rules import CharacterView, CheckRecord, DistatScene


def own(roster: Roster) -> DistatScene:
    """The roster as the Distat scene it is (the registry makes Distat its keeper)."""
    assert isinstance(roster, DistatScene), "the roster is the Distat scene"
    return roster


@dataclass(frozen=True, slots=True, kw_only=True)
class ActionEntry:
    """One resolved unit: a rules record with the post it came from and who wrote it."""

    post_id: str
    author: str
    tag: str  # the tag as written
    record: CheckRecord
    on_behalf: bool = False  # the author acted for a character that is not their own (GM)


@dataclass(frozen=True, slots=True, kw_only=True)
class DistatRound:
    """The Distat actions a round resolved, in resolution order."""

    actions: tuple[ActionEntry, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class NightRested(Done):
    """``!rest night`` in a Distat campaign: every character recovers 2 Body and 2 Mind
    damage (RULES D16)."""

    template: ClassVar[str] = "night_rest"


@dataclass(frozen=True, slots=True, kw_only=True)
class Recovered(Done):
    """``!recover``: ``character`` spent ``points`` bonus points on ``amount`` damage of
    ``stat`` (RULES D16 step 3); ``damage_left`` and ``pool_left`` after it."""

    template: ClassVar[str] = "recovered"
    character: str
    stat: str
    amount: int
    points: int
    damage_left: int
    pool_left: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Recovery:
    """What one character's short rest at the end of an encounter healed (RULES D16), and the
    damage left."""

    character: str
    body: int
    mind: int
    body_left: int
    mind_left: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RosterReport:
    """The characters as a round left them (every scene has them), in roster order, and at
    the end of an encounter what each one's short rest healed."""

    characters: tuple[CharacterView, ...] = ()
    recovered: tuple[Recovery, ...] = ()
