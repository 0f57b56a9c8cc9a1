"""Exact odds of finishing an abstract task within some intervals (for the round summary).

The model: every interval the character rolls the same skill (same modifier and source) and
uses :func:`~pbp.rulesets.abstract.rules.payment.auto` with no opposition. The d20 gives a
result, the result a number of d6 (RULES E1–E3); the task completes when the dice and the bank
reach the DC (RULES E4, E6); otherwise the highest half of the dice is banked (RULES E5) and the
bank grows by their pips.

How it is computed, exactly and fast:

- For n dice only two numbers matter: the sum S and the sum T of the highest n // 2 dice (what
  ``bank_best`` banks). Their joint distribution is counted once per n (cached), as numbers
  of ordered rolls: a walk over the faces from 6 down to 1 fills the top half (few states:
  dice placed, T); the face that completes it splits the rest into copies of that face and
  dice below it, whose sums are counted apart. Outcomes with S >= DC complete whatever the
  bank, so they are not kept.
- A bank b that does not complete (S < DC - b) becomes b + T, still below the DC, so the bank
  never needs a cap. One interval maps the bank's distribution through, for each T, the
  weight of "this T and S < DC - b" (a running sum over S per T, mixed over the d20 once and
  cached per modifier, source and DC).
- All weights are integers over the common denominator (20 * 6**n_max) per interval; the
  result is turned into a ``Fraction`` at the end.

Cost (measured, one core): the summary cases (DC 40 / +12, DC 100 / +20, DC 200 / +30, for 1, 3
and 5 intervals) take a few milliseconds. The work grows with the bank's range (DC, and
intervals times dice) and the denominators with each interval, so at most
:data:`MAX_INTERVALS` intervals are computed; the largest pools (60 dice) take about half a
second the first time.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from math import comb

from pbp.rulesets.abstract.rules.pool import count_for, divisor_for

MAX_INTERVALS = 20
_FACES = (6, 5, 4, 3, 2, 1)

# For each T (banked pips), the weight of outcomes with that T and S < u, for u = 0..cap.
_Table = dict[int, tuple[int, ...]]


def completion_odds(
    *,
    dc: int,
    bank: int,
    modifier: int,
    source: str,
    intervals: Sequence[int] = (1, 3, 5),
) -> tuple[Fraction, ...]:
    """The exact chance of completing a task of ``dc`` pips within each number of ``intervals``.

    Starts from ``bank`` pips already banked. A bank that already meets the DC gives 1
    everywhere; 0 intervals give 0 otherwise. Raises ``ValueError`` for an unknown source, a
    negative bank, a negative number of intervals or more than :data:`MAX_INTERVALS`, and (from
    the dice cap) a modifier that could ask for more dice than a pool may hold.
    """
    divisor_for(source)
    if bank < 0:
        raise ValueError(f"the bank cannot be negative ({bank})")
    for count in intervals:
        if not 0 <= count <= MAX_INTERVALS:
            raise ValueError(f"intervals must be 0 to {MAX_INTERVALS}, not {count}")
    if bank >= dc:
        return tuple(Fraction(1) for _ in intervals)
    dice_by_d20 = Counter(
        count_for(roll=roll, modifier=modifier, source=source).count for roll in range(1, 21)
    )
    mix = tuple(sorted(dice_by_d20.items()))
    chances = _chances(mix, dc=dc, bank=bank, upto=max(intervals, default=0))
    return tuple(chances[count] for count in intervals)


def _chances(mix: _Mix, *, dc: int, bank: int, upto: int) -> list[Fraction]:
    """The chance of completion within 0, 1, …, ``upto`` intervals."""
    kernel, total = _kernel(mix, dc)
    last = len(kernel) - 1
    # waiting[i]: weight (over total ** interval) of runs not yet done with bank + i banked.
    # A run banks at most 3 pips per die, so the list never needs to be longer than this.
    waiting = [0] * (min(dc - bank, upto * 3 * mix[-1][0]) + 1)
    waiting[0] = 1
    done = 0  # weight of finished runs, over total ** interval
    chances = [Fraction(0)]
    for interval in range(1, upto + 1):
        if not any(waiting):  # every run has finished: certain from here on
            chances.append(Fraction(1))
            continue
        grown = [0] * len(waiting)
        done *= total
        for extra, weight in enumerate(waiting):
            if not weight:
                continue
            pairs, staying = kernel[min(dc - bank - extra, last)]  # RULES E4: S + bank >= DC
            for banked, ways in pairs:
                grown[extra + banked] += weight * ways  # RULES E5: the top half is banked
            done += weight * (total - staying)
        waiting = grown
        chances.append(Fraction(done, total**interval))
    return chances


# (dice count, how many d20 faces give it), by count.
_Mix = tuple[tuple[int, int], ...]
# For each u (DC less the bank): the (T, weight) of the outcomes with S < u, and their total.
_Kernel = tuple[tuple[tuple[tuple[int, int], ...], int], ...]


@lru_cache(maxsize=64)
def _kernel(mix: _Mix, dc: int) -> tuple[_Kernel, int]:
    """The d20's mix of the per-count tables, and its denominator ``20 * 6**n_max``."""
    most = mix[-1][0]
    cap = min(dc, 6 * most + 1)
    mixed: defaultdict[int, list[int]] = defaultdict(lambda: [0] * (cap + 1))
    for count, faces in mix:
        scale = faces * 6 ** (most - count)
        own = _joint(count, min(dc, 6 * count + 1))
        for banked, running in own.items():
            row = mixed[banked]
            for below in range(cap + 1):
                row[below] += scale * running[min(below, len(running) - 1)]
    kernel = []
    for below in range(cap + 1):
        pairs = tuple((banked, row[below]) for banked, row in sorted(mixed.items()) if row[below])
        kernel.append((pairs, sum(ways for _, ways in pairs)))
    return tuple(kernel), 20 * 6**most


