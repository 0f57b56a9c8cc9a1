"""View models of a round's d20 tags, as players may read them.

Under ``hide-npcs`` (SPEC §4.5) an NPC's side of a roll keeps its die (every roll is listed
with its key, SPEC §6) but loses what its sheet adds: its modifier and total, the Defense or
resistance DC a character rolls against, the DC the GM set for its own check, the margin and
tie-break that would give them away, and its dice pool (a retry's row says that the pool
kept a die, not how many it rolled; the dice line lists them, as every roll). What a player's
character rolled, and whether it worked, stays.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from pbp.render.disclosure import Disclosure
from pbp.render.plain import roll_view
from pbp.rulesets.d20.engine.model import D20Entry, D20Record

# RULES A1: a tie settled by the modifiers or a 50/50 roll says the totals were equal
_TIES = ("higher_modifier", "tie_roll")


def _dc_owner(r: D20Record) -> str | None:
    """Whose number a record's DC is: the attacked one's Defense and the target's resistance
    come from their sheets; a DC written in the tag is the GM's for an NPC's roll (the actor's
    number, then) and the player's own for theirs; an aid's DC 10 is the rules'."""
    if r.verb == "aid":
        return None
    if r.target is not None and r.verb in ("attack", "effect"):
        return r.target
    return r.actor


def d20_view(entry: D20Entry, disclosure: Disclosure) -> dict[str, Any]:
    """One resolved d20 tag as the summary shows it: every field of its record (an NPC's
    numbers None under hide-npcs), each roll's key written as the summary lists it."""
    r = entry.record
    view = {f.name: getattr(r, f.name) for f in fields(r)}
    actor, opponent = disclosure.hides(r.actor), disclosure.hides(r.opponent)
    dc = disclosure.hides(_dc_owner(r))
    if actor and r.verb != "roll":  # a generic roll's numbers are all in its tag
        # a retry's dice are as many as the pool: the row names the pool, not its dice
        view.update(modifier=None, total=None, pool_left=None, pool_dice=())
    if opponent:
        view.update(opponent_modifier=None, opponent_total=None)
    if dc:
        view["dc"] = None
    if actor or dc:  # the margin is the total less the DC
        view["margin"] = None
    if (actor or opponent) and r.reason in _TIES:
        view["reason"] = None
    if r.verb == "aid" and disclosure.hides(r.target):  # the bonus is the helped NPC's now
        view["aid_bonus"] = None
    view.update(
        post=entry.post_id,
        on_behalf=entry.on_behalf,
        tag=entry.tag,
        rolls=[roll_view(roll) for roll in r.rolls],
        dc_hidden=dc and r.dc is not None,
    )
    return view
