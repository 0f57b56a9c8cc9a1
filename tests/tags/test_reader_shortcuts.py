"""The reader's shortcuts give exactly the answers of the long way they stand for.

Normalising ASCII text skips NFKC and the translations (they change no ASCII character but a
few controls); ``is_plain`` looks for characters one by one instead of by regular expression;
an exact name in ASCII text is one match of the roster's expression; an exact name followed
by a separator or a stop word is taken without reading the words after it. Each is compared
with the long way (written out here as it was) on every ASCII character, the corpus, tag
fragments and Hypothesis texts.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import replace

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from test_fast_path import FRAGMENTS, corpus

from pbp.tags.cursor import Cursor, Names, Reject
from pbp.tags.markdown import is_plain
from pbp.tags.names import resolve_name
from pbp.tags.normalize import has_marks, normalise, normalise_any, protect_spoilers
from pbp.tags.post import _may_hold_commands

# is_plain as it was written first: one regular expression for inline constructs, one for the
# line starts that may open a block
_INLINE = re.compile(r"[`\\&*_~<\x00\x01\t]|\][(\[:]|!\[")
_BLOCK_START = re.compile(r"^[ >#=+\-*_`~|:]|^\d{1,9}[.)]", re.MULTILINE)
_MARKS = re.compile("[\ue000-\ue003]")


def plain_by_expression(text: str) -> bool:
    return _INLINE.search(text) is None and _BLOCK_START.search(text) is None


def assert_same(text: str) -> None:
    assert normalise(text) == normalise_any(text), repr(text)
    prepared = protect_spoilers(normalise(text))
    assert is_plain(prepared) == plain_by_expression(prepared), repr(text)
    assert has_marks(prepared) == (_MARKS.search(prepared) is not None), repr(text)


@pytest.mark.parametrize("code", range(128))
def test_every_ascii_character_anywhere_in_a_line(code: int) -> None:
    character = chr(code)
    for text in (character, f"a{character}b", f"[move: Door]{character}(x)", f"x\n{character}1"):
        assert_same(text)
        assert_same(f"{character}. [pass]\n{character}) y\n12{character} z")


def test_the_corpus() -> None:
    for text in corpus():
        assert_same(text)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=30).map("".join))
def test_markdown_and_tag_fragments(text: str) -> None:
    assert_same(text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=60))
def test_any_ascii_text(text: str) -> None:
    assert_same(text)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_any_text(text: str) -> None:
    assert_same(text)


# exact_name as it was written first: each length of name, longest first, lower-cased and
# looked up (the reader now matches ASCII text with one expression for the whole roster)
_WORD = re.compile(r"[^\s,|/;]+")


def exact_name_by_lengths(text: str, pos: int, candidates: tuple[str, ...]) -> str:
    groups: dict[int, dict[str, str]] = {}
    for name in candidates:
        if name:
            groups.setdefault(len(name), {}).setdefault(name.lower(), name)
    for length, lowered in sorted(groups.items(), reverse=True):
        end = pos + length
        name = lowered.get(text[pos:end].lower())
        if name is not None and (end == len(text) or not _WORD.match(text[end])):
            return name
    return ""


NAME_PIECES = ["Orc", "orc", "ORC", " ", "1", "10", "Chief", "Gob", "gob", "lin", "a", "K",
               "\u212a", "İ", "ß", "-", "'", ".", "(", "*", "+2"]  # fmt: skip
TEXT_PIECES = [*NAME_PIECES, ",", "|", "/", ";", "\t", "  ", "as", "bonus 2", "x"]
names_strategy = st.lists(st.sampled_from(NAME_PIECES), max_size=4).map(" ".join)
rosters = st.lists(names_strategy, max_size=8).map(tuple)


@st.composite
def roster_and_text(draw: st.DrawFn) -> tuple[tuple[str, ...], str]:
    """A roster, and a text of its names (whole, cut short, in another case) and other bits."""
    roster = draw(rosters)
    if roster and draw(st.booleans()):  # a name whose first words are another name
        roster = (*roster, f"{roster[0]} {draw(names_strategy)}".strip())
    first_words = [
        " ".join(words[:cut]) for words in (name.split(" ") for name in roster)
        for cut in range(1, len(words))
    ]  # fmt: skip
    written = [*TEXT_PIECES, *roster, *(name[: len(name) // 2] for name in roster),
               *(name.upper() for name in roster), *first_words]  # fmt: skip
    pieces = draw(st.lists(st.sampled_from(written), max_size=6))
    return roster, draw(st.sampled_from([" ", ""])).join(pieces)


@settings(max_examples=1000, deadline=None)
@given(roster_and_text(), st.data())
def test_an_exact_name_is_found_as_the_lookup_by_lengths_finds_it(
    written: tuple[tuple[str, ...], str], data: st.DataObject
) -> None:
    roster, text = written
    pos = data.draw(st.integers(min_value=0, max_value=len(text)))
    cursor = Cursor(text)
    cursor.pos = pos
    try:
        expected = exact_name_by_lengths(text, pos, roster)
    except IndexError:  # lower-casing made a slice past the end look like a name
        return
    assert cursor.exact_name(roster) == expected, (text, pos, roster)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("orc 10, bonus 2", "Orc 10"), ("ORC CHIEF", "Orc Chief"), ("orc 1", "Orc 1"),
     ("orc 1x", ""), ("orc chief|x", "Orc Chief"), ("k", "\u212a"), ("gob", "")],
)  # fmt: skip
def test_the_longest_exact_name_as_a_whole_word(text: str, expected: str) -> None:
    roster = ("Orc 1", "Orc 10", "Orc Chief", "orc 1", "\u212a", "Goblin")
    assert Cursor(text).exact_name(roster) == expected == exact_name_by_lengths(text, 0, roster)


class LongWayCursor(Cursor):
    """take_name as it was written first: the typed words are always read to compare."""

    def take_name(
        self, candidates: Sequence[str], *, names: Names, stop: Collection[str], kind: str,
        single_word: bool = False,
    ) -> str:  # fmt: skip
        self.skip_space()
        exact = self.exact_name(candidates)
        start = self.pos
        typed = self.take_word() if single_word else self.take_words(stop, signed_stops=True)
        if exact and (single_word or len(exact) >= len(typed)):
            self.pos = start + len(exact)
            return exact
        if not typed or not names.known:
            return typed
        found = resolve_name(typed, candidates=candidates)
        if isinstance(found, str):
            return found
        if exact:
            self.pos = start + len(exact)
            return exact
        raise Reject(replace(found, kind=kind))


def taken(cursor: Cursor, roster: tuple[str, ...], stop: frozenset[str]) -> tuple[object, int]:
    try:
        name: object = cursor.take_name(roster, names=Names(characters=roster), stop=stop,
                                        kind="character")  # fmt: skip
    except Reject as rejected:
        name = rejected.problem
    return name, cursor.pos


@pytest.mark.slow
@settings(max_examples=1000, deadline=None)
@given(roster_and_text())
@example((("Orc", "Orc 1 Chief"), "Orc 1"))
@example((("Orc", "Orc 1"), "orc 1 as"))
def test_a_name_is_taken_as_reading_every_typed_word_takes_it(
    written: tuple[tuple[str, ...], str],
) -> None:
    roster, text = written
    stop = frozenset({"as", "bonus", "x"})
    try:
        expected = taken(LongWayCursor(text), roster, stop)
    except IndexError:  # lower-casing made a slice past the end look like a name
        return
    assert taken(Cursor(text), roster, stop) == expected, (text, roster)


def test_a_name_that_lower_casing_lengthens_at_the_end_of_a_tag_is_read() -> None:
    """'İ' lower-cases to two characters: a roster name written with them matches a shorter
    spelling that ends the tag, and reading it never raises."""
    name = "i\u0307lkay"  # as lower-cased: i, combining dot above, l, k, a, y
    assert Cursor("\u0130lkay").exact_name([name]) == name


# Texts of the characters normalising reads one by one (curly quotes, dashes, ellipses), among
# ASCII and the characters that compose or fold with their neighbours.
_COMMON_MIX = st.text(
    alphabet=st.sampled_from(
        list("\u2018\u2019\u201c\u201d\u2014\u2013\u2026\u00a0\u2032\u2033\u200b\u2012\u00ab\u00bb")
        + list("ae !.\r\n\x01\x0b\x1f[]:")
        + ["\u0301", "\u0308", "\u00e9", "\uff3b", "\u2011"]
    ),
    max_size=40,
)


@settings(max_examples=400, deadline=None)
@given(_COMMON_MIX)
def test_text_with_curly_quotes_and_dashes(text: str) -> None:
    assert_same(text)


def may_hold_commands_by_searches(text: str) -> bool:
    """_may_hold_commands as it was written first: four searches of the whole text."""
    if "!" not in text:
        return False
    return text.startswith("!") or "\n!" in text or ">!" in text or "!<" in text


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(["!", "\n", ">", "<", "a", " ", "!<", ">!", "\n!"]), max_size=12))
def test_a_post_may_hold_commands_as_the_four_searches_say(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert _may_hold_commands(text) == may_hold_commands_by_searches(text), repr(text)
