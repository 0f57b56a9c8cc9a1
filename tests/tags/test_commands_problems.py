"""What a command line that does not act gives: a refusal, a suggestion, bad arguments, prose."""

from __future__ import annotations

import pytest

from pbp.tags.command_parser import PLAYER_COMMANDS, parse_command_line
from pbp.tags.command_problems import BadCommandArguments, NotGm, UnknownCommand
from pbp.tags.commands import COMMAND_WORDS
from pbp.tags.model import Source


def source_of(line: str) -> Source:
    return Source(index=0, line=3, column=5, text=line)


def read(line: str, *, gm: bool = True) -> object:
    return parse_command_line(line, source=source_of(line), gm=gm)


@pytest.mark.parametrize("word", sorted(set(COMMAND_WORDS) - PLAYER_COMMANDS))
def test_a_player_gets_a_refusal_for_every_gm_command(word: str) -> None:
    line = f"!{word.upper()} Aria body 1"
    assert read(line, gm=False) == NotGm(tag=line, line=3, column=5, command=word)


def test_a_players_gm_command_is_refused_before_its_arguments_are_read() -> None:
    assert read("!deadline tomorrow-ish", gm=False) == NotGm(
        tag="!deadline tomorrow-ish", line=3, column=5, command="deadline"
    )


@pytest.mark.parametrize(
    ("line", "suggestion"),
    [
        ("!clsoe", "close"),
        ("!colse", "close"),
        ("!Clos", "close"),
        ("!deadlin 48h", "deadline"),
        ("!encouter abstract", "encounter"),
        ("!npcc Imp body 1", "npc"),
        ("!gruop A, B", "group"),
        ("!udno", "undo"),
        ("!hlep", "help"),
        ("!sheets", "sheet"),
        ("!wow", None),
        ("!excellent", None),
        ("!Ça", None),
    ],
)
def test_an_unknown_command_from_the_gm_gets_the_closest_word(
    line: str, suggestion: str | None
) -> None:
    word = line[1:].split()[0]
    assert read(line) == UnknownCommand(
        tag=line, line=3, column=5, word=word, suggestion=suggestion, known=COMMAND_WORDS
    )


@pytest.mark.parametrize(
    "line",
    [
        "!wow",
        "!wow, great post",
        "!clsoe",  # a player's typo of a GM command is prose too
        "!hlep",
        "!Ça va",
    ],
)
def test_a_players_unknown_bang_word_is_prose(line: str) -> None:
    assert read(line, gm=False) is None


@pytest.mark.parametrize(
    "line", ["!", "! close", "!  ", "!!!", "!!", "!?", "!123", "!d20", "!close-ish", "!..."]
)
@pytest.mark.parametrize("gm", [True, False])
def test_a_bang_without_a_word_is_prose_for_everyone(line: str, gm: bool) -> None:
    assert read(line, gm=gm) is None


def test_a_line_that_does_not_start_with_a_bang_is_prose() -> None:
    assert read("close", gm=True) is None


def test_the_problem_quotes_the_line_as_written_in_the_post() -> None:
    source = Source(index=0, line=4, column=3, text="!Deadline  48x")
    problem = parse_command_line("!deadline 48x", source=source, gm=True)
    assert problem == BadCommandArguments(
        tag="!Deadline  48x",
        line=4,
        column=3,
        command="deadline",
        found="48x",
        expected="a duration like 48h, a time like 2026-12-02 18:00 UTC, or off",
    )


