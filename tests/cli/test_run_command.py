"""`pbp run`: it answers a waiting post, stops cleanly on SIGTERM or SIGINT, and frees its
thread for the next worker; a stop does not wait for a forum that does not answer."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from fake_reddit import FakeReddit, write_praw_ini
from running_bot import RunningBot, wait_for

pytestmark = pytest.mark.slow

Run = Callable[..., subprocess.CompletedProcess[str]]
Ok = Callable[..., str]

CHEAT_SHEET = "## The Sunken Keep: round 1 is open"


def _lease_owner(site: Path) -> str | None:
    with sqlite3.connect(site / "pbp.db") as db:
        (owner,) = db.execute("SELECT lease_owner FROM threads WHERE key = 'keep-1'").fetchone()
    return owner if owner is None else str(owner)


def _workers(site: Path) -> int:
    with sqlite3.connect(site / "pbp.db") as db:
        (count,) = db.execute("SELECT count(*) FROM workers").fetchone()
    return int(count)


def _wait_for(predicate: Callable[[], bool], *, seconds: float, every: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(every)
    return predicate()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_run_answers_then_stops_cleanly_and_frees_the_thread(
    tmp_path: Path,
    make_site: Callable[..., Path],
    pbp: Run,
    pbp_ok: Ok,
    pbp_process: tuple[list[str], dict[str, str]],
    signum: signal.Signals,
) -> None:
    site = make_site(tmp_path / "site", poll_seconds=5)
    pbp_ok(
        site,
        "post",
        "--thread",
        "keep-1",
        "--as",
        "alice",
        "Aria charges. [physical: attack Goblin]",
    )
    argv, env = pbp_process
    out, err = site / "run.out", site / "run.err"
    with out.open("w") as stdout, err.open("w") as stderr:
        bot = subprocess.Popen(
            [*argv, "run"],
            cwd=site,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=stdout,
            stderr=stderr,
            text=True,
        )
    try:
        # its first poll prints what it did; then the user looks at the thread
        assert _wait_for(
            lambda: "read 1 new post version;" in out.read_text(), seconds=20, every=0.1
        ), (out.read_text(), err.read_text())
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
    assert printed.splitlines()[0].startswith(
        "pbp runs 1 thread(s) on the local forum, polling every 5 s"
    )
    assert printed.splitlines()[-1] == "pbp stopped"
    assert "Traceback" not in err.read_text()
    # released, not merely left to a holder the next worker sees is dead
    assert _lease_owner(site) is None
    after = pbp(site, "poll", "--once")
    assert after.returncode == 0, after.stderr
    assert "skipped" not in after.stderr  # the stopped bot released its lease
    assert after.stdout.strip() == "read 0 new post versions; posted or edited 0 replies"


REDDIT_SITE = """[bot]
username = "pbp_bot"
poll_seconds = 5
[database]
url = "sqlite:///pbp.db"
[forum]
kind = "reddit"
[forum.reddit]
site = "pbp-test"
subreddits = ["MyPbPGame"]
[[threads]]
id = "{thread}"
campaign = "sunken-keep.toml"
"""


def test_run_stops_within_ten_seconds_of_sigterm_while_the_forum_does_not_answer(
    tmp_path: Path,
    make_site: Callable[..., Path],
    pbp_process: tuple[list[str], dict[str, str]],
) -> None:
    site = make_site(tmp_path / "site")
    argv, env = pbp_process
    with FakeReddit() as fake:
        fake.add_subreddit("MyPbPGame")
        thread = fake.add_submission("MyPbPGame", "gm_sam", "The Sunken Keep")
        (site / "config.toml").write_text(REDDIT_SITE.format(thread=thread))
        write_praw_ini(site, fake, site="pbp-test")
        fake.timeout_hold = 120  # each read of the listing waits out praw's 16 s, thrice
        fake.inject("GET", "/r/MyPbPGame", "timeout", times=None)
        reddit_env = {**env, "XDG_CONFIG_HOME": str(site), "PRAW_ALLOW_ENDPOINT_OVERRIDE": "1"}
        with RunningBot([*argv, "run"], env=reddit_env, cwd=site) as bot:
            assert wait_for(lambda: fake.requests_to("/r/MyPbPGame") > 0, seconds=30), bot.report()
            time.sleep(1)  # the poll waits for the forum's answer
            assert _workers(site) == 1, bot.report()  # it said it runs (the poll's first step)
            sent = bot.signal(signal.SIGTERM)
            assert bot.ended(seconds=20), bot.report()
    took = (bot.ended_at or 0) - sent
    assert took < 10, f"pbp run stopped {took:.1f} s after SIGTERM\n{bot.report()}"
    assert bot.status == 0, bot.report()
    assert bot.out.splitlines()[-1] == "pbp stopped"
    assert "Traceback" not in bot.err
    assert _workers(site) == 0  # the database answered: the worker left (its leases with it)
