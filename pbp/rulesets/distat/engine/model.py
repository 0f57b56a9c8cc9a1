"""The Distat ruleset's parts of a round's report (``RoundReport.parts``): the actions it
resolved, and the roster it keeps as the round left it (every scene's characters: Body, Mind,
groups, restraints, bonus pools), with what a short rest healed."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import ClassVar

from pbp.engine.done import Done
from pbp.engine.last_answer import keeps_last_answer
from pbp.engine.roster import Roster
from pbp.engine.scene_roster import Member, SceneRoster, scene_roster
from pbp.rulesets.distat.rules import CharacterView, CheckRecord, DistatScene, Fighter
from pbp.rulesets.distat.rules.fighter import RulesOptions, status
from pbp.rulesets.distat.rules.scene import Feature, Knowledge, Sighting
from pbp.values import frozen_value


@frozen_value
class DistatCast:
    """Distat's part of the roster (``SceneRoster.parts``): each character's sheet numbers and
    what happened to it (Body, Mind, damage, bonus pool, talents, restraint), in roster order;
    the features' target numbers; what each observer has seen and identified of the others'
    talents; the round's flags; the table's options. Names, sides, groups and who is out are
    the roster's own."""

    fighters: tuple[Fighter, ...] = ()
    features: tuple[Feature, ...] = ()
    sightings: Mapping[Knowledge, Sighting] = field(default_factory=dict)
    identified: frozenset[Knowledge] = frozenset()
    uses: int = 0
    restrained_this_round: frozenset[str] = frozenset()
    mental_this_round: frozenset[str] = frozenset()
    options: RulesOptions = field(default_factory=RulesOptions)


@keeps_last_answer  # (asked of one roster for each check of a post)
def own(roster: Roster) -> DistatScene:
    """The Distat scene of the roster: its groups with Distat's part of the cast."""
    shared = scene_roster(roster)
    cast = shared.parts.get(DistatCast) or DistatCast()
    return DistatScene(
        fighters=cast.fighters,
        features=cast.features,
        groups=shared.groups,
        next_group=shared.next_group,
        sightings=cast.sightings,
        identified=cast.identified,
        uses=cast.uses,
        restrained_this_round=cast.restrained_this_round,
        mental_this_round=cast.mental_this_round,
        options=cast.options,
    )


def adopt(roster: Roster, scene: DistatScene) -> SceneRoster:
    """``roster`` as ``scene`` left it: the cast's names, sides and groups, who is out (RULES
    D6), the talents tags may name, and Distat's part."""
    shared = scene_roster(roster)
    cast = DistatCast(
        fighters=scene.fighters,
        features=scene.features,
        sightings=scene.sightings,
        identified=scene.identified,
        uses=scene.uses,
        restrained_this_round=scene.restrained_this_round,
        mental_this_round=scene.mental_this_round,
        options=scene.options,
    )
    return SceneRoster(
        members=tuple(Member(name=f.name, side=f.side) for f in scene.fighters),
        features=tuple(f.name for f in scene.features),
        groups=scene.groups,
        next_group=scene.next_group,
        out=frozenset(f.name for f in scene.fighters if status(f) == "out"),
        talents=scene.talent_names(),
        parts=shared.parts.put(cast),
    )


@frozen_value
class ActionEntry:
    """One resolved unit: a rules record with the post it came from and who wrote it."""

    post_id: str
    author: str
    tag: str  # the tag as written
    record: CheckRecord
    on_behalf: bool = False  # the author acted for a character that is not their own (GM)


@frozen_value
class DistatRound:
    """The Distat actions a round resolved, in resolution order."""

    actions: tuple[ActionEntry, ...] = ()


@frozen_value
class NightRested(Done):
    """``!rest night`` in a Distat campaign: every character recovers 2 Body and 2 Mind
    damage (RULES D16)."""

    template: ClassVar[str] = "night_rest"


@frozen_value
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


@frozen_value
class Recovery:
    """What one character's short rest at the end of an encounter healed (RULES D16), and the
    damage left."""

    character: str
    body: int
    mind: int
    body_left: int
    mind_left: int


@frozen_value
class RosterReport:
    """The characters as a round left them (every scene has them), in roster order, and at
    the end of an encounter what each one's short rest healed."""

    characters: tuple[CharacterView, ...] = ()
    recovered: tuple[Recovery, ...] = ()
