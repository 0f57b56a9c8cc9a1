"""A post without Markdown is read without markdown-it; the answers are exactly the full path's.

Differential: every post text of the test corpus (each string in the tests, every post of the
event files) and Hypothesis texts full of Markdown and tag fragments are read both ways; the
tags, commands, problems and their positions must be equal, and so must the lines read.
"""

from __future__ import annotations

import ast
import importlib.util
import json
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tags_roster import context

from pbp.tags import ReadContext, parse_post
from pbp.tags.markdown import is_plain, markdown_lines, scannable, text_lines, without_quotes
from pbp.tags.model import SceneKind
from pbp.tags.normalize import normalise, protect_spoilers

ROOT = Path(__file__).resolve().parents[2]
CONTEXTS = [ReadContext(), *(context(kind) for kind in SceneKind), context(gm=True)]


@cache
def corpus() -> tuple[str, ...]:
    """Every string written in the tests and every post body of the repository's event files."""
    texts: set[str] = set()
    for path in (ROOT / "tests").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                texts.add(node.value)
    for path in [*(ROOT / "tests").rglob("*.jsonl"), *(ROOT / "examples").rglob("*.jsonl")]:
        for line in path.read_text(encoding="utf-8").splitlines():
            event = json.loads(line) if line.strip() else {}
            if isinstance(event, dict) and isinstance(event.get("body"), str):
                texts.add(event["body"])
    return tuple(sorted(texts))


def lines(text: str, *, full: bool) -> list[tuple[int, str, str]]:
    prepared = protect_spoilers(normalise(text))
    found = markdown_lines(prepared) if full else text_lines(prepared)
    return [(line.line, line.text, line.source) for line in found]


def assert_same(text: str) -> None:
    assert lines(text, full=False) == lines(text, full=True), text
    for read_in in CONTEXTS:
        assert parse_post(text, context=read_in) == parse_post(text, context=read_in, full=True), (
            text, read_in.scene, read_in.gm,
        )  # fmt: skip


def test_the_corpus_is_large_and_mostly_takes_the_fast_path() -> None:
    texts = corpus()
    plain = [text for text in texts if is_plain(protect_spoilers(normalise(text)))]
    assert len(texts) > 1000
    assert len(plain) > len(texts) // 2  # else the fast path would be tested on little


def test_every_text_of_the_corpus_reads_the_same_on_both_paths() -> None:
    for text in corpus():
        assert_same(text)


FRAGMENTS = [
    "[", "]", ":", " ", "  ", "\n", "\n\n", "\t", "move", "physical", "p", "attack", "Goblin",
    "gob", "Ogre", "Door", "bonus 2", "| ", ", ", "/", ";", "*", "**", "_", "`", "```", "~~",
    "\\", "&amp;", "&", "<", ">", "> ", "#", "# ", "-", "- ", "+ ", "1.", "1)", "===", "---",
    "|---|", "!", "!close", "!group Aria, Ogre", "![", "](", "][", "]:", "(", ")", "x",
    ">!", "!<", "\u00a0", "\uff3b", "\uff3d", "\u2019", "\u200b", "\x00", "\r\n", "    ",
    "[move: Door]", "[physical: attack Goblin]", "[p attack gob]", "[mentl: attack Ogre]",
    "[pass]", "[roll: 2d6]", "Aria", "é", "İ",
]  # fmt: skip
posts = st.lists(st.sampled_from(FRAGMENTS), max_size=30).map("".join)


@settings(max_examples=400, deadline=None)
@given(posts)
def test_markdown_and_tag_fragments_read_the_same_on_both_paths(text: str) -> None:
    assert_same(text)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80))
def test_any_text_reads_the_same_on_both_paths(text: str) -> None:
    assert_same(text)


@pytest.mark.parametrize(
    "text",
    [
        "Aria charges. [physical: attack Goblin]",
        "Two lines\nof prose [move: Door]  \nand a third",
        "First paragraph [pass]\n\nSecond one",
        "!group Aria, Ogre\nAria waits [pass]",
        "",
    ],
)
def test_plain_posts_take_the_fast_path(text: str) -> None:
    assert is_plain(protect_spoilers(normalise(text)))


@pytest.mark.parametrize(
    "text",
    [
        "`[move: Door]`", "> [move: Door]", "    [move: Door]", "*[move: Door]*",
        "\\[move: Door\\]", "[move: Door](https://example.com)", "[move: Door]: Door",
        "- [move: Door]", "a | b\n--|--\nx | [move: Door]", "# [move: Door]", "text\n===",
        "1. [move: Door]", "~~[move: Door]~~", "&amp; [move: Door]", "<https://x.org/>",
    ],
)  # fmt: skip
def test_posts_with_markdown_go_through_markdown_it(text: str) -> None:
    assert not is_plain(protect_spoilers(normalise(text)))


