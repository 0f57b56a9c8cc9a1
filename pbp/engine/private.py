"""What goes to one user privately: the GM's full view under hide-npcs, a player's own sheet.

Under ``hide-npcs`` (SPEC §4.5) players never read an NPC's numbers, so each GM gets every
summary again as a private message with all the numbers shown, and a GM's ``!status`` is
answered in the thread (as players see it) and privately in full.
"""

from __future__ import annotations

from collections.abc import Iterable

from pbp.campaign.model import Campaign
from pbp.engine.effects import Effect, PrivateReply, Reply, SummaryContent


def private_key(to: str, key: str) -> str:
    """The key of a private copy of ``key`` for user ``to`` (unique within the thread)."""
    return f"private-{to.casefold()}-{key}"


def hides_npcs(campaign: Campaign) -> bool:
    """Whether players may not read NPC numbers (then the GMs get theirs privately)."""
    return campaign.visibility == "hide-npcs"


def gm_copies(campaign: Campaign, effects: Iterable[Effect]) -> tuple[Effect, ...]:
    """``effects``, each summary followed by its full-numbers copy for every GM under
    hide-npcs, unless the campaign wants none (``private_copies = "off"``). The copy of a
    round undone and closed again replaces the one sent before."""
    out: list[Effect] = []
    for effect in effects:
        out.append(effect)
        if (
            isinstance(effect, Reply)
            and isinstance(effect.content, SummaryContent)
            and hides_npcs(campaign)
            and campaign.turns.private_copies != "off"
        ):
            out += [
                PrivateReply(
                    key=private_key(gm, effect.key),
                    to=gm,
                    content=effect.content,
                    full=True,
                    replaces=effect.content.again,
                )
                for gm in campaign.gms
            ]
    return tuple(out)
