"""A campaign file changed: new characters join, sheet changes apply, state stays (SPEC §3)."""

from __future__ import annotations

from dataclasses import replace

from pbp.campaign.model import Campaign
from pbp.engine import registry
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

    The characters stand as they do now in the old thread: its open round's set-up (a night's
    rest, an ``!npc``) counts, its actions still waiting for the close do not come along. So do
    the d20 pools spent, the abstract banks and the numbers ``!npc`` gave (they last from one
    encounter to the next as well)."""
    old = previous.round.base if previous.round is not None else previous.scene
    fighters = [replace(f, restraint=None) for f in old.fighters]
    scene = replace(
        distat.new_scene(fighters, options=old.options),
        sightings=old.sightings,
        identified=old.identified,
    )
    kept = EngineState(
        campaign=campaign, scene_kind=campaign.ruleset, scene=scene, bot=bot, ack=ack,
        rulesets=previous.rulesets, npc_scores=previous.npc_scores,
    )  # fmt: skip
    # each ruleset's state as a new scene of the campaign's own kind finds it (engine.registry):
    # the d20 pools stay spent, the abstract banks stay, a fight's pools are dismissed
    fresh = registry.fresh(kept, campaign.ruleset, None)
    return reload_campaign(fresh, campaign)
