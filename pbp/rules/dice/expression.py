"""The dice-notation AST, its canonical text, and its evaluation against a :class:`Roller`.

Parsing lives in :mod:`pbp.rules.dice.notation` (which re-exports everything here).

Evaluation order, so a roll can be recomputed: terms left to right; within a dice term, die by
die; an exploding die's extra rolls come right after it, before the next die.
"""

from __future__ import annotations

from enum import StrEnum

from pbp.rules.dice.source import Roller
from pbp.values import frozen_value

MAX_TEXT = 100
MAX_TERMS = 10
MAX_DICE = 100
MAX_SIDES = 1000
MAX_CONSTANT = 10_000
MAX_EXPLOSIONS = 20
"""Extra rolls one exploding die may make."""


class SelectionKind(StrEnum):
    """Keep or drop the highest or lowest dice."""

    KEEP_HIGHEST = "kh"
    KEEP_LOWEST = "kl"
    DROP_HIGHEST = "dh"
    DROP_LOWEST = "dl"

    @property
    def verb(self) -> str:
        """``keep`` or ``drop``."""
        return "keep" if self.value.startswith("k") else "drop"

    def allowed(self, dice: int) -> tuple[int, int]:
        """The counts this selection may name among ``dice`` dice (at least one die is kept)."""
        return (1, dice) if self.verb == "keep" else (1, dice - 1)


@frozen_value
class Selection:
    """``kh3`` and friends."""

    kind: SelectionKind
    count: int


@frozen_value
class DiceTerm:
    """``NdS`` with optional ``!`` and keep/drop; ``negative`` when it is subtracted."""

    count: int
    sides: int
    explode: bool = False
    selection: Selection | None = None
    negative: bool = False

    def __post_init__(self) -> None:
        if not (1 <= self.count <= MAX_DICE and 1 <= self.sides <= MAX_SIDES):
            raise ValueError(f"{self.count}d{self.sides} is outside the dice limits")
        if self.explode and self.sides < 2:
            raise ValueError("a one-sided die cannot explode")
        if self.selection is not None:
            low, high = self.selection.kind.allowed(self.count)
            if not low <= self.selection.count <= high:
                raise ValueError(f"cannot {self.selection.kind.verb} that many of {self.count}")

    @property
    def kept(self) -> int:
        """How many dice count towards the total."""
        match self.selection:
            case None:
                return self.count
            case Selection(kind=kind, count=n) if kind.verb == "keep":
                return n
            case Selection(count=n):
                return self.count - n
        raise AssertionError("unreachable")  # pragma: no cover


@frozen_value
class Constant:
    """A number added (or, when ``negative``, subtracted)."""

    value: int
    negative: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.value <= MAX_CONSTANT:
            raise ValueError(f"a constant must be 0 to {MAX_CONSTANT}, not {self.value}")


Term = DiceTerm | Constant


@frozen_value
class Notation:
    """A parsed dice expression: its terms in order."""

    terms: tuple[Term, ...]

    def __post_init__(self) -> None:
        # The limits hold for a Notation built in code too, not only for parsed text.
        if not 1 <= len(self.terms) <= MAX_TERMS:
            raise ValueError(f"a dice expression has 1 to {MAX_TERMS} terms")
        dice = sum(term.count for term in self.terms if isinstance(term, DiceTerm))
        if dice > MAX_DICE:
            raise ValueError(f"at most {MAX_DICE} dice in all, not {dice}")


def format_notation(notation: Notation) -> str:
    """The canonical text: explicit counts, compact keep/drop, no spaces (``4d6!kh3+2``)."""
    parts: list[str] = []
    for position, term in enumerate(notation.terms):
        if term.negative:
            parts.append("-")
        elif position:
            parts.append("+")
        parts.append(_format_term(term))
    return "".join(parts)


