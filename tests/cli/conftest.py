"""Fixtures of the command-line tests: a folder set up as a user would, and `pbp` run in it.

Every command runs in a subprocess, as a user types it, with the code of this checkout
(``PYTHONPATH``) and never a database named by ``PBP_DATABASE_URL`` from the outer shell.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CAMPAIGN = REPO / "examples" / "sunken-keep.toml"

Pbp = Callable[..., subprocess.CompletedProcess[str]]


def pbp_argv() -> list[str]:
    """The venv's `pbp` script, else `python -m pbp`."""
    script = Path(sys.executable).parent / "pbp"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "pbp"]


def pbp_env() -> dict[str, str]:
    """The environment of a `pbp` subprocess."""
    env = {k: v for k, v in os.environ.items() if k != "PBP_DATABASE_URL"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    env["PYTHONUNBUFFERED"] = "1"
    return env


def write_site(folder: Path, *, poll_seconds: int | None = None) -> Path:
    """``folder`` with a config.toml running thread keep-1 and a copy of the Sunken Keep."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(CAMPAIGN, folder / "sunken-keep.toml")
    poll = f"poll_seconds = {poll_seconds}\n" if poll_seconds is not None else ""
    (folder / "config.toml").write_text(
        '[bot]\nusername = "pbp_bot"\n'
        + poll
        + '\n[database]\nurl = "sqlite:///pbp.db"\n'
        + '\n[[threads]]\nid = "keep-1"\ncampaign = "sunken-keep.toml"\n',
        encoding="utf-8",
    )
    return folder


def run_pbp(cwd: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``pbp ARGS`` in ``cwd``; its exit status, stdout and stderr."""
    return subprocess.run(
        [*pbp_argv(), *args],
        cwd=cwd,
        env=pbp_env(),
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def run_together(*commands: tuple[Path, list[str]]) -> list[subprocess.CompletedProcess[str]]:
    """Several independent ``(cwd, args)`` commands at once (to keep the suite quick)."""
    started = [
        (
            args,
            subprocess.Popen(
                [*pbp_argv(), *args],
                cwd=cwd,
                env=pbp_env(),
                text=True,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            ),
        )
        for cwd, args in commands
    ]
    results = []
    for args, process in started:
        out, err = process.communicate(timeout=60)
        results.append(subprocess.CompletedProcess(args, process.returncode, out, err))
    return results


def ok(cwd: Path, *args: str, stdin: str | None = None) -> str:
    """The stdout of ``pbp ARGS``, which must succeed."""
    result = run_pbp(cwd, *args, stdin=stdin)
    assert result.returncode == 0, (
        f"pbp {' '.join(args)} exited {result.returncode}\nstdout:\n{result.stdout}\n"
        f"stderr:\n{result.stderr}"
    )
    return result.stdout


@pytest.fixture(scope="session")
def pbp() -> Pbp:
    """``pbp(cwd, *args, stdin=None)``: run a command, get its CompletedProcess."""
    return run_pbp


@pytest.fixture(scope="session")
def pbp_together() -> Callable[..., list[subprocess.CompletedProcess[str]]]:
    """``pbp_together((cwd, args), ...)``: independent commands run side by side."""
    return run_together


@pytest.fixture(scope="session")
def pbp_ok() -> Callable[..., str]:
    """``pbp_ok(cwd, *args, stdin=None)``: run a command that must exit 0, get its stdout."""
    return ok


@pytest.fixture(scope="session")
def make_site() -> Callable[..., Path]:
    """``make_site(folder, poll_seconds=None)``: set a folder up as a user would."""
    return write_site


@pytest.fixture(scope="session")
def pbp_process() -> tuple[list[str], dict[str, str]]:
    """The argv and environment to start a long-running `pbp` with ``subprocess.Popen``."""
    return pbp_argv(), pbp_env()


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A fresh folder with config.toml and sunken-keep.toml (no database yet)."""
    return write_site(tmp_path / "site")
