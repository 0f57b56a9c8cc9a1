"""Dice notation: grammar, canonical text, limits and evaluation."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scripted_dice import ScriptedDice

from pbp.errors import PbpError
from pbp.rules.dice.notation import (
    MAX_CONSTANT,
    MAX_DICE,
    MAX_SIDES,
    MAX_TERMS,
    Constant,
    DiceResult,
    DiceTerm,
    DiceTermResult,
    DieResult,
    Notation,
    NotationError,
    Selection,
    SelectionKind,
    Term,
    bounds,
    evaluate,
    format_notation,
    parse_notation,
)
from pbp.rules.dice.seal import seed_from_int
from pbp.rules.dice.seeded import SeededDice

# ---------------------------------------------------------------------------------------------
# Strategies built from the grammar


@st.composite
def dice_terms(draw: st.DrawFn, *, max_count: int) -> DiceTerm:
    count = draw(st.integers(1, max_count))
    sides = draw(
        st.sampled_from([1, 2, 3, 4, 6, 8, 10, 12, 20, 100, MAX_SIDES]) | st.integers(1, MAX_SIDES)
    )
    explode = sides >= 2 and draw(st.booleans())
    selection = None
    kind = draw(st.none() | st.sampled_from(list(SelectionKind)))
    if kind is not None:
        low, high = kind.allowed(count)
        if low <= high:
            selection = Selection(kind=kind, count=draw(st.integers(low, high)))
    return DiceTerm(
        count=count, sides=sides, explode=explode, selection=selection, negative=draw(st.booleans())
    )


@st.composite
def notations(draw: st.DrawFn) -> Notation:
    size = draw(st.integers(1, MAX_TERMS))
    terms: list[Term] = []
    dice_left = MAX_DICE
    for _ in range(size):
        if dice_left and draw(st.booleans()):
            term = draw(dice_terms(max_count=min(dice_left, 12)))
            dice_left -= term.count
            terms.append(term)
        else:
            terms.append(
                Constant(value=draw(st.integers(0, MAX_CONSTANT)), negative=draw(st.booleans()))
            )
    return Notation(terms=tuple(terms))


class DrawnRoller:
    """A Roller whose every die is chosen by Hypothesis (any face, explosions included)."""

    def __init__(self, data: st.DataObject) -> None:
        self.data = data
        self.rolls: list[tuple[int, int]] = []

    def roll(self, sides: int) -> int:
        value = self.data.draw(st.integers(1, sides) | st.just(sides))
        self.rolls.append((sides, value))
        return value


# ---------------------------------------------------------------------------------------------
# Round trip and evaluation bounds


@settings(max_examples=200)
@given(notations())
def test_format_then_parse_gives_the_same_notation(notation: Notation) -> None:
    text = format_notation(notation)
    assert parse_notation(text) == notation


@settings(max_examples=200)
@given(notations(), st.data())
def test_evaluation_stays_within_bounds_for_any_dice(
    notation: Notation, data: st.DataObject
) -> None:
    roller = DrawnRoller(data)
    result = evaluate(notation, roller=roller)
    low, high = bounds(notation)
    assert low <= result.total <= high
    assert result.total == sum(t.subtotal for t in result.terms)


@settings(max_examples=200)
@given(notations(), st.integers(0, 10**6))
def test_evaluation_with_seeded_dice_stays_within_bounds(notation: Notation, n: int) -> None:
    result = evaluate(notation, roller=SeededDice(seed_from_int(n)).for_key("p", 0))
    low, high = bounds(notation)
    assert low <= result.total <= high


# ---------------------------------------------------------------------------------------------
# Reading


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("2d6+3", "2d6+3"),
        ("d20", "1d20"),
        ("D20 + 5", "1d20+5"),
        ("4d6kh3", "4d6kh3"),
        ("4d6 kh 3", "4d6kh3"),
        ("4d6 KH3", "4d6kh3"),
        ("2d20kl1", "2d20kl1"),
        ("4d6dl1", "4d6dl1"),
        ("5d10dh2", "5d10dh2"),
        ("d%", "1d100"),
        ("2d6+1d4-1", "2d6+1d4-1"),
        ("3d6!", "3d6!"),
        ("4d6!kh3", "4d6!kh3"),
        ("-1d4+2", "-1d4+2"),
        ("+7", "7"),
        ("  1d8 - 2 ", "1d8-2"),
    ],
)
def test_reads_the_notation_forms(text: str, canonical: str) -> None:
    assert format_notation(parse_notation(text)) == canonical


def test_reads_the_parts_of_a_term() -> None:
    assert parse_notation("2d6+1d4-1") == Notation(
        terms=(
            DiceTerm(count=2, sides=6),
            DiceTerm(count=1, sides=4),
            Constant(value=1, negative=True),
        )
    )
    assert parse_notation("4d6!kh3").terms == (
        DiceTerm(
            count=4,
            sides=6,
            explode=True,
            selection=Selection(kind=SelectionKind.KEEP_HIGHEST, count=3),
        ),
    )


@pytest.mark.parametrize(
    ("text", "position", "expected", "code"),
    [
        ("2d6+", 4, "a number or dice", "notation_syntax"),
        ("", 0, "a number or dice", "notation_syntax"),
        ("abc", 0, "a number or dice", "notation_syntax"),
        ("2d", 2, "number of sides", "notation_syntax"),
        ("2d6 3", 4, "'+', '-'", "notation_syntax"),
        ("4d6kh", 5, "how many dice to keep", "notation_syntax"),
        ("4d6k3", 3, "'+', '-'", "notation_syntax"),
        ("4d6kh3!", 6, "'+', '-'", "notation_syntax"),
        ("0d6", 0, "at least 1 die", "notation_invalid"),
        ("2d0", 2, "at least 1 side", "notation_invalid"),
        ("4d6kh5", 3, "kh 1 to 4 of 4 dice", "notation_invalid"),
        ("4d6dl4", 3, "dl 1 to 3 of 4 dice", "notation_invalid"),
        ("1d6dl1", 3, "at least 2 dice to drop", "notation_invalid"),
        ("3d1!", 3, "at least 2 sides to explode", "notation_invalid"),
    ],
)
def test_bad_notation_says_where_and_what_was_expected(
    text: str, position: int, expected: str, code: str
) -> None:
    with pytest.raises(NotationError) as caught:
        parse_notation(text)
    error = caught.value
    assert isinstance(error, PbpError)
    assert (error.text, error.position, error.code) == (text, position, code)
    assert expected in error.expected
    assert expected in str(error)


@pytest.mark.parametrize(
    ("text", "limit"),
    [
        ("1000d1000", "at most 100 dice in all"),
        ("101d6", "at most 100 dice in all"),
        ("60d6+41d4", "at most 100 dice in all"),
        ("1d1001", "at most 1000 sides"),
        ("+".join(["1d6"] * 11), "at most 10 terms"),
        ("1" * 101, "at most 100 characters"),
        ("10001", "a number up to 10000"),
        ("99999999999999999999999d6", "at most 100 dice in all"),
    ],
)
def test_hostile_expressions_are_refused_with_the_limit(text: str, limit: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_notation(text)
    assert caught.value.code == "notation_limit"
    assert limit in str(caught.value)


def test_limits_still_allow_the_largest_legal_expression() -> None:
    text = "+".join(["10d1000"] * 10)
    notation = parse_notation(text)
    assert bounds(notation) == (100, 100_000)


def test_a_notation_built_in_code_keeps_the_limits() -> None:
    with pytest.raises(ValueError):
        Notation(terms=tuple(DiceTerm(count=60, sides=6) for _ in range(2)))
    with pytest.raises(ValueError):
        DiceTerm(count=1, sides=1001)


# ---------------------------------------------------------------------------------------------
# Evaluation


def dice_of(result: DiceResult) -> tuple[DieResult, ...]:
    """The dice of the first term, which the test knows to be a dice term."""
    term = result.terms[0]
    assert isinstance(term, DiceTermResult)
    return term.dice


def test_keep_highest_marks_kept_and_dropped_dice() -> None:
    result = evaluate(parse_notation("4d6kh3"), roller=ScriptedDice([3, 6, 1, 5]).for_key("p"))
    assert [(d.value, d.kept) for d in dice_of(result)] == [
        (3, True),
        (6, True),
        (1, False),
        (5, True),
    ]
    assert result.total == 14


def test_keep_lowest_and_drops() -> None:
    def total(text: str, rolls: list[int]) -> int:
        return evaluate(parse_notation(text), roller=ScriptedDice(rolls).for_key("p")).total

    assert total("2d20kl1", [17, 4]) == 4
    assert total("4d6dl1", [3, 6, 1, 5]) == 14
    assert total("4d6dh1", [3, 6, 1, 5]) == 9
    # Equal dice: the earlier one is kept, the total is the same either way.
    result = evaluate(parse_notation("3d6kh1"), roller=ScriptedDice([4, 4, 2]).for_key("p"))
    assert [d.kept for d in dice_of(result)] == [True, False, False]


def test_exploding_die_rolls_again_on_its_maximum_and_adds() -> None:
    roller = ScriptedDice([6, 6, 2, 3]).for_key("p")
    result = evaluate(parse_notation("2d6!"), roller=roller)
    first, second = dice_of(result)
    assert first.rolls == (6, 6, 2)  # exploded: it rolled again after showing its maximum
    assert second.rolls == (3,)
    assert result.total == 17


def test_explosions_stop_at_twenty_per_die() -> None:
    dice = ScriptedDice([2] * 21 + [1])
    result = evaluate(parse_notation("2d2!"), roller=dice.for_key("p"))
    first, second = dice_of(result)
    assert len(first.rolls) == 21  # the first roll and 20 explosions
    assert second.rolls == (1,)
    assert result.total == 43
    assert dice.unused == 0


def test_exploded_dice_are_kept_or_dropped_whole() -> None:
    result = evaluate(parse_notation("2d6!kh1"), roller=ScriptedDice([6, 1, 5]).for_key("p"))
    first, second = dice_of(result)
    assert (first.value, first.kept, second.value, second.kept) == (7, True, 5, False)
    assert result.total == 7


def test_subtracted_terms_and_constants() -> None:
    result = evaluate(parse_notation("2d6+1d4-1"), roller=ScriptedDice([2, 5, 3]).for_key("p"))
    assert [t.subtotal for t in result.terms] == [7, 3, -1]
    assert result.total == 9
    assert evaluate(parse_notation("10-1d4"), roller=ScriptedDice([4]).for_key("p")).total == 6


def test_d_percent_rolls_a_hundred_sided_die() -> None:
    with pytest.raises(AssertionError, match="d100 cannot show"):
        evaluate(parse_notation("d%"), roller=ScriptedDice([101]).for_key("p"))
    assert evaluate(parse_notation("d%"), roller=ScriptedDice([100]).for_key("p")).total == 100
