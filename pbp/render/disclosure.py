"""What players may see (SPEC §4.5 ``hide-npcs``): NPC numbers, and the names of talents that
nobody in the party has identified, become ``None``, which the templates show as ``?``."""

from __future__ import annotations

from dataclasses import dataclass

from pbp.campaign.model import Campaign

Identified = frozenset[tuple[str, str, str]]
"""What the scene records as identified: (observer, target, talent)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Disclosure:
    """What players may see: NPC numbers and talent names under ``hide-npcs``."""

    hide: bool
    npcs: frozenset[str]
    known_talents: frozenset[tuple[str, str]]  # (user, talent) identified by a party member

    def number(self, owner: str | None, value: int | None) -> int | None:
        """A number of ``owner``'s, or None when it is hidden."""
        return None if self.hide and owner in self.npcs else value

    def talent(self, owner: str, talent: str | None) -> str | None:
        """A talent name of ``owner``'s, or None while nobody in the party has identified it."""
        if talent is None or not self.hide or owner not in self.npcs:
            return talent
        return talent if (owner, talent.casefold()) in self.known_talents else None


def disclosure_for(campaign: Campaign, identified: Identified, npcs: frozenset[str]) -> Disclosure:
    """What the players may see, given what the scene records as identified (observer, target,
    talent): its size depends on the talents identified, not on the rounds played."""
    known = {
        (target, talent.casefold()) for observer, target, talent in identified
        if observer not in npcs
    }
    return Disclosure(
        hide=campaign.visibility == "hide-npcs", npcs=npcs, known_talents=frozenset(known)
    )
