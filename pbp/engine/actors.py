"""Who a tag acts for: ownership, ``as NAME`` and the GM's rights (SPEC §2.1)."""

from __future__ import annotations

from pbp.campaign.model import Campaign
from pbp.engine.problems import NeedAs, NoCharacter, NotYourCharacter
from pbp.errors import Problem
from pbp.values import frozen_value


@frozen_value
class Actor:
    """The character a tag acts for; ``on_behalf`` when the GM acts for it."""

    name: str
    on_behalf: bool


def owned_by(campaign: Campaign, author: str) -> tuple[str, ...]:
    """The characters a player owns, in roster order."""
    low = author.casefold()
    return tuple(c.name for c in campaign.characters if c.player and c.player.casefold() == low)


def choose_actor(
    *, campaign: Campaign, author: str, as_name: str | None, tag: str, scene_names: tuple[str, ...]
) -> Actor | Problem:
    """The character a tag of ``author`` acts for, or why it cannot act.

    A player who owns one character acts as it; one who owns several must say ``as NAME``;
    the GM must always say ``as NAME`` and may act for anyone (the ledger records it).
    """
    if campaign.is_gm(author):
        if as_name is None:
            return NeedAs(tag=tag, author=author, gm=True, characters=scene_names)
        return Actor(name=as_name, on_behalf=as_name not in owned_by(campaign, author))
    own = owned_by(campaign, author)
    if not own:
        return NoCharacter(tag=tag, author=author)
    if as_name is None:
        if len(own) == 1:
            return Actor(name=own[0], on_behalf=False)
        return NeedAs(tag=tag, author=author, gm=False, characters=own)
    if as_name not in own:
        return NotYourCharacter(tag=tag, author=author, name=as_name, characters=own)
    return Actor(name=as_name, on_behalf=False)
