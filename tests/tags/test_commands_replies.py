"""The replies to command problems: they quote the line safely and show a correct example."""

from __future__ import annotations

import re

import jinja2
import pytest

from pbp.errors import Problem
from pbp.render.environment import make_environment
from pbp.render.problems import render_problem
from pbp.tags.command_parser import parse_command_line
from pbp.tags.command_problems import BadCommandArguments
from pbp.tags.commands import COMMAND_WORDS
from pbp.tags.model import Source

_CODE_SPAN = re.compile(r"`(![^`]*)`")


@pytest.fixture(scope="module")
def env() -> jinja2.Environment:
    return make_environment()


def problem_of(line: str, *, gm: bool) -> Problem:
    source = Source(index=0, line=1, column=1, text=line)
    problem = parse_command_line(line, source=source, gm=gm)
    assert isinstance(problem, Problem)
    return problem


def render(env: jinja2.Environment, problem: Problem) -> str:
    return render_problem(problem, env=env)


def examples_in(reply: str) -> list[str]:
    """The commands a reply shows as correct examples (after its "for example:")."""
    _, marker, after = reply.lower().partition("for example:")
    assert marker, reply
    return _CODE_SPAN.findall(reply[len(reply) - len(after) :])


BAD_LINES = [
    "!close now",
    "!undo 2",
    "!deadline 48x",
    "!encounter dungeon",
    "!encounter end Aria",
    "!encounter d20 interval 1 day",
    "!npc body 2",
    "!group Aria",
    "!feature Door tn high",
    "!task Gate",
    "!oppose Gate four",
    "!bonus Aria lots",
    "!damage Aria soul 1",
    "!heal Aria mind x",
    "!rest day",
    "!void <abc>",
    "!campaign",
]
PROBLEM_LINES = [
    *((line, True) for line in BAD_LINES),
    ("!clsoe", True),
    ("!wow", True),
    ("!npc Imp body 2", False),
    ("!close", False),
]


@pytest.mark.parametrize(("line", "gm"), PROBLEM_LINES)
def test_every_reply_quotes_the_line_and_shows_examples_that_read(
    env: jinja2.Environment, line: str, gm: bool
) -> None:
    reply = render(env, problem_of(line, gm=gm))
    assert reply.startswith("> ")
    examples = examples_in(reply)
    assert examples
    for example in examples:
        source = Source(index=0, line=1, column=1, text=example)
        assert not isinstance(parse_command_line(example, source=source, gm=True), Problem)


@pytest.mark.parametrize("word", COMMAND_WORDS)
def test_a_bad_argument_reply_shows_an_example_of_that_same_command(
    env: jinja2.Environment, word: str
) -> None:
    problem = BadCommandArguments(tag=f"!{word} ???", command=word, found="???", expected="x")
    examples = examples_in(render(env, problem))
    assert examples and all(example.split()[0] == f"!{word}" for example in examples)


def test_the_suggestion_reply_names_the_closest_command(env: jinja2.Environment) -> None:
    reply = render(env, problem_of("!clsoe", gm=True))
    assert "`!close`" in reply
    assert "`!deadline`" not in reply  # no list when there is a suggestion


def test_an_unknown_command_without_a_suggestion_lists_every_command(
    env: jinja2.Environment,
) -> None:
    reply = render(env, problem_of("!wow", gm=True))
    assert all(f"`!{word}`" in reply for word in COMMAND_WORDS)


def test_the_refusal_names_the_command_and_what_players_can_use(
    env: jinja2.Environment,
) -> None:
    reply = render(env, problem_of("!close", gm=False))
    assert "`!close`" in reply
    assert all(f"`!{word}" in reply for word in ("help", "status", "sheet"))


@pytest.mark.parametrize(
    "line",
    [
        "!deadline [click](https://evil.example) u/victim",
        "!npc **Imp** body nine",
        "!bonus Aria r/spam",
        "!group > quote\n# heading",
    ],
)
def test_user_text_in_a_reply_cannot_link_mention_or_format(
    env: jinja2.Environment, line: str
) -> None:
    reply = render(env, problem_of(line, gm=True))
    assert "](" not in reply
    assert "https://" not in reply
    assert re.search(r"(?<!\\)\b[ur]/", reply) is None
    assert "**Imp**" not in reply
    assert "\n#" not in reply and "\n> quote" not in reply
