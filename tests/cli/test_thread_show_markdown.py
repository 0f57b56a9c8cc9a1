"""Issue 26 item 23: `pbp thread show` renders the Markdown of posts and replies for a
terminal (rich's renderer), and prints plain text, without Markdown's backslashes, when piped."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbp.cli import app
from pbp.cli.markdown_view import plain

REPO = Path(__file__).resolve().parents[2]


def _site(tmp_path: Path) -> Path:
    (tmp_path / "keep.toml").write_text(
        (REPO / "examples" / "sunken-keep.toml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    (tmp_path / "config.toml").write_text(
        '[bot]\nusername = "pbp_bot"\n[database]\nurl = "sqlite:///pbp.db"\n'
        '[[threads]]\nid = "warren-1"\ncampaign = "keep.toml"\n',
        encoding="utf-8",
    )
    config = str(tmp_path / "config.toml")
    runner = CliRunner()
    for author, text in [("cara", "Cora raises her hands. [mentl: attack Goblin]"),
                         ("alice", "Aria waits. `[code \\] stays]`")]:  # fmt: skip
        posted = runner.invoke(app, ["post", "--config", config, "-t", "warren-1", "--as",
                                     author, text])  # fmt: skip
        assert posted.exit_code == 0, posted.output
    assert runner.invoke(app, ["poll", "--config", config]).exit_code == 0
    return tmp_path


def test_piped_it_is_plain_text_without_markdown_escapes(tmp_path: Path) -> None:
    site = _site(tmp_path)
    shown = CliRunner().invoke(app, ["thread", "show", "--config", str(site / "config.toml"),
                                     "warren-1"])  # fmt: skip
    assert shown.exit_code == 0, shown.output
    assert "> [mentl: attack Goblin]" in shown.stdout  # the reply quoting the tag
    assert "warren-1" in shown.stdout and "warren\\-1" not in shown.stdout
    assert "\\[" not in shown.stdout and "\\]" not in shown.stdout.replace("`[code \\] stays]`", "")
    assert "`[code \\] stays]`" in shown.stdout  # code keeps what was written in it
    assert "\x1b" not in shown.stdout


def test_plain_undoes_escapes_outside_code_only() -> None:
    assert (
        plain(r"\[move: Gate\] `\[kept\]` warren\-1 \*x\*")
        == r"[move: Gate] `\[kept\]` warren-1 *x*"
    )
    assert plain("```\n\\[fenced\\]\n```\n\\!close") == "```\n\\[fenced\\]\n```\n!close"


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal")
def test_on_a_terminal_the_markdown_is_rendered(tmp_path: Path) -> None:
    site = _site(tmp_path)
    script = Path(sys.executable).parent / "pbp"
    argv = [str(script)] if script.is_file() else [sys.executable, "-m", "pbp"]
    leader, follower = pty.openpty()
    env = {**os.environ, "COLUMNS": "100", "TERM": "xterm-256color"}
    env.pop("NO_COLOR", None)
    done = subprocess.run([*argv, "thread", "show", "warren-1"], cwd=site, stdout=follower,
                          stderr=subprocess.PIPE, env=env, timeout=60, check=False)  # fmt: skip
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    shown = b"".join(chunks).decode("utf-8")
    assert done.returncode == 0, done.stderr
    assert "\x1b[" in shown  # styled by the renderer
    assert "\\[mentl" not in shown and "[mentl: attack Goblin]" in shown
    assert "**mental**" not in shown and "mental" in shown  # bold rendered, not starred
    assert "> " not in shown.split("reply to p1")[1][:80]  # a quote drawn, not a ">"
