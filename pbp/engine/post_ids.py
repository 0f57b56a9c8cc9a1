"""The ids of the posts of a thread's closed rounds: a set that only grows (but for ``!undo``),
kept as a few parts of falling sizes, so that adding a round's posts copies a few of them, not
every post of the thread (a copy at each close made a long thread's closes, and the
collector's passes over each new copy, cost in proportion to its length). The large parts are
packed (``PackedIds``: a few bytes an id, not a string object and a set slot each), so a
running bot's memory does not grow with every post it has closed."""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

PACK_AT = 256  # a part of this many ids or more is packed


@dataclass(frozen=True, slots=True, eq=False)
class PackedIds:
    """A frozen set of ids packed in one string: the ids sorted and joined, and where each
    starts (``starts`` has one more entry, the end). A lookup is a binary search."""

    joined: str
    starts: array[int]

    @staticmethod
    def of(ids: Iterable[str]) -> PackedIds:
        ordered = sorted(ids)
        starts = array("L", [0])
        end = 0
        for post_id in ordered:
            end += len(post_id)
            starts.append(end)
        return PackedIds("".join(ordered), starts)

    def _at(self, index: int) -> str:
        return self.joined[self.starts[index] : self.starts[index + 1]]

    def __contains__(self, post_id: object) -> bool:
        if not isinstance(post_id, str):
            return False
        count = len(self.starts) - 1
        found = bisect_left(range(count), post_id, key=self._at)
        return found < count and self._at(found) == post_id

    def __iter__(self) -> Iterator[str]:
        return (self._at(index) for index in range(len(self.starts) - 1))

    def __len__(self) -> int:
        return len(self.starts) - 1


Part = frozenset[str] | PackedIds


@dataclass(frozen=True, slots=True, eq=False)
class PostIds:
    """A set of post ids, in disjoint parts, each at least twice the size of the next: a
    thread of ``n`` closed posts holds at most about log2(n) + 1 parts (a lookup tries each),
    and each id is copied about log2(n) times in the thread's life (``|`` merges the newest
    parts, as a binary counter carries). Made by ``PostIds()`` and ``|``; the parts given
    to the constructor must already be disjoint."""

    parts: tuple[Part, ...] = ()

    def __contains__(self, post_id: object) -> bool:
        return any(post_id in part for part in self.parts)

    def __or__(self, ids: Iterable[str]) -> PostIds:
        new = frozenset(post_id for post_id in ids if post_id not in self)
        if not new:
            return self
        parts = list(self.parts)
        while parts and len(parts[-1]) < 2 * len(new):
            new = new.union(parts.pop())
        return PostIds((*parts, PackedIds.of(new) if len(new) >= PACK_AT else new))

    def __sub__(self, ids: Iterable[str]) -> PostIds:
        gone = frozenset(ids)
        if not any(post_id in self for post_id in gone):
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
