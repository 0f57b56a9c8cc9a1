"""One command line -> a typed command, a typed problem, or None for prose (SPEC §2.5)."""

from __future__ import annotations

import re
from typing import TypedDict

from rapidfuzz.distance import DamerauLevenshtein

from pbp.errors import Problem
from pbp.tags.command_args import ArgumentError, tokenize
from pbp.tags.command_control import (
    Args,
    Reader,
    no_arguments,
    read_ack,
    read_bonus,
    read_campaign,
    read_damage,
    read_deadline,
    read_difficulty,
    read_heal,
    read_oppose,
    read_recover,
    read_rest,
    read_sheet,
    read_standing,
    read_void,
)
from pbp.tags.command_problems import BadCommandArguments, NotGm, UnknownCommand
from pbp.tags.command_scene import read_encounter, read_feature, read_group, read_npc, read_task
from pbp.tags.commands import (
    COMMAND_TYPES,
    COMMAND_WORDS,
    CloseCommand,
    Command,
    HelpCommand,
    PreviewCommand,
    StatusCommand,
    UndoCommand,
)
from pbp.tags.model import Source

SUGGESTION_DISTANCE = 2

# the reader of each command word's arguments (the engine's table of commands points here)
READERS: dict[str, Reader] = {
    "close": no_arguments(lambda source: CloseCommand(source=source)),
    "undo": no_arguments(lambda source: UndoCommand(source=source)),
    "preview": no_arguments(lambda source: PreviewCommand(source=source)),
    "deadline": read_deadline,
    "encounter": read_encounter,
    "npc": read_npc,
    "group": read_group,
    "feature": read_feature,
    "task": read_task,
    "oppose": read_oppose,
    "bonus": read_bonus,
    "damage": read_damage,
    "heal": read_heal,
    "rest": read_rest,
    "recover": read_recover,
    "void": read_void,
    "difficulty": read_difficulty,
    "campaign": read_campaign,
    # Player help reads no arguments, and asks for none: "!help please" still helps.
    "help": lambda args: HelpCommand(source=args.source),
    "status": lambda args: StatusCommand(source=args.source),
    "sheet": read_sheet,
    "ack": read_ack,
    "standing": read_standing,
}
# the words a player may write (every other is the GM's)
PLAYER_COMMANDS: frozenset[str] = frozenset(k.word for k in COMMAND_TYPES if not k.gm_only)

# "!" then the word, up to a space; sentence punctuation after it ("!close.") is not part of it.
_WORD = re.compile(r"!(\S*)")
_TRAILING = ".,:;!?"
_SENTENCE_END = ".!?"
_LETTERS = re.compile(r"[^\W\d_]+")


def parse_command_line(text: str, *, source: Source, gm: bool) -> Command | Problem | None:
    """Read one line that starts with ``!``.

    ``gm`` says whether the author is a GM of the campaign. Returns the command; a problem
    (not a GM, an unknown command from a GM, bad arguments); or None when the line is prose: a
    player's ``!wow``, ``! hi``, ``!!!``.
    """
    split = _split(text)
    if split is None:
        return None
    written, rest = split
    word = written.lower()
    where = _Where(tag=source.text or text, line=source.line, column=source.column)
    reader = READERS.get(word)
    if reader is None:
        if not gm:
            return None
        suggestion = suggest(word)
        return UnknownCommand(**where, word=written, suggestion=suggestion, known=COMMAND_WORDS)
    if not gm and word not in PLAYER_COMMANDS:
        return NotGm(**where, command=word)
    try:
        return reader(Args(word=word, tokens=tuple(tokenize(rest)), source=source))
    except ArgumentError as error:
        return BadCommandArguments(
            **where, command=word, found=error.found, expected=error.expected
        )


class _Where(TypedDict):
    """Where a problem stood: the fields every Problem has."""

    tag: str
    line: int
    column: int


def _split(text: str) -> tuple[str, str] | None:
    """The command word as written and the arguments; None when there is no word."""
    match = _WORD.match(text.strip())
    if match is None:
        return None
    written = match.group(1).rstrip(_TRAILING)
    if not _LETTERS.fullmatch(written):
        return None
    # Punctuation glued to the word ("!close." or "!npc: Imp") is not an argument, nor is the
    # full stop a sentence ends with ("!rest night."); quotes keep one that belongs to a name.
    rest = match.group(1)[len(written) :].lstrip(_TRAILING) + text.strip()[match.end() :]
    return written, rest.rstrip().rstrip(_SENTENCE_END)


def suggest(word: str) -> str | None:
    """The command word closest to ``word`` (Damerau-Levenshtein, at most 2), or None."""
    best: tuple[int, str] | None = None
    for known in COMMAND_WORDS:
        distance = DamerauLevenshtein.distance(word, known, score_cutoff=SUGGESTION_DISTANCE)
        if distance <= SUGGESTION_DISTANCE and (best is None or distance < best[0]):
            best = (distance, known)
    return best[1] if best else None
