"""Killing the bot mid-poll, again and again, loses no reply and doubles none."""

from __future__ import annotations

import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import select

from pbp.forums.local import LocalForum
from pbp.store.database import Store
from pbp.store.local_posts import SqlLocalStorage
from pbp.store.schema import LocalMessageRow, LocalPostRow, ReplyRow

pytestmark = pytest.mark.slow

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
ROUNDS = 15
CONFIG = """
[bot]
username = "pbp_bot"
[database]
url = "sqlite:///pbp.db"
[[threads]]
id = "keep-1"
campaign = "sunken-keep.toml"
"""


def _pbp(*args: str) -> list[str]:
    return [sys.executable, "-m", "pbp", *args]


def _post_all(store: Store, lines: list[tuple[str, str]]) -> None:
    forum = LocalForum(SqlLocalStorage(store), bot="pbp_bot", clock=lambda: datetime.now(UTC))
    for author, body in lines:
        forum.post(thread="keep-1", author=author, body=body, at=datetime.now(UTC))


def _rounds() -> list[tuple[str, str]]:
    """Rounds of good posts, typos, status requests and closes."""
    lines = []
    for rnd in range(ROUNDS):
        lines += [
            ("alice", "[physical: attack Goblin]"),
            ("bob", f"Round {rnd}. [phisical: attack Ogre]"),
            ("cara", "[mental: attack Ogre]"),
            ("bob", "!status"),
            ("gm_sam", "!close"),
        ]
    return lines


def _timed_poll(folder: Path) -> float:
    copy = folder / "timing"
    copy.mkdir()
    for name in ("config.toml", "sunken-keep.toml"):
        shutil.copy(folder / name, copy / name)
    # the database through SQLite: a plain copy would open and close the file in this process,
    # which drops every POSIX lock the test's own store holds on it (a poll ending then would
    # take the WAL away from under that store's connections)
    with (
        closing(sqlite3.connect(folder / "pbp.db")) as source,
        closing(sqlite3.connect(copy / "pbp.db")) as target,
    ):
        source.backup(target)
    started = time.monotonic()
    subprocess.run(_pbp("poll", "--once"), cwd=copy, check=True, capture_output=True)
    return time.monotonic() - started


def test_sigkill_mid_poll_again_and_again_then_a_clean_poll(tmp_path: Path) -> None:
    shutil.copy(EXAMPLES / "sunken-keep.toml", tmp_path / "sunken-keep.toml")
    (tmp_path / "config.toml").write_text(CONFIG, encoding="utf-8")
    store = Store(f"sqlite:///{tmp_path / 'pbp.db'}")
    store.upgrade()
    _post_all(store, [("gm_sam", "!group Aria, Goblin, Ogre\n!group Bram, Cora")])
    subprocess.run(_pbp("poll", "--once"), cwd=tmp_path, check=True, capture_output=True)
    _post_all(store, _rounds())  # the bot watches the thread now: every round gets replies
    full = _timed_poll(tmp_path)  # how long one whole poll takes, on a copy
    rng = random.Random(7)
    kills, rounds = 0, ROUNDS
    for _ in range(12):
        proc = subprocess.Popen(
            _pbp("poll", "--once"),
            cwd=tmp_path,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(rng.uniform(0.5, 1.0) * full)  # past start-up, somewhere in the work
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            kills += 1
        else:  # done before the kill (a busy machine timed the copy slower): more work
            _post_all(store, _rounds())
            rounds += ROUNDS
        proc.wait()
    for _ in range(2):  # clean polls: what the killed ones left is finished, once
        subprocess.run(_pbp("poll", "--once"), cwd=tmp_path, check=True, capture_output=True)
    assert kills > 0
    with store.session() as s:
        rows = s.scalars(select(ReplyRow)).all()
        owed = [r for r in rows if r.to_user is None]
        private = [r for r in rows if r.to_user is not None]
        on_forum = [p.reply_key for p in s.scalars(select(LocalPostRow)) if p.reply_key is not None]
        sent = [(m.recipient, m.key) for m in s.scalars(select(LocalMessageRow))]
    assert owed and all(r.status == "posted" for r in rows)  # none lost
    doubled = [key for key, n in Counter(on_forum).items() if n > 1]
    assert doubled == []  # none doubled
    keys = {r.key if r.revision == 1 else f"{r.key}~{r.revision}" for r in owed}
    assert set(on_forum) == keys
    # the GM's private copy of each summary (hide-npcs): sent once each, none lost
    assert sorted(sent) == sorted((r.to_user, r.key) for r in private)
    assert len(sent) == rounds
    summaries = [k for k in on_forum if k.startswith("summary")]
    assert len(summaries) == rounds
