"""A database that is gone or does not answer: one clear line and a non-zero exit, never a new
database made in silence; two first polls at once set one database up without a traceback."""

from __future__ import annotations

import contextlib
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from running_bot import RunningBot

from pbp.forums.local import LocalForum
from pbp.store.database import Store
from pbp.store.local_posts import SqlLocalStorage

pytestmark = pytest.mark.slow

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
    tmp_path: Path,
    make_site: Callable[..., Path],
    pbp_ok: Ok,
    pbp_process: tuple[list[str], dict[str, str]],
) -> None:
    site = make_site(tmp_path / "site", poll_seconds=5)
    pbp_ok(site, "post", "--thread", "keep-1", "--as", "alice", "[physical: attack Goblin]")
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


def test_poll_says_in_one_line_that_postgresql_does_not_answer(site: Path, pbp: Run) -> None:
    config = site / "config.toml"
    config.write_text(
        config.read_text().replace(
            "sqlite:///pbp.db", "postgresql+psycopg://postgres@127.0.0.1:9/pbp"
        )
    )
    done = pbp(site, "poll", "--once")
    assert done.returncode == 1
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("pbp poll: cannot open the database postgresql+psycopg://")
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    "backend", ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]
)
def test_two_first_polls_at_once_set_one_database_up_without_a_traceback(
    site: Path,
    pbp_ok: Ok,
    pbp_together: Callable[..., list[Any]],
    backend: str,
    request: pytest.FixtureRequest,
) -> None:
    if backend == "postgresql":
        database = request.getfixturevalue("postgres_database")
        database.reset()
        config = site / "config.toml"
        config.write_text(config.read_text().replace("sqlite:///pbp.db", database.url))
    both = pbp_together((site, ["poll", "--once"]), (site, ["poll", "--once"]))
    for done in both:
        assert "Traceback" not in done.stderr and "IntegrityError" not in done.stderr, done.stderr
        assert done.returncode == 0, done.stderr
    assert "read 0 new post versions" in pbp_ok(site, "poll", "--once")


def _damage(site: Path, how: str) -> None:
    """The SQLite file of a running bot, damaged in one of the ways files are."""
    path = site / "pbp.db"
    match how:
        case "truncated":
            os.truncate(path, 0)
        case "overwritten":  # random bytes over its first 16 KB, in place
            with path.open("r+b") as file:
                file.write(random.Random(11).randbytes(16 * 1024))
        case "replaced":  # another copy put in its place (a backup restored over it)
            shutil.copy(path, site / "copy.db")
            os.replace(site / "copy.db", path)


DAMAGE = {
    "truncated": "is damaged (it was cut to 0 bytes)",
    "overwritten": "is damaged (its first bytes are not an SQLite database's header",
    "replaced": "is gone (deleted, moved or replaced while pbp was using it)",
}


def test_run_stops_with_one_line_within_a_poll_when_its_sqlite_file_is_damaged(
    tmp_path: Path,
    make_site: Callable[..., Path],
    pbp_ok: Ok,
    pbp_process: tuple[list[str], dict[str, str]],
) -> None:
    argv, env = pbp_process
    sites = {how: make_site(tmp_path / how, poll_seconds=5) for how in DAMAGE}
    for site in sites.values():
        pbp_ok(site, "post", "--thread", "keep-1", "--as", "alice", "[physical: attack Goblin]")
    with contextlib.ExitStack() as running:
        bots = {
            how: running.enter_context(RunningBot([*argv, "run"], env=env, cwd=site))
            for how, site in sites.items()
        }
        for how, bot in bots.items():
            assert bot.says("read 1 new post version;", seconds=30), bot.report()
            _damage(sites[how], how)
        for bot in bots.values():  # the next poll, 5 s on at most, notices
            assert bot.ended(seconds=15), bot.report()
    for how, bot in bots.items():
        lines = bot.err.strip().splitlines()
        assert bot.status == 1, bot.report()
        assert lines == [
            f"pbp run: the database file {sites[how] / 'pbp.db'} {DAMAGE[how]}"
            + lines[0].split(DAMAGE[how], 1)[1]
        ], bot.report()
        assert bot.out.splitlines()[-1] != "pbp stopped"


