"""`pbp` ends at once when its command is done (``pbp.cli.leaving``): with its exit status and
all of its output, what ``atexit`` holds run, its databases closed; and the usual way when a
thread still runs or a profiler watches."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbp.cli import app

pytestmark = pytest.mark.slow

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
REPLAY = ["replay", str(EXAMPLES / "sunken-keep.toml"), str(EXAMPLES / "sunken-keep-thread.jsonl")]


@pytest.fixture
def pbp_argv(pbp_process: tuple[list[str], dict[str, str]]) -> list[str]:
    return pbp_process[0]


@pytest.fixture
def env(pbp_process: tuple[list[str], dict[str, str]]) -> dict[str, str]:
    """The environment of a `pbp` subprocess whose standard output is buffered, as a user's
    is when it goes to a pipe or a file."""
    return {k: v for k, v in pbp_process[1].items() if k != "PYTHONUNBUFFERED"}


def _python(tmp_path: Path, env: dict[str, str], code: str) -> subprocess.CompletedProcess[str]:
    """``code`` run by a new interpreter (with this checkout), in ``tmp_path``."""
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip


def test_every_line_of_a_long_output_is_written_before_the_end(
    tmp_path: Path, pbp_argv: list[str], env: dict[str, str]
) -> None:
    for argv in ([*REPLAY, "--seed", "7"], [*REPLAY, "--seed", "7", "--json"]):
        expected = CliRunner().invoke(app, argv)
        assert expected.exit_code == 0, expected.output
        assert len(expected.output) > 4096  # (more than one flush of the buffer)
        done = subprocess.run(
            [*pbp_argv, *argv],
            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60,
            check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert done.stdout == expected.output


@pytest.mark.parametrize(
    ("args", "status", "said"),
    [
        (["--version"], 0, "pbp"),
        (["frobnicate"], 2, "No such command 'frobnicate'"),
        (["replay", "missing.toml", "missing.jsonl"], 2, "missing.toml"),
    ],
)
def test_the_exit_status_is_the_commands(
    tmp_path: Path,
    pbp_argv: list[str],
    env: dict[str, str],
    args: list[str],
    status: int,
    said: str,
) -> None:
    done = subprocess.run(
        [*pbp_argv, *args], cwd=tmp_path, env=env, capture_output=True,
        text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == status
    assert said in done.stdout + done.stderr


def test_what_atexit_holds_runs_and_the_teardown_does_not(
    tmp_path: Path, env: dict[str, str]
) -> None:
    done = _python(
        tmp_path,
        env,
        """
        import atexit, os, sys
        from pathlib import Path
        from pbp.cli import main

        class Torn:
            def __del__(self):  # run by the interpreter's teardown only
                os.write(1, b"torn down\\n")

        kept = Torn()
        atexit.register(lambda: print("said at the end", end=""))  # (left in the buffer)
        atexit.register(lambda: Path("atexit-ran").write_text("yes"))
        print("before the command", end="")  # (still in the buffer)
        sys.argv = ["pbp", "--version"]
        main()
        """,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "atexit-ran").read_text() == "yes"
    assert done.stdout.startswith("before the command")
    assert done.stdout.endswith("said at the end")
    assert "torn down" not in done.stdout  # ended at once


def test_a_thread_still_running_is_waited_for(tmp_path: Path, env: dict[str, str]) -> None:
    done = _python(
        tmp_path,
        env,
        """
        import sys, threading, time
        from pathlib import Path
        from pbp.cli import main

        def late():
            time.sleep(0.5)
            Path("thread-done").write_text("yes")

        threading.Thread(target=late).start()  # (not a daemon: Python waits for it)
        sys.argv = ["pbp", "--version"]
        main()
        """,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "thread-done").read_text() == "yes"


def test_a_profiler_writes_what_it_found(tmp_path: Path, env: dict[str, str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cProfile", "-o", "profile.out", "-m", "pbp", "--version"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "profile.out").stat().st_size > 0


def test_a_sqlite_database_is_closed_at_the_end(
    site: Path, pbp_argv: list[str], env: dict[str, str]
) -> None:
    def run(*args: str) -> None:
        done = subprocess.run(
            [*pbp_argv, *args], cwd=site, env=env, capture_output=True,
            text=True, timeout=60, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        # its last connection closed: the WAL is in the database, no -wal or -shm beside it
        assert sorted(p.name for p in site.glob("pbp.db*")) == ["pbp.db"], args

    run("db", "upgrade", "--create")
    run("post", "--thread", "keep-1", "--as", "gm_sam", "!deadline 48h")
    run("poll", "--once")
    run("thread", "show", "keep-1")
