"""The quick reading of the commonest actions (``attack NAME``, ``restrain NAME``, with at
most a bonus) gives exactly what reading the body word by word gives, and only for bodies it
can read whole: everything else is read the whole way."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import pbp.tags  # noqa: F401  (the tag registry first: it imports the rulesets' grammars)
from pbp.rulesets.distat.tags import (
    ActionPart,
    ActionTag,
    Maneuver,
    _quick_action,
    read_action,
    read_action_whole,
)
from pbp.tags.cursor import Names, Reject
from pbp.tags.model import Source
from pbp.tags.names import named, resolve_name

SOURCE = Source(index=0, line=1, column=1, text="[physical: attack Goblin]")
ROSTER = ("Aria", "Bram", "Cora", "Dax", "Goblin")


def whole(verb: str, body: str, roster: tuple[str, ...]) -> object:
    """What reading word by word gives: the tag, or the problem that stops it."""
    try:
        return read_action_whole(verb, body, source=SOURCE, names=Names(characters=roster))
    except Reject as rejected:
        return rejected.problem


def read(verb: str, body: str, roster: tuple[str, ...]) -> object:
    try:
        return read_action(verb, body, source=SOURCE, names=Names(characters=roster))
    except Reject as rejected:
        return rejected.problem


def quick(verb: str, body: str, roster: tuple[str, ...]) -> ActionTag | None:
    return _quick_action(verb, body, source=SOURCE, names=Names(characters=roster))


@pytest.mark.parametrize(
    ("body", "target", "bonus"),
    [(" attack Goblin", "Goblin", 0), ("attack goblin", "Goblin", 0), (" ATTACK Gob", "Goblin", 0),
     (" attack Goblin, bonus 1", "Goblin", 1), (" attack Goblin | bonus 2", "Goblin", 2),
     (" attack Goblin bonus +3 ", "Goblin", 3), (" restrain Aria /", "Aria", 0),
     (" attack Goblin,", "Goblin", 0), (" attack\tDax\t", "Dax", 0)],
)  # fmt: skip
def test_the_common_actions_are_read_quickly_and_the_same(
    body: str, target: str, bonus: int
) -> None:
    found = quick("physical", body, ROSTER)
    assert found is not None
    maneuver = Maneuver.RESTRAIN if "restrain" in body else Maneuver.ATTACK
    assert found == ActionTag(
        source=SOURCE,
        stat="body",
        parts=(ActionPart(maneuver=maneuver, target=target),),
        bonus=bonus,
    )
    assert found == whole("physical", body, ROSTER)


@pytest.mark.parametrize(
    "body",
    [" attack Gobiln", " atack Goblin", " attack Goblin; restrain Aria", " attack Goblin with 2",
     " attack Goblin as Aria", " attack Goblin, bonus", " attack Goblin, bonus 1, bonus 2",
     " attack Goblin bonus 1234567", " attack Goblin bonus, 2", " attack Goblin quickly",
     " attack", " attack bonus 2", " attack +2", " attack Ærin", " escape", " attack,Goblin",
     ", attack Goblin", " attack Goblin bonus 2x"],
)  # fmt: skip
def test_any_other_body_is_left_to_the_whole_way(body: str) -> None:
    assert quick("physical", body, (*ROSTER, "Ærin")) is None


def test_without_names_nothing_is_read_quickly() -> None:
    assert quick("mental", " attack Goblin", ()) is None


NAME_PIECES = ["Orc", "orc", "Gob", "gob", "lin", "Chief", "1", "10", "bonus", "with", "as",
               "on", "vs", "+2", "-", "'", ".", "K", "\u212a", "é", "x"]  # fmt: skip
names = st.lists(st.sampled_from(NAME_PIECES), min_size=1, max_size=3).map(" ".join)
rosters = st.lists(names, max_size=6).map(tuple)
BODY_PIECES = ["attack", "Attack", "ATTACK", "restrain", "escape", "feat", "use", " ", "  ",
               "\t", ",", "|", "/", ";", "bonus", "BONUS", "2", "+3", "-2", "0", "1234567",
               "with", "as", "on", "vs", "x", "é", ", bonus 1", " | bonus 2"]  # fmt: skip


@st.composite
def roster_and_body(draw: st.DrawFn) -> tuple[tuple[str, ...], str]:
    """A roster, and a body of the roster's names (whole, cut short, in another case) among
    maneuvers, separators, options and numbers."""
    roster = draw(rosters)
    written = [*BODY_PIECES, *roster, *(n[: max(1, len(n) // 2)] for n in roster),
               *(n.upper() for n in roster)]  # fmt: skip
    pieces = draw(st.lists(st.sampled_from(written), max_size=7))
    body = draw(st.sampled_from([" ", ""])).join(pieces)
    return roster, draw(st.sampled_from(["", " ", "attack ", " restrain "])) + body


VERBS = ["physical", "mental"]
LEADS = ["", " ", "  ", "\t", ","]
MANEUVERS = ["attack", "Attack", "RESTRAIN", "restrain", "escape", "atack", "attack,"]
GAPS = [" ", "  ", "\t", "", ",", " ,"]
TAILS = ["", " ", "\t", ",", " ,", " /", ", bonus 1", " | bonus 2", " bonus +3", " BONUS 0 ",
         " bonus", " bonus 1234567", " bonus 2x", " bonus, 2", ", bonus 1, bonus 2", " bonus -2",
         " with 2", " as Aria", " quickly", ";", "; restrain Orc", " x", " +2", "é"]  # fmt: skip


@st.composite
def roster_and_shaped_body(draw: st.DrawFn) -> tuple[tuple[str, ...], str]:
    """A roster, and a body shaped like the common actions, one piece at a time slightly
    off: the lead, the maneuver, the gap, a name (whole, cut short, in another case, two
    names, or none of them), the tail."""
    roster = draw(rosters)
    named = [*roster, *(n[: max(1, len(n) // 2)] for n in roster), *(n.upper() for n in roster),
             *(f"{a} {b}" for a, b in itertools.pairwise(roster)), "Orc", "x", ""]  # fmt: skip
    return roster, "".join(
        draw(st.sampled_from(choices)) for choices in (LEADS, MANEUVERS, GAPS, named, TAILS)
    )


@settings(max_examples=2000, deadline=None)
@given(st.one_of(roster_and_body(), roster_and_shaped_body()), st.sampled_from(VERBS))
@example((("Gob bonus", "Gob"), " attack Gob bonus 2"), "physical")  # the longest name, or none
@example((("Orc", "Orc Chief"), " attack orc chief, bonus 2"), "mental")
@example((("Orc 1", "Orc 10"), " attack Orc 1, bonus 1"), "physical")
@example((("Goblin", "Goblin King"), " attack Gob"), "physical")  # a prefix of two: the whole way
@example((("bonus Orc",), " attack bonus"), "physical")  # a stop word is no name's start
@example((("+2 Orc",), " attack +2"), "physical")  # nor is a modifier
def test_the_quick_reading_is_the_whole_reading(
    written: tuple[tuple[str, ...], str], verb: str
) -> None:
    roster, body = written
    expected = whole(verb, body, roster)
    found = quick(verb, body, roster)
    if found is not None:
        assert found == expected, (body, roster)
    assert read(verb, body, roster) == expected, (body, roster)


@settings(max_examples=500, deadline=None)
@given(rosters, st.sampled_from([*NAME_PIECES, "", " ", "o", "G", "gob lin"]))
def test_a_name_is_named_where_resolving_it_gives_a_name(
    roster: tuple[str, ...], written: str
) -> None:
    resolved = resolve_name(written, candidates=roster)
    assert named(written, candidates=roster) == (resolved if isinstance(resolved, str) else None)
