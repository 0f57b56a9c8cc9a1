"""Turn order: skirmish initiative (RULES M4) and battle initiative (RULES M5).

Each entity rolls with its own roller, taken once from ``roller_for(name)`` and reused for its
tie-break re-rolls: a keyed roller asked for twice starts over and would repeat its first roll,
tying the same entities for ever.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from pbp.rules.dice.source import Roller
from pbp.rulesets.markhor.rules.advantage import roll_with
from pbp.values import frozen_value, replace

INITIATIVE_DIE = 24
AMBUSH_BONUS = 24  # the seed: "the advantaged side has +24 added to their initiative roll"
# After this many re-roll rounds among the same tied entities they are put in name order, so
# a broken roller that always shows one number cannot loop for ever.
MAX_TIEBREAK_ROUNDS = 100


@frozen_value
class InitiativeRoll:
    """One entity's initiative: the d24s rolled (more than one with advantage), the bonus added,
    the total, and the tie-break d24s it re-rolled (empty when it tied no one)."""

    name: str
    rolls: tuple[int, ...]
    bonus: int
    total: int
    tiebreak: tuple[int, ...] = ()

    @property
    def kept(self) -> int:
        """The d24 that counted (the only one without advantage)."""
        return self.total - self.bonus


def skirmish_initiative(
    entities: Sequence[tuple[str, str]],
    *,
    ambush: str | None,
    roller_for: Callable[[str], Roller],
    advantage: Mapping[str, int] | None = None,
) -> tuple[InitiativeRoll, ...]:
    """Skirmish turn order, highest first (RULES M4).

    ``entities`` are (name, side) pairs. Each rolls a straight d24; every member of the side
    named by ``ambush`` (the side that caught the other unaware) adds +24. Ties re-roll a d24
    among the tied only, again and again while some stay tied. ``advantage`` optionally gives
    a name's net advantage on its roll (RULES M6).
    """
    rollers = _rollers(entities, roller_for)
    rolls = [
        _roll(
            name,
            bonus=AMBUSH_BONUS if side == ambush else 0,
            roller=rollers[name],
            net=(advantage or {}).get(name, 0),
        )
        for name, side in entities
    ]
    return _order(rolls, rank=lambda r: (r.total,), rollers=rollers)


def battle_initiative(
    entities: Sequence[tuple[str, int]],
    *,
    roller_for: Callable[[str], Roller],
    advantage: Mapping[str, int] | None = None,
) -> tuple[InitiativeRoll, ...]:
    """Battle turn order, highest first (RULES M5).

    ``entities`` are (name, Intuition) pairs; each rolls d24 + Intuition. Totals may be
    negative and the order simply goes on below 0. Ties go to the higher Intuition, then a d24
    re-roll among those still tied.
    """
    rollers = _rollers(entities, roller_for)
    intuition = dict(entities)
    rolls = [
        _roll(name, bonus=score, roller=rollers[name], net=(advantage or {}).get(name, 0))
        for name, score in entities
    ]
    return _order(rolls, rank=lambda r: (r.total, intuition[r.name]), rollers=rollers)


def _rollers(
    entities: Sequence[tuple[str, object]], roller_for: Callable[[str], Roller]
) -> dict[str, Roller]:
    names = [name for name, _ in entities]
    if len(set(names)) != len(names):
        raise ValueError(f"initiative needs distinct names, not {names}")
    return {name: roller_for(name) for name in names}


def _roll(name: str, *, bonus: int, roller: Roller, net: int) -> InitiativeRoll:
    # RULES M6: initiative advantage rolls more d24s, same as any other roll
    rolled = roll_with(sides=INITIATIVE_DIE, net=net, roller=roller)
    return InitiativeRoll(name=name, rolls=rolled.dice, bonus=bonus, total=rolled.kept + bonus)


def _order(
    rolls: list[InitiativeRoll],
    *,
    rank: Callable[[InitiativeRoll], tuple[int, ...]],
    rollers: Mapping[str, Roller],
) -> tuple[InitiativeRoll, ...]:
    ordered: list[InitiativeRoll] = []
    for _, tied in _groups(rolls, key=rank):
        ordered.extend(_settle(tied, rollers=rollers, rounds=0))
    return tuple(ordered)


def _settle(
    tied: list[InitiativeRoll], *, rollers: Mapping[str, Roller], rounds: int
) -> list[InitiativeRoll]:
    """Put entities of equal rank in order: re-roll a d24 among them while some still tie."""
    if len(tied) == 1:
        return tied
    if rounds >= MAX_TIEBREAK_ROUNDS:
        return sorted(tied, key=lambda r: r.name)
    rerolled = [
        replace(r, tiebreak=(*r.tiebreak, rollers[r.name].roll(INITIATIVE_DIE))) for r in tied
    ]
    settled: list[InitiativeRoll] = []
    for _, still_tied in _groups(rerolled, key=lambda r: (r.tiebreak[-1],)):
        settled.extend(_settle(still_tied, rollers=rollers, rounds=rounds + 1))
    return settled


def _groups(
    rolls: list[InitiativeRoll], *, key: Callable[[InitiativeRoll], tuple[int, ...]]
) -> list[tuple[tuple[int, ...], list[InitiativeRoll]]]:
    """Entities grouped by ``key``, highest key first, input order kept inside a group."""
    groups: dict[tuple[int, ...], list[InitiativeRoll]] = {}
    for roll in rolls:
        groups.setdefault(key(roll), []).append(roll)
    return sorted(groups.items(), key=lambda item: item[0], reverse=True)
