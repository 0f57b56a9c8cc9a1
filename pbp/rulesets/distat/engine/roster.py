"""The Distat scene as the roster every scene shares (``engine.roster``): Distat keeps who is
in the scene, their groups and features, whichever ruleset the scene runs. Here is what
changes it outside a Distat action: a thread's start, a round's start and end, the GM's
set-up, a campaign file reloaded, a new thread; and what a rest heals (``recoveries``). The
GM's corrections of Body, Mind and bonus pools and the rests are Distat's as a ruleset
(``engine.ruleset``)."""

from __future__ import annotations

from dataclasses import replace

from pbp.campaign.model import Campaign
from pbp.engine.roster import Roster, RosterKeeper
from pbp.errors import Problem
from pbp.rulesets.distat import rules as distat
from pbp.rulesets.distat.engine.model import Recovery, own
from pbp.rulesets.distat.engine.setup import apply_setup, fighter_from_sheet
from pbp.rulesets.distat.rules import DistatScene
from pbp.rulesets.distat.sheet import DistatOptions
from pbp.tags.commands import Command


def _apply(scene: DistatScene, campaign: Campaign) -> DistatScene:
    for sheet in campaign.characters:
        fighter = fighter_from_sheet(sheet)
        if sheet.name in distat.names(scene):
            scene = distat.replace_sheet(scene, fighter)  # damage, pool, group and restraint stay
        else:
            scene = distat.add_fighter(scene, fighter)
    return scene


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


class DistatRoster(RosterKeeper):
    """The keeper of the Distat scene."""

    def start(self, campaign: Campaign) -> Roster:
        own_options = campaign.options.part(DistatOptions)
        options = distat.RulesOptions(
            identify_bonus_requires_owning=own_options.identify_bonus_requires_owning
        )
        fighters = (fighter_from_sheet(c) for c in campaign.characters)
        return distat.new_scene(fighters, options=options)

    def begin_round(self, roster: Roster) -> Roster:
        return distat.begin_round(own(roster))

    def end_round(self, roster: Roster) -> Roster:
        return distat.end_round(own(roster))

    def setup(self, roster: Roster, command: Command) -> Roster | Problem | None:
        return apply_setup(own(roster), command)

    def reload(self, roster: Roster, campaign: Campaign) -> Roster:
        # a character dropped from the file stays in the scene (the GM removes it in play)
        return _apply(own(roster), campaign)

    def carry_over(self, roster: Roster) -> Roster:
        # damage, pools and what the party has identified stay; groups, features and
        # restraints belonged to the old scene
        old = own(roster)
        fighters = [replace(f, restraint=None) for f in old.fighters]
        return replace(
            distat.new_scene(fighters, options=old.options),
            sightings=old.sightings,
            identified=old.identified,
        )


DISTAT_ROSTER = DistatRoster()
