"""A whole post -> its tags, commands and problems (SPEC §2): the reader's entry point."""

from __future__ import annotations

import functools
import importlib
import re
from collections.abc import Callable, Iterator

from pbp.errors import Problem
from pbp.tags.commands import Command
from pbp.tags.cursor import Names
from pbp.tags.markdown import BREAK, CODE, TextLine, column_of, scannable, text_lines
from pbp.tags.model import SceneKind, Source
from pbp.tags.normalize import has_marks, normalise, protect_spoilers, strip_marks
from pbp.tags.problems import PostTooLong, TooManyTags
from pbp.tags.reader import Bracket, read_bracket, readings_of
from pbp.tags.registry import Tag
from pbp.values import frozen_value

PLAYER_TAG_LIMIT = 20
GM_TAG_LIMIT = 100
POST_LENGTH_LIMIT = 10_000
_BRACKET = re.compile(r"\[([^\[\]" + BREAK + r"]*)\]")
_PLAIN_BRACKET = re.compile(r"\[([^\[\]\n]*)\]")  # the same on a whole plain post (no BREAK there)

CommandParser = Callable[..., "Command | Problem | None"]


@frozen_value
class ReadContext:
    """What the reader needs to know about the scene and the author."""

    scene: SceneKind = SceneKind.DISTAT
    characters: tuple[str, ...] = ()  # every character name in the scene (roster + NPCs)
    features: tuple[str, ...] = ()  # feature names (doors, walls) of the scene
    talents: tuple[str, ...] = ()  # talent names that `use TALENT` may name
    tasks: tuple[str, ...] = ()  # abstract task names
    gm: bool = False  # the author is a GM (100-tag limit; commands)


@frozen_value
class ParsedPost:
    """Everything a post holds, in post order."""

    tags: tuple[Tag, ...]  # in the order they appear; Source.index numbers them from 0
    commands: tuple[Command, ...]  # in line order
    problems: tuple[Problem, ...]  # every problem of a tag or a command line, in post order


_NOTHING = ParsedPost(tags=(), commands=(), problems=())


def parse_post(text: str, *, context: ReadContext, full: bool = False) -> ParsedPost:
    """Read a post: normalise, find its Markdown structure, read every tag and command line.

    Never raises on any text. A post over the length or tag limit gets one problem and
    nothing in it acts. ``full`` is the reference path the fast one is tested against (the
    answers are the same): every post through markdown-it, every bracket read afresh.
    """
    if len(text) > POST_LENGTH_LIMIT:
        too_long = PostTooLong(tag="", line=1, column=1, length=len(text), limit=POST_LENGTH_LIMIT)
        return ParsedPost(tags=(), commands=(), problems=(too_long,))
    names = _names(context)
    readings = None if full else readings_of(context.scene, names)
    tags: list[Tag] = []
    commands: list[Command] = []
    problems: list[Problem] = []
    attempts = 0  # tags meant as tags, read or rejected
    text = normalise(text)
    if "[" not in text and "!" not in text:  # no tag, no command line
        return _NOTHING
    scan = None if full or _may_hold_commands(text) else scannable(text)
    if scan is not None:  # most posts: plain prose, emphasis, quotes of earlier posts
        brackets = _plain_brackets(scan)
    else:
        brackets = _line_brackets(text, context=context, commands=commands, problems=problems,
                                  full=full)  # fmt: skip
    for bracket in brackets:
        found = read_bracket(
            bracket, scene=context.scene, names=names, index=len(tags), readings=readings
        )
        if found is None:
            continue
        attempts += 1
        (problems if isinstance(found, Problem) else tags).append(found)  # type: ignore[arg-type]
    limit = GM_TAG_LIMIT if context.gm else PLAYER_TAG_LIMIT
    if attempts > limit:
        too_many = TooManyTags(tag="", line=1, column=1, count=attempts, limit=limit)
        return ParsedPost(tags=(), commands=(), problems=(too_many,))
    if len(problems) > 1:
        problems.sort(key=lambda problem: (problem.line, problem.column))
    return ParsedPost(tags=tuple(tags), commands=tuple(commands), problems=tuple(problems))


_last_names = Names()


