"""`pbp run`: it answers a waiting post, stops cleanly on SIGTERM or SIGINT, and frees its
thread for the next worker."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

Run = Callable[..., subprocess.CompletedProcess[str]]
Ok = Callable[..., str]

CHEAT_SHEET = "## The Sunken Keep: round 1 is open"


def _lease_owner(site: Path) -> str | None:
    with sqlite3.connect(site / "pbp.db") as db:
        (owner,) = db.execute("SELECT lease_owner FROM threads WHERE key = 'keep-1'").fetchone()
    return owner if owner is None else str(owner)


def _wait_for(predicate: Callable[[], bool], *, seconds: float, every: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(every)
    return predicate()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_run_answers_then_stops_cleanly_and_frees_the_thread(
    tmp_path: Path, make_site: Callable[..., Path], pbp: Run, pbp_ok: Ok,
    pbp_process: tuple[list[str], dict[str, str]], signum: signal.Signals,
) -> None:
    site = make_site(tmp_path / "site", poll_seconds=5)
    pbp_ok(site, "post", "--thread", "keep-1", "--as", "alice",
           "Aria charges. [physical: attack Goblin]")
    argv, env = pbp_process
    out, err = site / "run.out", site / "run.err"
    with out.open("w") as stdout, err.open("w") as stderr:
        bot = subprocess.Popen([*argv, "run"], cwd=site, env=env, stdin=subprocess.DEVNULL,
                               stdout=stdout, stderr=stderr, text=True)
    try:
        # its first poll prints what it did; then the user looks at the thread
        assert _wait_for(lambda: "read 1 new post version;" in out.read_text(),
                         seconds=20, every=0.1), (out.read_text(), err.read_text())
        assert CHEAT_SHEET in pbp_ok(site, "thread", "show", "keep-1")
        assert _lease_owner(site) is not None  # the running bot holds its thread
        bot.send_signal(signum)
        status = bot.wait(timeout=5)
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()
    printed = out.read_text()
    assert status == 0, (printed, err.read_text())
    assert printed.splitlines()[0].startswith("pbp runs 1 thread(s) on the local forum, "
                                              "polling every 5 s")
    assert printed.splitlines()[-1] == "pbp stopped"
    assert "Traceback" not in err.read_text()
    # released, not merely left to a holder the next worker sees is dead
    assert _lease_owner(site) is None
    after = pbp(site, "poll", "--once")
    assert after.returncode == 0, after.stderr
    assert "skipped" not in after.stderr  # the stopped bot released its lease
    assert after.stdout.strip() == "read 0 new post versions; posted or edited 0 replies"