def test_a_database_folder_that_does_not_exist_is_refused_until_a_new_one_is_asked_for(
    site: Path,
    pbp: Run,
    pbp_ok: Ok,
    pbp_together: Callable[..., list[Any]],
) -> None:
    config = site / "config.toml"
    config.write_text(config.read_text().replace("sqlite:///pbp.db", "sqlite:///typo/dir/x.db"))
    commands = [
        ["poll", "--once"],
        ["db", "status"],
        ["db", "upgrade"],
        ["thread", "list"],
        ["post", "--thread", "keep-1", "--as", "alice", "[pass]"],
    ]
    for args, done in zip(
        commands, pbp_together(*((site, args) for args in commands)), strict=True
    ):
        assert done.returncode == 1, (args, done.stderr)
        assert done.stderr.splitlines() == [
            f"pbp {' '.join(args[:2] if args[0] in ('db', 'thread') else args[:1])}: there is "
            f"no database at sqlite:///{site / 'typo/dir/x.db'}: the folder {site / 'typo/dir'}"
            " does not exist (a typo in [database] url?); to start a new database there, run "
            "`pbp db upgrade --create`"
        ], done.stderr
    assert not (site / "typo").exists()
    assert "upgraded from empty" in pbp_ok(site, "db", "upgrade", "--create")
    assert (site / "typo" / "dir" / "x.db").is_file()
    assert pbp_ok(site, "poll", "--once").startswith("read 0 new post versions")


URLS = {
    "mysql://pbp@localhost/pbp": "is for mysql, which pbp does not run on",
    "postgresql+psycopg2://pbp@localhost/pbp": "needs the Python package psycopg2",
    "garbage://": "is for garbage, which pbp does not run on",
}


def test_a_database_url_pbp_cannot_use_is_one_line(
    tmp_path: Path,
    make_site: Callable[..., Path],
    pbp_together: Callable[..., list[Any]],
) -> None:
    runs = []
    for n, url in enumerate(URLS):
        site = make_site(tmp_path / f"site{n}")
        config = site / "config.toml"
        config.write_text(config.read_text().replace("sqlite:///pbp.db", url))
        # the commands of the issue for the first, the bot's first command for the others
        commands = [["poll", "--once"], ["db", "status"], ["thread", "list"]][: 3 if n == 0 else 1]
        runs += [(url, site, args) for args in commands]
    for (url, _site, args), done in zip(
        runs, pbp_together(*((site, args) for _url, site, args in runs)), strict=True
    ):
        lines = done.stderr.splitlines()
        assert done.returncode == 1 and len(lines) == 1 and URLS[url] in lines[0], (
            args,
            done.stderr,
        )


# a `pbp` whose files cannot grow past a size (what a full disk does to it: every write past
# that size fails), until its limit is raised from outside (prlimit)
LIMITED = (
    "import os, resource, signal, sys; signal.signal(signal.SIGXFSZ, signal.SIG_IGN); "
    "resource.setrlimit(resource.RLIMIT_FSIZE, (int(sys.argv[1]), resource.RLIM_INFINITY));"
    " os.execv(sys.argv[2], sys.argv[2:])"
)


@pytest.mark.skipif(not hasattr(resource, "prlimit"), reason="Linux's prlimit")
def test_a_full_disk_is_one_line_per_poll_and_the_bot_goes_on_when_there_is_room_again(
    site: Path,
    pbp_process: tuple[list[str], dict[str, str]],
) -> None:
    config = site / "config.toml"
    config.write_text(config.read_text().replace("[bot]\n", "[bot]\npoll_seconds = 5\n"))
    store = Store(f"sqlite:///{site / 'pbp.db'}")  # the posts, as `pbp post` writes them
    store.upgrade()
    forum = LocalForum(SqlLocalStorage(store), bot="pbp_bot", clock=lambda: datetime.now(UTC))
    for n in range(20):  # more than the room left takes to read
        forum.post(
            thread="keep-1",
            author="alice",
            at=datetime.now(UTC),
            body=f"Aria tries again ({n}). [physcal: attack Goblin] " + "And on. " * 400,
        )
    store.dispose()
    room = max(p.stat().st_size for p in site.glob("pbp.db*"))
    argv, env = pbp_process
    launcher = [sys.executable, "-c", LIMITED, str(room)]
    with RunningBot([*launcher, *argv, "run"], env=env, cwd=site) as bot:
        assert bot.says("trying again next poll", seconds=30, err=True), bot.report()
        time.sleep(5.5)  # a second poll fails too, in one line of its own
        full = bot.err.strip().splitlines()
        resource.prlimit(
            bot.process.pid, resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY)
        )
        assert bot.says("read 20 new post versions; posted or edited 21 replies", seconds=30), (
            bot.report()
        )
        bot.signal(signal.SIGTERM)
        assert bot.ended(seconds=15), bot.report()
    assert bot.status == 0, bot.report()
    assert len(full) >= 2, bot.report()
    for line in full:
        said = line.split(" WARNING pbp.scheduler: the poll failed, trying again next poll: ")
        assert len(said) == 2 and said[1].startswith(
            f"the database sqlite:///{site / 'pbp.db'} "
        ), line
        assert said[1].endswith(("is the disk full?", "database or disk is full")), line
    assert "Traceback" not in bot.err
