"""Distat's part of the roster every scene shares (``engine.roster``): each character's Body,
Mind, damage, bonus pool, talents and restraint, the features' target numbers, what each
observer knows, whichever ruleset the scene runs. Here it follows each change of the roster
outside a Distat action (a thread's start, a round's start and end, the GM's set-up, a
campaign file reloaded, a new thread), and says what a rest healed (``recoveries``). The
GM's corrections of Body, Mind and bonus pools and the rests are Distat's as a ruleset
(``engine.ruleset``)."""

from __future__ import annotations

from pbp.campaign.model import Campaign
from pbp.engine.scene_roster import CastKeeper, SceneRoster
from pbp.errors import Problem
from pbp.rulesets.distat import rules as distat
from pbp.rulesets.distat.engine.model import Recovery, adopt, own
from pbp.rulesets.distat.engine.setup import fighter_from_sheet, npc_fighter
from pbp.rulesets.distat.rules import DistatScene, Feature
from pbp.rulesets.distat.sheet import DistatOptions
from pbp.tags.commands import Command, FeatureCommand, NpcCommand
from pbp.values import replace


def recoveries(before: DistatScene, after: DistatScene) -> tuple[Recovery, ...]:
    """What a rest healed, per character who had damage to heal (RULES D16)."""
    out: list[Recovery] = []
    for name in distat.names(after):
        if name not in distat.names(before):
            continue
        was, now = distat.view(before, name), distat.view(after, name)
        body, mind = was.body.damage - now.body.damage, was.mind.damage - now.mind.damage
        if body or mind:
            out.append(
                Recovery(
                    character=name,
                    body=body,
                    mind=mind,
                    body_left=now.body.damage,
                    mind_left=now.mind.damage,
                )
            )
    return tuple(out)


class DistatCastKeeper(CastKeeper):
    """Distat's part of the roster, following each change of it."""

    def start(self, roster: SceneRoster, campaign: Campaign) -> SceneRoster:
        own_options = campaign.options.part(DistatOptions)
        options = distat.RulesOptions(
            identify_bonus_requires_owning=own_options.identify_bonus_requires_owning
        )
        fighters = tuple(fighter_from_sheet(c) for c in campaign.characters)
        return adopt(roster, replace(own(roster), fighters=fighters, options=options))

    def begin_round(self, roster: SceneRoster) -> SceneRoster:
        return adopt(roster, distat.begin_round(own(roster)))

    def end_round(self, roster: SceneRoster) -> SceneRoster:
        return adopt(roster, distat.end_round(own(roster)))

    def setup(
        self, before: SceneRoster, after: SceneRoster, command: Command
    ) -> SceneRoster | Problem:
        scene = own(after)
        match command:
            case NpcCommand():
                npc = npc_fighter(command)
                return adopt(after, replace(scene, fighters=(*scene.fighters, npc)))
            case FeatureCommand():
                feature = Feature(name=command.name, tn=command.tn, constraint=command.constraint)
                return adopt(after, replace(scene, features=(*scene.features, feature)))
        return after

    def reload(self, before: SceneRoster, after: SceneRoster, campaign: Campaign) -> SceneRoster:
        # the new characters have joined the roster: their sheets join them, and every known
        # character takes its sheet's new numbers (damage, pool, group and restraint stay)
        scene = own(after)
        for sheet in campaign.characters:
            fighter = fighter_from_sheet(sheet)
            if sheet.name in distat.names(scene):
                scene = distat.replace_sheet(scene, fighter)
            else:
                scene = replace(scene, fighters=(*scene.fighters, fighter))
        return adopt(after, scene)

    def carry_over(self, before: SceneRoster, after: SceneRoster) -> SceneRoster:
        # damage, pools and what the party has identified stay; features, restraints and the
        # round's flags belonged to the old scene
        old = own(before)
        fighters = tuple(replace(f, restraint=None) for f in old.fighters)
        fresh = replace(
            own(after),
            fighters=fighters,
            features=(),
            sightings=old.sightings,
            identified=old.identified,
            options=old.options,
        )
        return adopt(after, fresh)


DISTAT_CAST = DistatCastKeeper()
