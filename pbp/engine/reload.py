"""A campaign file changed: new characters join, sheet changes apply, state stays (SPEC §3);
and a new thread of the campaign, which keeps what belongs to the characters. The roster's
keeper (``engine.registry.ROSTER``) says what that is for the roster and each ruleset's part of
it, each ruleset for its own state."""

from __future__ import annotations

from pbp.campaign.model import Campaign
from pbp.engine import registry
from pbp.engine.state import EngineState
from pbp.values import replace


def reload_campaign(state: EngineState, campaign: Campaign) -> EngineState:
    """``state`` under the new ``campaign``: a character dropped from the file stays in the
    scene (the GM removes it in play); everything else takes the file's new numbers."""
    keeper = registry.ROSTER
    state = replace(state, campaign=campaign, scene=keeper.reload(state.scene, campaign))
    rnd = state.round
    if rnd is not None:
        rnd = replace(
            rnd, base=keeper.reload(rnd.base, campaign), start=keeper.reload(rnd.start, campaign)
        )
        state = replace(state, round=rnd)
    return state


def carry_over(
    previous: EngineState, *, campaign: Campaign, bot: str, ack: str, came_from: str | None = None
) -> EngineState:
    """A new thread of a campaign that ran in ``previous`` (SPEC §1: character state belongs
    to the campaign): everyone keeps damage, pools and what the party has identified, in a
    fresh scene (no groups, features or restraints) under the campaign file as it is now.

    The characters stand as they do now in the old thread: its open round's set-up (a night's
    rest, an ``!npc``) counts, its actions still waiting for the close do not come along. So do
    the d20 pools spent, the abstract banks and the numbers ``!npc`` gave (they last from one
    encounter to the next as well). ``came_from``: the old thread's key (its ``!campaign``
    says where the characters came from)."""
    old = previous.round.base if previous.round is not None else previous.scene
    kept = EngineState(
        campaign=campaign, scene_kind=campaign.ruleset,
        scene=registry.ROSTER.carry_over(old), bot=bot, ack=ack,
        mentions_per_post=previous.mentions_per_post,
        rulesets=previous.rulesets, npc_scores=previous.npc_scores, came_from=came_from,
    )  # fmt: skip
    # each ruleset's state as a new scene of the campaign's own kind finds it (engine.registry):
    # the d20 pools stay spent, the abstract banks stay, a fight's pools are dismissed
    fresh = registry.fresh(kept, campaign.ruleset, None)
    return reload_campaign(fresh, campaign)
