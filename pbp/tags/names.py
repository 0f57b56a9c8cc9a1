"""Name matching (SPEC §2): case-insensitive, the exact name first, then a unique prefix."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import NamedTuple

from rapidfuzz.distance import DamerauLevenshtein

from pbp.tags.problems import AmbiguousName, NameProblem, UnknownName


@functools.lru_cache(maxsize=1024)
def _fold(text: str) -> str:
    """``text`` as names are compared: its spaces one each, case-folded (a pure function of
    it: a roster's names and a scene's words are folded again and again)."""
    return " ".join(text.split()).casefold()


class _Folded(NamedTuple):
    """A roster's names, folded once (a roster is read against many times, not per tag)."""

    folded: tuple[tuple[str, str], ...]  # each distinct name with its folded form, in order
    exact: dict[str, str]  # folded form -> the first name so folded
    listed: tuple[str, ...]  # the distinct names, sorted (an unknown name lists them)


@functools.lru_cache(maxsize=256)
def _folded(candidates: tuple[str, ...]) -> _Folded:
    folded = tuple((name, _fold(name)) for name in dict.fromkeys(candidates))
    exact: dict[str, str] = {}
    for name, fold in folded:
        exact.setdefault(fold, name)
    return _Folded(folded, exact, tuple(sorted(name for name, _ in folded)))


def resolve_name(text: str, *, candidates: Iterable[str]) -> str | NameProblem:
    """The candidate ``text`` names: its exact name, else the one name it is a prefix of.

    ``"gob"`` gives ``"Goblin Archer"`` when no other name starts with it. An unknown or
    ambiguous name gives a problem listing the candidates (all of them, or the ones it could
    be); its ``tag`` is the name as written, for the caller to replace.
    """
    roster = _folded(tuple(candidates))
    wanted = _fold(text)
    if wanted:
        exact = roster.exact.get(wanted)
        if exact is not None:
            return exact
        starting = _starting(roster, wanted)
        if len(starting) == 1:
            return starting[0]
        if starting:
            return AmbiguousName(tag=text, name=text.strip(), candidates=tuple(sorted(starting)))
    near = tuple(sorted(name for name, fold in roster.folded if _one_off(wanted, fold)))
    return UnknownName(tag=text, name=text.strip(), candidates=roster.listed, near=near)


def named(text: str, *, candidates: tuple[str, ...]) -> str | None:
    """The name ``resolve_name`` gives for ``text``, or None where it gives a problem (not
    worked out: the quick readers only need to know there is one)."""
    roster = _folded(candidates)
    wanted = _fold(text)
    if not wanted:
        return None
    exact = roster.exact.get(wanted)
    if exact is not None:
        return exact
    starting = _starting(roster, wanted)
    return starting[0] if len(starting) == 1 else None


def _starting(roster: _Folded, wanted: str) -> list[str]:
    return [name for name, fold in roster.folded if fold.startswith(wanted)]


NEAR_LENGTH = 4  # a typo of a shorter name is as likely another word


def _one_off(written: str, name: str) -> bool:
    """Whether ``written`` is one letter away from ``name`` (a typo: one wrong, missing, extra
    or swapped letter), for names written with at least NEAR_LENGTH letters."""
    return len(written) >= NEAR_LENGTH and DamerauLevenshtein.distance(written, name) <= 1


def likely_typo(word: str, words: Iterable[str]) -> str | None:
    """The one of ``words`` that ``word`` is likely a typo of (SPEC §2: Damerau-Levenshtein
    distance 1, 2 for words of five letters or more, any case), the nearest first; None."""
    folded = _fold(word)
    limit = 2 if len(folded) >= 5 else 1
    best = min(((DamerauLevenshtein.distance(folded, _fold(w)), w) for w in words), default=None)
    return best[1] if best is not None and 0 < best[0] <= limit else None
