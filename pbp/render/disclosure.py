"""What players may see (SPEC §4.5 ``hide-npcs``): NPC numbers, and the names of talents that
nobody in the party has identified, become ``None``, which the templates show as ``?`` (or in
words: "a hidden Defense"). A problem about an NPC's tag keeps its words without the NPC's
numbers (``Hidden``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field, fields
from typing import Any

from pbp.campaign.model import Campaign
from pbp.values import frozen_value

Identified = frozenset[tuple[str, str, str]]
"""What the scene records as identified: (observer, target, talent)."""

NpcNumbers = Mapping[str, tuple[str, ...]]
"""The fields of a problem (or a violation) that are its ``actor``'s numbers, by the problem's
cause or code: ``{"bonus_over_pool": ("pool",)}``. Each ruleset's views name their own."""


@frozen_value
class Disclosure:
    """What players may see: NPC numbers and talent names under ``hide-npcs``."""

    hide: bool
    npcs: frozenset[str]
    known_talents: frozenset[tuple[str, str]]  # (user, talent) identified by a party member

    def hides(self, owner: str | None) -> bool:
        """Whether ``owner``'s numbers are hidden (None: nobody's, shown)."""
        return self.hide and owner in self.npcs

    def number(self, owner: str | None, value: int | None) -> int | None:
        """A number of ``owner``'s, or None when it is hidden."""
        return None if self.hides(owner) else value

    def talent(self, owner: str, talent: str | None) -> str | None:
        """A talent name of ``owner``'s, or None while nobody in the party has identified it."""
        if talent is None or not self.hide or owner not in self.npcs:
            return talent
        return talent if (owner, talent.casefold()) in self.known_talents else None

    def hidden(self, numbers: NpcNumbers) -> Hidden:
        """Which problems' numbers are hidden: the NPCs' under hide-npcs, none otherwise."""
        return Hidden(npcs=self.npcs if self.hide else frozenset(), numbers=numbers)


@frozen_value
class Hidden:
    """The NPCs whose numbers a problem reply may not show, and where problems keep them."""

    npcs: frozenset[str] = frozenset()
    numbers: NpcNumbers = field(default_factory=dict)

    def numbers_of(self, value: object) -> tuple[str, ...]:
        """The fields of ``value`` (a problem or a violation) to leave out: its actor's
        numbers when the actor is a hidden NPC, else none."""
        if not self.npcs or getattr(value, "actor", None) not in self.npcs:
            return ()
        for key in (getattr(type(value), "cause", None), getattr(value, "code", None)):
            if isinstance(key, str) and key in self.numbers:
                return self.numbers[key]
        return ()

    def shown(self, value: Any) -> Any:
        """``value`` (a problem or a violation) as players may read it: itself, or when it
        holds a hidden NPC's numbers a dict of its fields with those None (its ``code`` and
        ``cause`` kept, so a template reads it the same)."""
        return blanked(value, self.numbers_of(value))


NOTHING_HIDDEN = Hidden()


def blanked(value: Any, names: tuple[str, ...]) -> Any:
    """A dataclass ``value`` as a dict of its fields with ``names`` set to None (``value``
    itself when there is nothing to blank)."""
    if not names:
        return value
    data = {f.name: getattr(value, f.name) for f in fields(value)}
    for key in ("code", "cause"):
        if isinstance(getattr(type(value), key, None), str):
            data[key] = getattr(type(value), key)
    return {**data, **dict.fromkeys(names)}


def disclosure_for(campaign: Campaign, identified: Identified, npcs: frozenset[str]) -> Disclosure:
    """What the players may see, given what the scene records as identified (observer, target,
    talent): its size depends on the talents identified, not on the rounds played."""
    known = {
        (target, talent.casefold())
        for observer, target, talent in identified
        if observer not in npcs
    }
    return Disclosure(
        hide=campaign.visibility == "hide-npcs", npcs=npcs, known_talents=frozenset(known)
    )
