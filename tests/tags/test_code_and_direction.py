"""A tag holding inline code is reported, not dropped; direction controls never reach a reply
(issue 15)."""

from __future__ import annotations

import pytest
from tags_roster import context

from pbp.render.environment import make_environment
from pbp.render.problems import render_problem_reply
from pbp.tags import parse_post
from pbp.tags.problems import CodeInTag, UnknownName


@pytest.mark.parametrize(
    ("text", "written", "column"),
    [
        ("Aria [move: `Door`] now", "[move: `Door`]", 6),
        ("[p attack `Goblin 1` | bonus 2]", "[p attack `Goblin 1` | bonus 2]", 1),
        ("x [physical: attack ``Og`re``]", "[physical: attack ``Og`re``]", 3),
        ("[moev: `Door`]", "[moev: `Door`]", 1),
    ],
)
def test_a_tag_holding_code_is_reported_with_the_tag_to_write(
    text: str, written: str, column: int
) -> None:
    parsed = parse_post(text, context=context())
    assert parsed.tags == ()
    (problem,) = parsed.problems
    assert isinstance(problem, CodeInTag)
    assert (problem.tag, problem.line, problem.column) == (written, 1, column)
    reply = render_problem_reply(parsed.problems, env=make_environment(None))
    assert f"the tag reads `{written.replace('`', '')}`" in reply


def test_a_code_span_crossing_lines_inside_a_tag_is_reported() -> None:
    parsed = parse_post("Aria goes [move: `Do\nor`] and\nthen [pass]", context=context())
    assert [type(p) for p in parsed.problems] == [CodeInTag]
    assert parsed.problems[0].line == 1
    reply = render_problem_reply(parsed.problems, env=make_environment(None))
    assert "without backticks" in reply


@pytest.mark.parametrize("text", ["[see `foo`]", "`[move: Door]`", "[`x` marks the spot]"])
def test_code_in_prose_or_a_whole_tag_in_code_is_still_nothing(text: str) -> None:
    parsed = parse_post(text, context=context())
    assert parsed.tags == () and parsed.problems == ()


def test_direction_controls_are_stripped_before_reading() -> None:
    parsed = parse_post("[p attack \u202eGob\u2066lin\u2069 Archer\u202c]", context=context())
    assert parsed.problems == () and parsed.tags[0].parts[0].target == "Goblin Archer"  # type: ignore[union-attr]


def test_a_name_echoed_in_a_reply_carries_no_direction_control() -> None:
    parsed = parse_post("[physical: attack \u202enilbog\u202c]", context=context())
    (problem,) = parsed.problems
    assert isinstance(problem, UnknownName)
    reply = render_problem_reply(parsed.problems, env=make_environment(None))
    for control in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f":
        assert control not in problem.tag + problem.name + reply
    assert '"nilbog"' in reply
