"""The README's walkthrough, run as written: it stays true.

Only fenced blocks whose info string says ``walkthrough`` are run, in the README's order, in
one empty folder (the local forum, a new SQLite database):

- ```` ```toml walkthrough campaign.toml ```` (any language) writes its text to that file;
- ```` ```console walkthrough ```` runs each ``$ pbp …`` line (``> FILE`` saves the output)
  and checks the lines the README shows under it: each must appear in the command's output, in
  that order (lines not shown may come between them); ``…`` stands for any text, and a line
  of ``…`` alone only marks where output was left out.

Commands run in this process (``pbp``'s click app) so the walkthrough takes seconds.
"""

from __future__ import annotations

import re
import shlex
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbp.cli import app

README = Path(__file__).resolve().parents[1] / "README.md"
_FENCE = re.compile(r"^(?P<indent> *)```(?P<info>[^`\n]*)$")
ELLIPSIS = "…"


@dataclass
class Block:
    """One walkthrough block: its info words, its first line in the README, its text."""

    info: list[str]
    line: int
    text: str


@dataclass
class Step:
    """One ``$`` command of a console block and the output lines the README shows for it."""

    command: str
    line: int
    shown: list[str] = field(default_factory=list)


def walkthrough_blocks(text: str) -> list[Block]:
    """The fenced blocks marked ``walkthrough``, their indentation removed."""
    blocks: list[Block] = []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        opening = _FENCE.match(lines[index])
        if opening is None:
            index += 1
            continue
        body: list[str] = []
        index += 1
        while index < len(lines) and lines[index].strip() != "```":
            body.append(lines[index])
            index += 1
        info = opening["info"].split()
        if "walkthrough" in info:
            text_of = textwrap.dedent("\n".join(body)) + "\n"
            blocks.append(Block(info=info, line=index - len(body), text=text_of))
        index += 1
    return blocks


def steps_of(block: Block) -> list[Step]:
    steps: list[Step] = []
    for number, line in enumerate(block.text.splitlines(), start=block.line + 1):
        if line.startswith("$ "):
            steps.append(Step(command=line[2:], line=number))
        elif line.strip() and line.strip() != ELLIPSIS:
            assert steps, f"README line {number}: output before any command"
            steps[-1].shown.append(line.strip())
    return steps


def _pattern(shown: str) -> re.Pattern[str]:
    return re.compile(".*?".join(re.escape(part) for part in shown.split(ELLIPSIS)))


def missing_lines(shown: list[str], output: str) -> list[str]:
    """The shown lines that the output does not hold in that order (empty: all there)."""
    lines = [line.strip() for line in output.splitlines()]
    at = 0
    for expected in shown:
        pattern = _pattern(expected)
        while at < len(lines) and not pattern.fullmatch(lines[at]):
            at += 1
        if at == len(lines):
            return shown[shown.index(expected) :]
        at += 1
    return []


def run_step(step: Step, folder: Path) -> None:
    words = shlex.split(step.command, comments=True)
    save: str | None = None
    if ">" in words:
        words, save = words[: words.index(">")], words[words.index(">") + 1]
    assert words[0] == "pbp", f"README line {step.line}: only pbp commands run here"
    result = CliRunner().invoke(app, words[1:], catch_exceptions=False)
    where = f"README line {step.line}: $ {step.command}"
    assert result.exit_code == 0, f"{where}\nexit {result.exit_code}\n{result.output}"
    if save is not None:
        (folder / save).write_text(result.output, encoding="utf-8")
    missing = missing_lines(step.shown, result.output)
    assert not missing, f"{where}\nnot printed (in this order): {missing}\n---\n{result.output}"


def test_the_matcher_needs_the_shown_lines_in_order() -> None:
    output = "a one\nb two\nc three\n"
    assert missing_lines(["a one", "c …"], output) == []
    assert missing_lines(["c three", "a one"], output) == ["a one"]
    assert missing_lines(["b …x"], output) == ["b …x"]


def test_the_readme_has_a_walkthrough() -> None:
    blocks = walkthrough_blocks(README.read_text(encoding="utf-8"))
    files = {b.info[2] for b in blocks if b.info[0] != "console"}
    assert {"campaign.toml", "config.toml", "events.jsonl"} <= files
    assert sum(len(steps_of(b)) for b in blocks if b.info[0] == "console") >= 10


def test_the_readme_walkthrough_runs_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBP_DATABASE_URL", raising=False)
    for block in walkthrough_blocks(README.read_text(encoding="utf-8")):
        if block.info[0] == "console":
            for step in steps_of(block):
                run_step(step, tmp_path)
        else:
            assert len(block.info) == 3, f"README line {block.line}: which file? {block.info}"
            (tmp_path / block.info[2]).write_text(block.text, encoding="utf-8")
