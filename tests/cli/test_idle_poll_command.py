"""`pbp poll --once` on an idle database says what a full poll says, and exits alike.

Two sites run the same commands side by side: one whose database URL the idle check reads,
one whose URL (an escape in the file's name) it leaves to the full poll.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from pbp.config import load_config
from pbp.store.idle import sqlite_file

pytestmark = pytest.mark.slow

Together = Callable[..., list[subprocess.CompletedProcess[str]]]
IDLE = "read 0 new post versions; posted or edited 0 replies\n"


def _said(result: subprocess.CompletedProcess[str], site: Path) -> tuple[int, str, str]:
    def plain(text: str) -> str:
        return text.replace(str(site), "SITE").replace("pbp-db.db", "pbp.db")

    return result.returncode, plain(result.stdout), plain(result.stderr)


def test_an_idle_poll_says_and_exits_as_the_full_poll_does(
    tmp_path: Path, make_site: Callable[..., Path], pbp_together: Together
) -> None:
    checked, full = make_site(tmp_path / "checked"), make_site(tmp_path / "full")
    config = full / "config.toml"
    config.write_text(config.read_text().replace("pbp.db", "pbp%2Ddb.db"))
    assert sqlite_file(load_config(checked / "config.toml").database.url) is not None
    assert sqlite_file(load_config(config).database.url) is None
    steps = [
        ["poll", "--once"],  # a fresh folder: the database is set up
        ["poll", "--once"],
        ["post", "-t", "keep-1", "--as", "gm_sam", "!group Aria, Goblin"],
        ["poll", "--once"],
        ["poll", "--once"],  # the bot's own replies move the cursor
        ["poll", "--once"],
        ["post", "-t", "keep-1", "--as", "alice", "Aria swings. [physical: attack Goblin]"],
        ["poll", "--once"],
        ["poll", "--once"],
        ["poll"],
    ]
    idle = 0
    for args in steps:
        one, other = pbp_together((checked, args), (full, args))
        assert _said(one, checked) == _said(other, full), args
        idle += one.stdout == IDLE and one.returncode == 0 and not one.stderr
    assert idle >= 4
