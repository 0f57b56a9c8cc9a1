"""Markdown structure (the way Reddit renders it) and what phones and editors do to text."""

from __future__ import annotations

import pytest
from tags_roster import context

from pbp.tags import format_tag, parse_post
from pbp.tags.model import SceneKind


def read(text: str) -> list[str]:
    parsed = parse_post(text, context=context())
    return [format_tag(tag) for tag in parsed.tags]


IGNORED = [
    "> [move: Door]",
    "> Aria said\nand then [move: Door]",  # a quote goes on over the following lines
    "> > nested [move: Door]",
    "`[move: Door]`",
    "``x [move: Door] y``",
    "```\n[move: Door]\n```",
    "~~~\n[move: Door]\n~~~",
    "    [move: Door]",
    "~~[move: Door]~~",
    "~~struck **[move: Door]** too~~",
    "[move: Door](https://example.com)",
    "![move: Door](https://example.com/door.png)",
    "<https://example.com/[move:Door]>",
]


@pytest.mark.parametrize("text", IGNORED)
def test_tags_in_quotes_code_strikethrough_and_links_are_not_read(text: str) -> None:
    parsed = parse_post(text, context=context())
    assert parsed.tags == () and parsed.problems == ()


def test_a_blank_line_ends_a_quote() -> None:
    assert read("> quoted [move: Wall]\n\n[move: Door]") == ["[move: Door]"]


def test_quoting_someones_tag_does_not_act_but_your_own_does() -> None:
    text = "> [physical: attack Aria | as Ogre]\n\nHa, the GM wrote that. [mental: attack Goblin]"
    assert read(text) == ["[mental: attack Goblin]"]


READ = [
    (">![move: Door]!<", "[move: Door]"),  # spoilers are not quotes
    ("A secret: >!I go [move: Door]!< there", "[move: Door]"),
    ("**[move: Door]**", "[move: Door]"),
    ("__[move: Door]__", "[move: Door]"),
    ("*[move: Door]*", "[move: Door]"),
    ("[*move*: Door]", "[move: Door]"),
    ("[**physical**: attack _Ogre_]", "[physical: attack Ogre]"),
    ("\\[move: Door\\]", "[move: Door]"),
    ("\\[physical: attack Goblin \\| bonus 2\\]", "[physical: attack Goblin, bonus 2]"),
    ("\\[move: Door\\] and \\*\\*bold\\*\\*", "[move: Door]"),
    ("\\[act: wave\\_hands\\]", None),  # a Distat scene has no act
    ("\uff3bmove\uff1a Door\uff3d", "[move: Door]"),  # full-width brackets and colon
    ("[move:\u00a0Door]", "[move: Door]"),  # no-break space
    ("[move:\u2003Door,\u2009body]", "[move: Door, body]"),  # em and thin spaces
    ("[move: Do\u200bor]", "[move: Door]"),  # zero-width space
    ("[physical: attack Goblin, bonus 2]", "[physical: attack Goblin, bonus 2]"),
    ("[physical: attack Goblin / bonus 2]", "[physical: attack Goblin, bonus 2]"),
    ("[p attack Goblin bonus 2]", "[physical: attack Goblin, bonus 2]"),
    ("# [move: Door]", "[move: Door]"),
    ("- [move: Door]", "[move: Door]"),
    ("| a | b |\n|---|---|\n| x | [move: Door] |", "[move: Door]"),
    ("[move: Door] [1]", "[move: Door]"),
]


@pytest.mark.parametrize(("text", "canonical"), READ)
def test_markup_and_typing_do_not_hide_a_tag(text: str, canonical: str | None) -> None:
    assert read(text) == ([canonical] if canonical else [])


def test_escaped_bang_starts_a_command_line() -> None:
    parsed = parse_post("\\!close", context=context(gm=True))
    assert [type(command).__name__ for command in parsed.commands] == ["CloseCommand"]


def test_curly_quotes_fold_to_straight() -> None:
    text = "[act: say \u201chello\u201d and \u2018bye\u2019]"
    (tag,) = parse_post(text, context=context(SceneKind.SKIRMISH)).tags
    assert format_tag(tag) == "[act: say \"hello\" and 'bye']"


def test_a_tag_cannot_span_lines_or_a_code_span() -> None:
    assert read("[move:\nDoor]") == []
    assert read("[move: `x` Door]") == []


def test_lines_and_columns_count_in_the_post() -> None:
    parsed = parse_post("First line.\n\nSecond **[move: Door]** here", context=context())
    (tag,) = parsed.tags
    assert (tag.source.line, tag.source.column) == (3, 10)
