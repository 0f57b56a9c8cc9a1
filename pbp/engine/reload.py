"""A campaign file changed: new characters join, sheet changes apply, state stays (SPEC §3)."""

from __future__ import annotations

from dataclasses import replace

from pbp.campaign.model import Campaign
from pbp.engine.setup import fighter_from_sheet
from pbp.engine.state import EngineState
from pbp.rules import distat
from pbp.rules.distat import DistatScene


def _apply(scene: DistatScene, campaign: Campaign) -> DistatScene:
    for sheet in campaign.characters:
        fighter = fighter_from_sheet(sheet)
        if sheet.name in distat.names(scene):
            scene = distat.replace_sheet(scene, fighter)  # damage, pool, group and restraint stay
        else:
            scene = distat.add_fighter(scene, fighter)
    return scene


def reload_campaign(state: EngineState, campaign: Campaign) -> EngineState:
    """``state`` under the new ``campaign``: a character dropped from the file stays in the
    scene (the GM removes it in play); everything else takes the file's new numbers."""
    state = replace(state, campaign=campaign, scene=_apply(state.scene, campaign))
    rnd = state.round
    if rnd is not None:
        rnd = replace(rnd, base=_apply(rnd.base, campaign), start=_apply(rnd.start, campaign))
        state = replace(state, round=rnd)
    return state


def carry_over(
    previous: EngineState, *, campaign: Campaign, bot: str, ack: str
) -> EngineState:
    """A new thread of a campaign that ran in ``previous`` (SPEC §1: character state belongs
    to the campaign): everyone keeps damage, pools and what the party has identified, in a
    fresh scene (no groups, features or restraints) under the campaign file as it is now.
    Actions still open in the old thread do not come along."""
    old = previous.scene
    fighters = [replace(f, restraint=None) for f in old.fighters]
    scene = replace(
        distat.new_scene(fighters, options=old.options),
        sightings=old.sightings,
        identified=old.identified,
    )
    fresh = EngineState(campaign=campaign, scene_kind=campaign.ruleset, scene=scene, bot=bot,
                        ack=ack)
    return reload_campaign(fresh, campaign)
