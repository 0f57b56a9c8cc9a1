"""Paying and banking action pips (RULES E4–E7, E9).

A pool of action dice is used once per interval: some dice pay an expenditure (whole, never
split: RULES E7), some are banked with one die discarded per die banked (RULES E5), the rest
are unused and lost when the interval ends. The bank is a fungible pip counter (RULES E6).

Every tuple of dice in a :class:`PoolUse` is sorted highest first.
"""

from __future__ import annotations

from collections.abc import Sequence

from pbp.values import frozen_value

FACES = (6, 5, 4, 3, 2, 1)


@frozen_value
class PoolUse:
    """What one interval did with its pool and the bank.

    Every die of the pool is in exactly one of ``paid``, ``banked``, ``discarded`` and
    ``unused``. ``bank_used`` is the pips drawn from the bank; ``target`` the pips the payment
    aimed at (0 for a pure bank).
    """

    paid: tuple[int, ...]
    bank_used: int
    banked: tuple[int, ...]
    discarded: tuple[int, ...]
    unused: tuple[int, ...]
    target: int

    def __post_init__(self) -> None:
        for die in (*self.paid, *self.banked, *self.discarded, *self.unused):
            _check_die(die)
        if self.bank_used < 0 or self.target < 0:
            raise ValueError("bank_used and target cannot be negative")

    @property
    def pips_paid(self) -> int:
        """Pips paid toward the target: the paid dice and the bank pips drawn."""
        return sum(self.paid) + self.bank_used

    @property
    def banked_pips(self) -> int:
        """Pips this interval adds to the bank (usable from the next interval on)."""
        return sum(self.banked)

    @property
    def wasted(self) -> int:
        """Pips paid beyond the target (RULES E7: overpayment is lost, never banked)."""
        if self.pips_paid == 0:
            return 0
        return max(0, self.pips_paid - self.target)


def _check_die(die: int) -> None:
    if not 1 <= die <= 6:
        raise ValueError(f"an action die shows 1 to 6, not {die}")


def _counts(dice: Sequence[int]) -> dict[int, int]:
    counts = dict.fromkeys(FACES, 0)
    for die in dice:
        _check_die(die)
        counts[die] += 1
    return counts


def _remove(dice: Sequence[int], taken: Sequence[int]) -> tuple[int, ...]:
    """``dice`` less the multiset ``taken``, highest first."""
    rest = sorted(dice, reverse=True)
    for die in taken:
        rest.remove(die)
    return tuple(rest)


