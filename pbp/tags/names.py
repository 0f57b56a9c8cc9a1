"""Name matching (SPEC §2): case-insensitive, the exact name first, then a unique prefix."""

from __future__ import annotations

import functools
from collections.abc import Iterable

from rapidfuzz.distance import DamerauLevenshtein

from pbp.tags.problems import AmbiguousName, NameProblem, UnknownName


def _fold(text: str) -> str:
    return " ".join(text.split()).casefold()


@functools.lru_cache(maxsize=256)
def _folded(candidates: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """Each distinct candidate with its folded form: a roster is folded once, not per tag."""
    return tuple((name, _fold(name)) for name in dict.fromkeys(candidates))


def resolve_name(text: str, *, candidates: Iterable[str]) -> str | NameProblem:
    """The candidate ``text`` names: its exact name, else the one name it is a prefix of.

    ``"gob"`` gives ``"Goblin Archer"`` when no other name starts with it. An unknown or
    ambiguous name gives a problem listing the candidates (all of them, or the ones it could
    be); its ``tag`` is the name as written, for the caller to replace.
    """
    folded = _folded(tuple(candidates))
    names = tuple(name for name, _ in folded)
    wanted = _fold(text)
    if wanted:
        exact = [name for name, fold in folded if fold == wanted]
        if exact:
            return exact[0]
        starting = [name for name, fold in folded if fold.startswith(wanted)]
        if len(starting) == 1:
            return starting[0]
        if starting:
            return AmbiguousName(tag=text, name=text.strip(), candidates=tuple(sorted(starting)))
    near = tuple(sorted(name for name, fold in folded if _one_off(wanted, fold)))
    return UnknownName(tag=text, name=text.strip(), candidates=tuple(sorted(names)), near=near)


NEAR_LENGTH = 4  # a typo of a shorter name is as likely another word


def _one_off(written: str, name: str) -> bool:
    """Whether ``written`` is one letter away from ``name`` (a typo: one wrong, missing, extra
    or swapped letter), for names written with at least NEAR_LENGTH letters."""
    return len(written) >= NEAR_LENGTH and DamerauLevenshtein.distance(written, name) <= 1
