"""A database that is gone or does not answer: one clear line and a non-zero exit, never a new
database made in silence; two first polls at once set one database up without a traceback."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

Run = Callable[..., subprocess.CompletedProcess[str]]
Ok = Callable[..., str]


def _wait_for(predicate: Callable[[], bool], *, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


def test_run_stops_with_one_line_when_its_sqlite_file_is_deleted(
    tmp_path: Path, make_site: Callable[..., Path], pbp_ok: Ok,
    pbp_process: tuple[list[str], dict[str, str]],
) -> None:
    site = make_site(tmp_path / "site", poll_seconds=5)
    pbp_ok(site, "post", "--thread", "keep-1", "--as", "alice", "[physical: attack Goblin]")
    argv, env = pbp_process
    out, err = site / "run.out", site / "run.err"
    with out.open("w") as stdout, err.open("w") as stderr:
        bot = subprocess.Popen([*argv, "run"], cwd=site, env=env, stdin=subprocess.DEVNULL,
                               stdout=stdout, stderr=stderr, text=True)
    try:
        assert _wait_for(lambda: "read 1 new post version;" in out.read_text(), seconds=20)
        for name in ("pbp.db", "pbp.db-wal", "pbp.db-shm"):
            (site / name).unlink(missing_ok=True)
        status = bot.wait(timeout=20)  # its next poll notices
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()
    lines = err.read_text().splitlines()
    assert status == 1, (out.read_text(), lines)
    assert "Traceback" not in err.read_text()
    assert lines[-1].startswith("pbp run: the database file ")
    assert "pbp.db is gone" in lines[-1]
    assert not (site / "pbp.db").exists()  # no new, empty database in its place


def test_poll_says_in_one_line_that_postgresql_does_not_answer(
    site: Path, pbp: Run
) -> None:
    config = site / "config.toml"
    config.write_text(config.read_text().replace(
        "sqlite:///pbp.db", "postgresql+psycopg://postgres@127.0.0.1:9/pbp"))
    done = pbp(site, "poll", "--once")
    assert done.returncode == 1
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("pbp poll: cannot open the database postgresql+psycopg://")
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgresql",
                                                            marks=pytest.mark.postgres)])
def test_two_first_polls_at_once_set_one_database_up_without_a_traceback(
    site: Path, pbp_ok: Ok, pbp_together: Callable[..., list[Any]], backend: str,
    request: pytest.FixtureRequest,
) -> None:
    if backend == "postgresql":
        database = request.getfixturevalue("postgres_database")
        database.reset()
        config = site / "config.toml"
        config.write_text(config.read_text().replace("sqlite:///pbp.db", database.url))
    both = pbp_together((site, ["poll", "--once"]), (site, ["poll", "--once"]))
    for done in both:
        assert "Traceback" not in done.stderr and "IntegrityError" not in done.stderr, (
            done.stderr)
        assert done.returncode == 0, done.stderr
    assert "read 0 new post versions" in pbp_ok(site, "poll", "--once")
