"""The Reaction Die: who acts first when order matters (RULES E12, seed 000).

Each side rolls a d6, highest first; ties are re-rolled among the tied only (and again among
those still tied, and so on); nothing modifies the die.

Each name gets its own roller, asked for once (asking a keyed source twice for the same key
starts it over), so a name's re-rolls are that roller's second, third, … rolls.

Cap: a tied group re-rolls at most :data:`MAX_REROLLS` times (only a broken die ties forever);
a group still tied after that acts in the order the names were given.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pbp.rules.dice.source import Roller
from pbp.values import frozen_value

MAX_REROLLS = 100


@frozen_value
class ReactionRoll:
    """One name's Reaction Dice, first to last (the first roll, then each tie re-roll)."""

    name: str
    rolls: tuple[int, ...]


def reaction_order(
    names: Sequence[str], *, roller_for: Callable[[str], Roller]
) -> tuple[ReactionRoll, ...]:
    """Roll the Reaction Die for every name and return them in acting order (RULES E12).

    Names must be distinct (their rolls are keyed by name); ``ValueError`` otherwise.
    """
    if len(set(names)) != len(names):
        raise ValueError(f"reaction names must be distinct: {list(names)}")
    rollers = {name: roller_for(name) for name in names}
    rolls: dict[str, list[int]] = {name: [] for name in names}
    order = _settle(list(names), rollers=rollers, rolls=rolls, rerolls=0)
    return tuple(ReactionRoll(name=name, rolls=tuple(rolls[name])) for name in order)


def _settle(
    group: list[str],
    *,
    rollers: dict[str, Roller],
    rolls: dict[str, list[int]],
    rerolls: int,
) -> list[str]:
    """The acting order of ``group``: each rolls once, then each tie settles itself."""
    if rerolls > MAX_REROLLS:
        return group  # a die that ties forever: fall back to the order given
    by_face: dict[int, list[str]] = {}
    for name in group:
        face = rollers[name].roll(6)
        rolls[name].append(face)
        by_face.setdefault(face, []).append(name)
    order: list[str] = []
    for face in sorted(by_face, reverse=True):  # RULES E12: highest first, no modifiers
        tied = by_face[face]
        if len(tied) == 1:
            order.extend(tied)
        else:  # RULES E12: only the tied re-roll
            order.extend(_settle(tied, rollers=rollers, rolls=rolls, rerolls=rerolls + 1))
    return order
