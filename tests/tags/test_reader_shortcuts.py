"""The reader's shortcuts give exactly the answers of the plain way they stand for.

Normalising ASCII text skips NFKC and the translations (they change no ASCII character but a
few controls); ``is_plain`` looks for characters one by one instead of by regular expression;
the fast path is compared with these references on every ASCII character, the corpus's
fragments and Hypothesis texts.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_fast_path import FRAGMENTS, corpus

from pbp.tags.markdown import is_plain
from pbp.tags.normalize import has_marks, normalise, normalise_any, protect_spoilers

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
