"""docs/commands.md shows every command the bot reads, and every tag verb of every scene."""

from __future__ import annotations

import re
from pathlib import Path

from pbp.tags.command_parser import _READERS, PLAYER_COMMANDS
from pbp.tags.commands import COMMAND_WORDS
from pbp.tags.registry import COMMON_VERBS, SCENE_VERBS, VERB_ALIASES

COMMANDS_MD = Path(__file__).resolve().parents[1] / "docs" / "commands.md"


def _text() -> str:
    return COMMANDS_MD.read_text(encoding="utf-8")


def test_the_command_table_is_the_list_of_command_words() -> None:
    assert set(_READERS) == set(COMMAND_WORDS)
    assert set(COMMAND_WORDS) >= PLAYER_COMMANDS


def test_every_command_the_bot_reads_is_in_docs_commands_md() -> None:
    shown = {word.casefold() for word in re.findall(r"`!([a-z]+)", _text())}
    missing = sorted(set(_READERS) - shown)
    assert not missing, f"commands read but not shown in docs/commands.md: {missing}"


def test_every_tag_verb_is_in_docs_commands_md() -> None:
    shown = {word.casefold() for word in re.findall(r"`\[([a-z]+)", _text())}
    verbs = set(COMMON_VERBS).union(*SCENE_VERBS.values()) - set(VERB_ALIASES)
    missing = sorted(verbs - shown)
    assert not missing, f"tag verbs read but not shown in docs/commands.md: {missing}"