def _names(context: ReadContext) -> Names:
    """The names of the context: the last post's when they are the same (a thread's posts
    are read against one roster; the tuples compare fast when they are the same objects)."""
    global _last_names
    last = _last_names
    if (
        last.characters == context.characters and last.features == context.features
        and last.talents == context.talents and last.tasks == context.tasks
    ):  # fmt: skip
        return last
    _last_names = Names(
        characters=context.characters, features=context.features,
        talents=context.talents, tasks=context.tasks,
    )  # fmt: skip
    return _last_names


def _may_hold_commands(text: str) -> bool:
    """Whether a line of ``text`` may be a command line or hold a spoiler: a line that starts
    with ``!`` (a plain or emphasis-only text has no line starting with a space), ``>!`` or
    ``!<``. Other posts' exclamation marks are prose."""
    mark = text.find("!")
    while mark >= 0:  # (one pass: a post's few exclamation marks, each looked at around)
        if mark == 0 or text[mark - 1] in "\n>" or text.startswith("<", mark + 1):
            return True
        mark = text.find("!", mark + 1)
    return False


def _plain_brackets(text: str) -> Iterator[Bracket]:
    """The brackets of a text as ``scannable`` gives it, with no command line and no spoiler
    (``_may_hold_commands``): read in one pass over the whole text, the lines and columns
    counted as it goes. The same brackets as line by line: no bracket spans a line, and a
    line's text is its start.
    """
    line, line_start, counted = 1, 0, 0
    make_bracket = Bracket._make  # (a named tuple's own constructor is a Python function)
    for found in _PLAIN_BRACKET.finditer(text):
        start = found.start()
        newlines = text.count("\n", counted, start)
        if newlines:
            line += newlines
            line_start = text.rfind("\n", counted, start) + 1
        counted = start
        yield make_bracket((found[1], found[0], line, start - line_start + 1))


def _line_brackets(
    text: str,
    *,
    context: ReadContext,
    commands: list[Command],
    problems: list[Problem],
    full: bool,
) -> Iterator[Bracket]:
    """The brackets of any post, line by line as Markdown gives the lines; a command line is
    read as it comes (into ``commands`` or ``problems``), and its brackets are not tags."""
    for line in text_lines(protect_spoilers(text), full=full):
        if not _read_command(line, context=context, commands=commands, problems=problems):
            yield from _brackets(line)


def _brackets(line: TextLine) -> Iterator[Bracket]:
    if "[" not in line.text:
        return
    marked = has_marks(line.text)
    for found in _BRACKET.finditer(line.text):
        column = found.start() + 1 if line.plain else column_of(line, found.start())
        text = strip_marks(found.group()) if marked else found.group()
        if CODE in text:  # the tag as written, with its code span (to report it)
            text = _as_written(line.source, column - 1) or text.replace(CODE, "`…`")
        inner = strip_marks(found.group(1)) if marked else found.group(1)
        yield Bracket(inner, text, line.line, column)


def _as_written(source: str, start: int) -> str | None:
    """The bracket opening at ``source[start]`` up to its ``]`` outside code spans, or None
    when it does not close on this line (a code span crossing lines)."""
    position = start
    while position < len(source):
        if source[position] == "`":
            run = len(source[position:]) - len(source[position:].lstrip("`"))
            closing = source.find("`" * run, position + run)
            if closing < 0:
                return None
            position = closing + run
        elif source[position] == "]":
            return source[start : position + 1]
        else:
            position += 1
    return None


def _read_command(
    line: TextLine, *, context: ReadContext, commands: list[Command], problems: list[Problem]
) -> bool:
    """Hand a line that starts with ``!`` to the command parser; False when it is prose."""
    if "!" not in line.text:
        return False
    text = strip_marks(line.text.replace(BREAK, "").replace(CODE, "")).strip()
    parser = _command_parser()
    if not text.startswith("!") or parser is None:
        return False
    column = column_of(line, line.text.index("!"))
    source = Source(index=len(commands), line=line.line, column=column, text=text)
    found = parser(text, source=source, gm=context.gm)
    if found is None:
        return False
    if isinstance(found, Problem):
        problems.append(found)
    else:
        commands.append(found)
    return True


@functools.cache
def _command_parser() -> CommandParser | None:
    """The command parser (``pbp.tags.command_parser``), written beside this module."""
    try:
        module = importlib.import_module("pbp.tags.command_parser")
    except ImportError:
        return None
    parser: CommandParser | None = getattr(module, "parse_command_line", None)
    return parser