QUOTES_ONLY = [
    "> [physical: attack Goblin]\n\nAria quotes and thinks. [mental: attack Goblin]",
    "Aria answers.\n\n> Bram said [move: Door]\n> and more\n\n[pass]",
    "> > a quote in a quote [pass]\n>\n> *its* `code` # and ~~all~~\n\n[move: Door]  ",
    "> the quote ends the post [pass]",
]


@pytest.mark.parametrize("text", QUOTES_ONLY)
def test_posts_whose_only_markdown_is_quotes_take_the_quick_path(text: str) -> None:
    prepared = protect_spoilers(normalise(text))
    assert not is_plain(prepared) and without_quotes(prepared) is not None
    assert_same(text)


@pytest.mark.parametrize(
    "text",
    [
        "> a quote\nits lazy line [pass]",  # the quote's paragraph goes on
        "Prose\n> interrupted by a quote [pass]",
        "> [label]: https://example.com\n\n[label] [pass]",  # a definition reaches outside
        "> a quote\n>\nafter its blank line [pass]",
        "> a quote\n\n*emphasis* outside [pass]",
        " > an indented quote\n\n[pass]",
    ],
)
def test_other_quoted_posts_go_through_markdown_it(text: str) -> None:
    assert without_quotes(protect_spoilers(normalise(text))) is None
    assert_same(text)


# Posts as players write them: curly quotes and dashes, emphasis, quotes of earlier posts,
# exclamation marks in prose. Most are read by scanning their text (``scannable``).
PROSE_FRAGMENTS = [
    "\u201c", "\u201d", "\u2018", "\u2019", "\u2014", "\u2013", "\u2026", "\u00a0", "\u00ab",
    "\u2032", "\u2033", "\u200b", "\u0301", "e", "\u00e9", "!", "! ", "?", " ", "\n", "\n\n",
    "> ", "*", "**", "_", "__", "***", "*x*", "_y_", "word", "Aria", "Look out", "[", "]",
    ":", "[physical: attack Goblin]", "[m attack Gob]", "[move: Door]", "[p attack gob]",
    "[physical: *attack* Goblin]", "*[pass]*", "_[move: Door]_", "!close", "!group Aria, Ogre",
    "*!close*", ">!", "!<", "Edit: ", "2*3*4", "snake_case", "`", "~~", "\\", "\t", "1. ",
]  # fmt: skip
prose = st.lists(st.sampled_from(PROSE_FRAGMENTS), max_size=40).map("".join)


@settings(max_examples=500, deadline=None)
@given(prose)
def test_prose_with_curly_quotes_emphasis_and_quotes_reads_the_same_on_both_paths(
    text: str,
) -> None:
    assert_same(text)


@pytest.mark.parametrize(
    "text",
    [
        "She *ducks* under the swing. [physical: attack Goblin] **Now!**",
        "*[move: Door]* and _then_ [pass]",
        "**Whispers** \u201cstay back\u201d \u2014 [m attack Gob]\n\n_Later_, [pass]",
        "> \u201cquoted *with* emphasis\u201d [move: Door]\n\nShe grins! [pass]",
        "2*3*4 is snake_case [pass]",
    ],
)
def test_posts_whose_markdown_is_emphasis_outside_brackets_are_scanned(text: str) -> None:
    prepared = protect_spoilers(normalise(text))
    assert not is_plain(prepared) and scannable(prepared) is not None
    assert_same(text)


@pytest.mark.parametrize(
    "text",
    [
        "[physical: *attack* Goblin]",  # a marker inside a bracket drops out of the tag
        "* [pass]",  # a list item
        "***\n[pass]",  # a rule
        "*!close*\n[pass]",  # a command line once the markers drop out
        "__init__ `code` [pass]",
        "a\n  *indented* [pass]",
    ],
)
def test_posts_whose_emphasis_could_change_a_tag_are_not_scanned(text: str) -> None:
    assert scannable(protect_spoilers(normalise(text))) is None
    assert_same(text)


def test_the_benchmarks_realistic_posts_read_the_same_on_both_paths() -> None:
    spec = importlib.util.spec_from_file_location("corpus", ROOT / "benchmarks" / "corpus.py")
    assert spec is not None and spec.loader is not None
    generated = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generated)
    for text in generated.posts(600):
        assert_same(text)