def _format_term(term: Term) -> str:
    match term:
        case Constant(value=value):
            return str(value)
        case DiceTerm(count=count, sides=sides, explode=explode, selection=selection):
            text = f"{count}d{sides}" + ("!" if explode else "")
            if selection is not None:
                text += f"{selection.kind.value}{selection.count}"
            return text
    raise AssertionError("unreachable")  # pragma: no cover


# ---------------------------------------------------------------------------------------------
# Evaluation


@frozen_value
class DieResult:
    """One die: every roll it made (more than one when it exploded), its value, kept or not."""

    rolls: tuple[int, ...]
    kept: bool

    @property
    def value(self) -> int:
        """The sum of the die's rolls."""
        return sum(self.rolls)


@frozen_value
class DiceTermResult:
    """A dice term's dice, and what it adds to the total (negative when subtracted)."""

    term: DiceTerm
    dice: tuple[DieResult, ...]
    subtotal: int


@frozen_value
class ConstantResult:
    """A constant and what it adds to the total."""

    term: Constant
    subtotal: int


TermResult = DiceTermResult | ConstantResult


@frozen_value
class DiceResult:
    """An evaluated expression: each term's result and the total."""

    notation: Notation
    terms: tuple[TermResult, ...]
    total: int


def evaluate(notation: Notation, *, roller: Roller) -> DiceResult:
    """Roll every die of ``notation`` with ``roller`` (in the documented order) and add up."""
    results: list[TermResult] = []
    for term in notation.terms:
        match term:
            case Constant(value=value, negative=negative):
                results.append(ConstantResult(term=term, subtotal=-value if negative else value))
            case DiceTerm():
                results.append(_roll_term(term, roller))
    return DiceResult(
        notation=notation, terms=tuple(results), total=sum(r.subtotal for r in results)
    )


def _roll_die(sides: int, *, explode: bool, roller: Roller) -> tuple[int, ...]:
    rolls = [roller.roll(sides)]
    while explode and rolls[-1] == sides and len(rolls) <= MAX_EXPLOSIONS:
        rolls.append(roller.roll(sides))
    return tuple(rolls)


def _roll_term(term: DiceTerm, roller: Roller) -> DiceTermResult:
    rolled = [_roll_die(term.sides, explode=term.explode, roller=roller) for _ in range(term.count)]
    kept = _kept_indices([sum(rolls) for rolls in rolled], term.selection)
    dice = tuple(DieResult(rolls=rolls, kept=i in kept) for i, rolls in enumerate(rolled))
    subtotal = sum(die.value for die in dice if die.kept)
    return DiceTermResult(term=term, dice=dice, subtotal=-subtotal if term.negative else subtotal)


def _kept_indices(values: list[int], selection: Selection | None) -> frozenset[int]:
    everything = range(len(values))
    if selection is None:
        return frozenset(everything)
    # Among equal values the earlier die is the one picked, so results are reproducible.
    highest_first = sorted(everything, key=lambda i: (-values[i], i))
    lowest_first = sorted(everything, key=lambda i: (values[i], i))
    n = selection.count
    match selection.kind:
        case SelectionKind.KEEP_HIGHEST:
            return frozenset(highest_first[:n])
        case SelectionKind.KEEP_LOWEST:
            return frozenset(lowest_first[:n])
        case SelectionKind.DROP_HIGHEST:
            return frozenset(highest_first[n:])
        case SelectionKind.DROP_LOWEST:
            return frozenset(lowest_first[n:])
    raise AssertionError("unreachable")  # pragma: no cover


def bounds(notation: Notation) -> tuple[int, int]:
    """The smallest and largest total ``notation`` can give (explosions at their cap)."""
    low = high = 0
    for term in notation.terms:
        match term:
            case Constant(value=value):
                term_low = term_high = value
            case DiceTerm(sides=sides, explode=explode):
                per_die = sides * (1 + MAX_EXPLOSIONS) if explode else sides
                term_low, term_high = term.kept, term.kept * per_die
        if term.negative:
            term_low, term_high = -term_high, -term_low
        low, high = low + term_low, high + term_high
    return low, high
