"""The ids of the posts of a thread's closed rounds: a set that only grows (but for ``!undo``),
kept as a few frozen sets of falling sizes, so that adding a round's posts copies a few of
them, not every post of the thread (a copy at each close made a long thread's closes, and
the collector's passes over each new copy, cost in proportion to its length)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass


@dataclass(frozen=True, slots=True, eq=False)
class PostIds:
    """A set of post ids, in disjoint parts, each at least twice the size of the next: a
    thread of ``n`` closed posts holds at most about log2(n) + 1 parts (a lookup tries each),
    and each id is copied about log2(n) times in the thread's life (``|`` merges the newest
    parts, as a binary counter carries). Made by ``PostIds()`` and ``|``; the parts given
    to the constructor must already be disjoint."""

    parts: tuple[frozenset[str], ...] = ()

    def __contains__(self, post_id: object) -> bool:
        return any(post_id in part for part in self.parts)

    def __or__(self, ids: Iterable[str]) -> PostIds:
        new = frozenset(ids).difference(*self.parts)
        if not new:
            return self
        parts = list(self.parts)
        while parts and len(parts[-1]) < 2 * len(new):
            new = parts.pop() | new
        return PostIds((*parts, new))

    def __sub__(self, ids: Iterable[str]) -> PostIds:
        gone = frozenset(ids)
        if not any(part & gone for part in self.parts):
            return self
        return PostIds(()) | (post_id for post_id in self if post_id not in gone)

    def __iter__(self) -> Iterator[str]:
        for part in self.parts:
            yield from part

    def __len__(self) -> int:
        return sum(len(part) for part in self.parts)

    def __eq__(self, other: object) -> bool:  # the same ids, however they are parted
        if not isinstance(other, PostIds):
            return NotImplemented
        return len(self) == len(other) and all(post_id in other for post_id in self)

    def __hash__(self) -> int:
        return hash(frozenset(self))
