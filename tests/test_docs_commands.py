"""docs/commands.md shows every command the bot reads and every tag verb of every scene, and
each example it shows reads without a problem in its scene."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from pbp.cli import app
from pbp.engine.commands import COMMANDS
from pbp.rulesets import plugins
from pbp.tags.command_parser import PLAYER_COMMANDS, READERS
from pbp.tags.commands import COMMAND_WORDS
from pbp.tags.model import SceneKind
from pbp.tags.registry import COMMON_VERBS, SCENE_VERBS, VERB_ALIASES

COMMANDS_MD = Path(__file__).resolve().parents[1] / "docs" / "commands.md"


def _text() -> str:
    return COMMANDS_MD.read_text(encoding="utf-8")


def test_the_command_table_is_the_list_of_command_words() -> None:
    assert {row.word for row in COMMANDS} == set(READERS) == set(COMMAND_WORDS)
    assert set(COMMAND_WORDS) >= PLAYER_COMMANDS


def test_every_command_the_bot_reads_is_in_docs_commands_md() -> None:
    shown = {word.casefold() for word in re.findall(r"`!([a-z]+)", _text())}
    missing = sorted({row.word for row in COMMANDS} - shown)
    assert not missing, f"commands read but not shown in docs/commands.md: {missing}"


def test_every_tag_verb_is_in_docs_commands_md() -> None:
    shown = {word.casefold() for word in re.findall(r"`\[([a-z]+)", _text())}
    # pbp's own rulesets: a ruleset from elsewhere (the tests' coin) documents its own tags
    own = [SceneKind(k) for p in plugins() if p.package.startswith("pbp.") for k in p.kinds]
    verbs = set(COMMON_VERBS).union(*(SCENE_VERBS[kind] for kind in own)) - set(VERB_ALIASES)
    missing = sorted(verbs - shown)
    assert not missing, f"tag verbs read but not shown in docs/commands.md: {missing}"


# Each section of docs/commands.md shows its examples in one scene (the GM's commands in any).
SCENES = {
    "Tags every scene reads": "distat",
    "Distat": "distat",
    "Epic Path": "abstract",
    "d20 Advanced": "d20",
    "Markhorspire": "skirmish",
    "Commands": "distat",
}
EXAMPLE_CAMPAIGN = COMMANDS_MD.parents[1] / "examples" / "sunken-keep.toml"


def _examples() -> list[tuple[str, str]]:
    """The examples of the tables' second column: (scene, the tag or command)."""
    found, scene = [], None
    for line in _text().splitlines():
        if line.startswith("## "):
            scene = next((s for title, s in SCENES.items() if line[3:].startswith(title)), None)
        cells = line.split(" | ")
        if scene and line.startswith("| ") and len(cells) > 2:
            found += [(scene, ex) for ex in re.findall(r"`([\[!][^`]*)`", cells[1])]
    return found


def test_the_examples_are_many() -> None:
    assert len(_examples()) > 50


def test_every_example_reads_without_a_problem() -> None:
    runner = CliRunner()
    wrong = []
    for scene, example in _examples():
        args = [
            "parse",
            "--campaign",
            str(EXAMPLE_CAMPAIGN),
            "--scene",
            scene,
            "--gm",
            "--feature",
            "Gate",
            "--task",
            "Lock",
            "--task",
            "Vault",
            example,
        ]
        result = runner.invoke(app, args)
        if result.exit_code != 0:
            wrong.append(f"{example} ({scene}):\n{result.output}")
    assert not wrong, "examples in docs/commands.md that do not read:\n" + "\n".join(wrong)


def test_the_web_pages_commands_and_their_options_are_in_docs_commands_md() -> None:
    from pbp.cli.serve import serve
    from pbp.cli.user import add

    section = _text().split("## The web pages (`pbp serve`)", 1)[1]
    rows = {line.split(" | ")[0].strip("| `"): line for line in section.splitlines() if "|" in line}
    commands = {"pbp serve": serve, "pbp serve link": serve.commands["link"], "pbp user add": add}
    for name, command in commands.items():
        assert name in rows, name
        for option in command.params:
            for flag in option.opts:
                if flag.startswith("--") and flag not in ("--config", "--help"):
                    assert flag in rows[name], (name, flag)
