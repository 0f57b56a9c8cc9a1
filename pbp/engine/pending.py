"""What the round's accepted tags already use, counted as tags are read (SPEC §4.2)."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from pbp.engine.state import Accepted

T = TypeVar("T")


@dataclass(slots=True)
class Pending:
    """Per character, the action slots taken (slot -> post id) and the bonus points spent;
    each ruleset keeps its own record of the round's declarations under its record's type."""

    # actor -> slot -> post id; a slot is its ruleset's own value (Distat's "move", a battle's
    # second action point …)
    slots: dict[str, dict[Hashable, str]] = field(default_factory=dict)
    bonus: dict[str, int] = field(default_factory=dict)
    records: dict[type, object] = field(default_factory=dict)

    def of(self, kind: type[T]) -> T:
        """A ruleset's record of what the round declared (a fresh one at first)."""
        found = self.records.get(kind)
        if found is None:
            found = self.records[kind] = kind()
        assert isinstance(found, kind)
        return found

    def add(self, accepted: Accepted, post_id: str) -> None:
        """Count an accepted tag's slots and bonus points (its ruleset counts the rest)."""
        if accepted.slots:
            used = self.slots.setdefault(accepted.actor, {})
            for slot in accepted.slots:
                used.setdefault(slot, post_id)
        if accepted.bonus:
            self.bonus[accepted.actor] = self.bonus.get(accepted.actor, 0) + accepted.bonus
