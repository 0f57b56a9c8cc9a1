"""One value per type: each ruleset's scene state, or its part of a round's report, found by
the value's type, so the core holds them without naming any."""

from __future__ import annotations

from typing import TypeVar

from pbp.values import frozen_value

T = TypeVar("T")


@frozen_value(kw_only=False)
class Slots:
    """Values of distinct types, in the order they were first put."""

    items: tuple[object, ...] = ()

    def get(self, kind: type[T]) -> T | None:
        """The value of that type, or None."""
        for v in self.items:
            if type(v) is kind:
                return v  # of that type exactly
        return None

    def put(self, value: object) -> Slots:
        """These values with ``value`` in place of the one of its type."""
        kind = type(value)
        if any(type(v) is kind for v in self.items):
            return Slots(tuple(value if type(v) is kind else v for v in self.items))
        return Slots((*self.items, value))