@lru_cache(maxsize=256)
def _joint(count: int, cap: int) -> _Table:
    """For ``count`` d6: per T (the top ``count // 2``), ordered rolls with that T and S < u.

    Only outcomes with S < ``cap`` are counted (larger sums complete whatever the bank).
    """
    by_banked: defaultdict[int, list[int]] = defaultdict(lambda: [0] * (cap + 1))
    bottom = count - count // 2
    for (face, below), ways_by_banked in _crossings(count).items():
        fixed = (bottom - below) * face  # the bottom dice that show the crossing face
        lows = _low_sums(face - 1, below)
        for banked, ways in ways_by_banked.items():
            for low, low_ways in enumerate(lows):
                total = banked + fixed + low
                if total >= cap:
                    break
                if low_ways:
                    by_banked[banked][total + 1] += ways * low_ways
    return {banked: _running(row) for banked, row in by_banked.items()}


def _crossings(count: int) -> dict[tuple[int, int], dict[int, int]]:
    """Where the highest ``count // 2`` dice end, faces taken from 6 down.

    Keyed by (the face of the lowest banked die, how many dice show less than it), each entry
    maps T to the number of ordered rolls that get there. The dice below that face are all in
    the bottom half, so they add to S but never to T: they are counted apart (``_low_sums``).
    """
    top = count // 2
    assert top >= 1, "a pool has at least two dice (RULES E1)"
    states: dict[tuple[int, int], int] = {(0, 0): 1}  # (dice placed, T so far), placed < top
    found: defaultdict[tuple[int, int], defaultdict[int, int]] = defaultdict(
        lambda: defaultdict(int)
    )
    for face in _FACES:
        grown: defaultdict[tuple[int, int], int] = defaultdict(int)
        for (placed, banked), weight in states.items():
            left = count - placed
            for used in range(left + 1):
                ways = weight * comb(left, used)
                if placed + used < top:
                    grown[(placed + used, banked + used * face)] += ways
                else:  # the highest dice come first: this face completes the top half
                    found[(face, left - used)][banked + (top - placed) * face] += ways
        states = grown
    return {key: dict(value) for key, value in found.items()}


@lru_cache(maxsize=1024)
def _low_sums(faces: int, count: int) -> tuple[int, ...]:
    """Ordered rolls of ``count`` dice showing 1..``faces``, indexed by their sum."""
    if count == 0:
        return (1,)
    if faces == 0:
        return ()
    shorter = _low_sums(faces, count - 1)
    out = [0] * (len(shorter) + faces)
    for total, ways in enumerate(shorter):
        if ways:
            for face in range(1, faces + 1):
                out[total + face] += ways
    return tuple(out)


def _running(row: list[int]) -> tuple[int, ...]:
    """Running sums: entry u is the total of ``row[0..u]``."""
    out: list[int] = []
    acc = 0
    for value in row:
        acc += value
        out.append(acc)
    return tuple(out)