# The line, the command word, and the part that went wrong ("" when something is missing).
BAD_ARGUMENTS: list[tuple[str, str, str]] = [
    ("!close now", "close", "now"),
    ("!undo 2", "undo", "2"),
    ("!deadline", "deadline", ""),
    ("!deadline 48x", "deadline", "48x"),
    ("!deadline 0m", "deadline", "0m"),
    ("!deadline 400d", "deadline", "400d"),
    ("!deadline tomorrow", "deadline", "tomorrow"),
    ("!deadline 2026-13-02 18:00 UTC", "deadline", "2026-13-02 18:00 UTC"),
    ("!encounter", "encounter", ""),
    ("!encounter dungeon", "encounter", "dungeon"),
    ("!encounter abstract interval", "encounter", ""),
    ("!encounter abstract interval soon", "encounter", "soon"),
    ("!encounter abstract interval 1 day interval 2 days", "encounter", "interval"),
    ("!encounter d20 interval 1 day", "encounter", "interval"),
    ("!encounter distat pressure on", "encounter", "pressure"),
    ("!encounter d20 pressure maybe", "encounter", "maybe"),
    ("!encounter skirmish ambush", "encounter", "ambush"),
    ("!encounter skirmish now", "encounter", "now"),
    ("!encounter end medic", "encounter", "medic"),
    ("!encounter end Aria", "encounter", "Aria"),
    ("!encounter end medic Aria medic Dax", "encounter", "medic"),
    ("!npc", "npc", ""),
    ("!npc body 2 mind 1", "npc", "body"),
    ("!npc Imp body", "npc", ""),
    ("!npc Imp body two", "npc", "two"),
    ("!npc Imp body -1", "npc", "-1"),
    ("!npc Imp body 1000", "npc", "1000"),
    ("!npc Imp body 2 body 3", "npc", "body"),
    ("!npc Imp body 2 2", "npc", "2 2"),
    ("!npc Imp side", "npc", "side"),
    ("!npc Imp hp 99999999999999", "npc", "99999999999999"),
    ("!group Aria", "group", "Aria"),
    ("!group", "group", ""),
    ("!group Aria Bram", "group", "Aria Bram"),
    ("!feature", "feature", ""),
    ("!feature tn 4", "feature", ""),
    ("!feature Door tn", "feature", ""),
    ("!feature Door tn high", "feature", "high"),
    ("!task Gate", "task", ""),
    ("!task dc 40", "task", ""),
    ("!task Gate dc 0", "task", "0"),
    ("!task Gate dc 40 secret please", "task", "please"),
    ("!oppose Gate", "oppose", "Gate"),
    ("!oppose 4d6", "oppose", "4d6"),
    ("!oppose Gate four", "oppose", "four"),
    ("!oppose Gate 0d6", "oppose", "0d6"),
    ("!oppose Gate 4d1", "oppose", "4d1"),
    ("!oppose Gate 500d6", "oppose", "500d6"),
    ("!bonus Aria", "bonus", "Aria"),
    ("!bonus +2", "bonus", "+2"),
    ("!bonus Aria lots", "bonus", "lots"),
    ("!bonus Aria +1000", "bonus", "+1000"),
    ("!damage Aria 1", "damage", "Aria 1"),
    ("!damage Aria body", "damage", "Aria body"),
    ("!damage Aria soul 1", "damage", "soul 1"),
    ("!damage Aria body body", "damage", "body body"),
    ("!heal Aria mind x", "heal", "x"),
    ("!rest", "rest", ""),
    ("!rest day", "rest", "day"),
    ("!void", "void", ""),
    ("!void https://example.com/", "void", "https://example.com/"),
    ("!void <abc>", "void", "<abc>"),
    ("!campaign", "campaign", ""),
]


@pytest.mark.parametrize(("line", "command", "found"), BAD_ARGUMENTS)
def test_bad_arguments_name_the_command_and_what_was_found(
    line: str, command: str, found: str
) -> None:
    problem = read(line)
    assert isinstance(problem, BadCommandArguments)
    assert (problem.tag, problem.line, problem.column) == (line, 3, 5)
    assert (problem.command, problem.found) == (command, found)
    assert problem.expected  # what would have been right there, for the reply


def test_a_negative_body_is_refused_but_a_negative_correction_is_not() -> None:
    assert isinstance(read("!npc Imp body -1"), BadCommandArguments)
    assert not isinstance(read("!damage Imp body -1"), BadCommandArguments)