def least_waste(dice: Sequence[int], *, need: int) -> tuple[int, ...] | None:
    """The dice to pay ``need`` pips with (RULES E7: dice pay whole, overpayment is wasted).

    Chooses, in this order: the least waste (sum - need); then the fewest dice; then the
    lowest dice, i.e. the highest-first tuple that is lexicographically smallest (so the big
    dice stay unused, where a later bank can still use them). Returned highest first.
    ``None`` when ``sum(dice) < need``; ``()`` when ``need <= 0``.

    A bounded subset-sum over the counts of each face: every reachable sum keeps its best
    choice of counts, so 60 dice take a few thousand steps, not 2**60.
    """
    counts = _counts(dice)
    total = sum(dice)
    if need <= 0:
        return ()
    if total < need:
        return None
    best = _best_choices(counts, total=total)
    reach = next(s for s in range(need, total + 1) if best[s] is not None)
    code = best[reach]
    assert code is not None  # reach was picked for it
    base = len(dice) + 1
    paid: list[int] = []
    for slot, face in enumerate(FACES, start=1):
        paid.extend([face] * ((code // base ** (6 - slot)) % base))
    return tuple(paid)


# A choice of dice is coded as one integer with digits (in base len(dice) + 1): number of
# dice, number of 6s, of 5s, …, of 1s. Integer order is exactly the order of preference above
# (fewer dice, then fewer high dice), and it is kept when the same choice is added to both
# sides, so the best choice per sum can be built face by face.


def _best_choices(counts: dict[int, int], *, total: int) -> list[int | None]:
    """For every sum 0..total, the code of the preferred dice reaching it exactly (or None)."""
    base = sum(counts.values()) + 1
    best: list[int | None] = [None] * (total + 1)
    best[0] = 0
    for slot, face in enumerate(FACES, start=1):
        one_die = base**6 + base ** (6 - slot)  # one more die, one more of this face
        grown: list[int | None] = [None] * (total + 1)
        for start, code in enumerate(best):
            if code is None:
                continue
            for used in range(min(counts[face], (total - start) // face) + 1):
                reach, candidate = start + used * face, code + used * one_die
                current = grown[reach]
                if current is None or candidate < current:
                    grown[reach] = candidate
        best = grown
    return best


def spend(dice: Sequence[int], *, need: int, bank: int) -> PoolUse | None:
    """Pay ``need`` pips: dice first, then the bank (RULES E6, E7).

    If the dice alone reach ``need``, pay the :func:`least_waste` dice and draw nothing from
    the bank: the dice are lost at the interval's end anyway, banked pips persist. Otherwise
    pay every die and draw exactly the shortfall from the bank (RULES E6: any amount may be
    drawn, the rest stays banked), wasting nothing. ``None`` when dice and bank together fall
    short. Dice not paid are ``unused``.
    """
    if bank < 0:
        raise ValueError(f"the bank cannot be negative ({bank})")
    target = max(0, need)
    paid = least_waste(dice, need=target)
    if paid is not None:
        return PoolUse(
            paid=paid,
            bank_used=0,
            banked=(),
            discarded=(),
            unused=_remove(dice, paid),
            target=target,
        )
    shortfall = target - sum(dice)
    if shortfall > bank:
        return None
    everything = tuple(sorted(dice, reverse=True))
    return PoolUse(
        paid=everything, bank_used=shortfall, banked=(), discarded=(), unused=(), target=target
    )


def spend_all(dice: Sequence[int], *, bank: int) -> PoolUse:
    """Pay every die and the whole bank; the target is that total, so nothing is wasted."""
    if bank < 0:
        raise ValueError(f"the bank cannot be negative ({bank})")
    _counts(dice)
    everything = tuple(sorted(dice, reverse=True))
    return PoolUse(
        paid=everything,
        bank_used=bank,
        banked=(),
        discarded=(),
        unused=(),
        target=sum(everything) + bank,
    )


def bank_best(dice: Sequence[int]) -> PoolUse:
    """Bank the highest half of the pool, discarding the lowest half (RULES E5).

    RULES E5: one die discarded per die banked, so k = len // 2 dice are banked and k
    discarded; the middle die of an odd pool is unused (lost at the interval's end).
    Example: [6, 6, 4, 2, 1] banks the two 6s (12 pips), discards 2 and 1, and loses the 4.
    """
    _counts(dice)
    ordered = tuple(sorted(dice, reverse=True))
    k = len(ordered) // 2
    return PoolUse(
        paid=(),
        bank_used=0,
        banked=ordered[:k],
        discarded=ordered[len(ordered) - k :],
        unused=ordered[k : len(ordered) - k],
        target=0,
    )


def auto(dice: Sequence[int], *, dc: int | None, bank: int, opposition: int = 0) -> PoolUse:
    """The default use of a pool: pay the DC if it can be met now, else bank the best dice.

    RULES E9: the GM's opposition pips are subtracted from the payment, so meeting the DC
    under opposition means paying ``dc + opposition``. An unknown DC (``None``) always banks.
    """
    if dc is not None:
        payment = spend(dice, need=dc + max(0, opposition), bank=bank)
        if payment is not None:
            return payment
    return bank_best(dice)


def meets(*, paid: int, opposition: int, dc: int) -> bool:
    """Whether a payment succeeds (RULES E4: meet or exceed; RULES E9: opposition subtracts)."""
    return paid - opposition >= dc
