"""`pbp user add`, `pbp serve link GM` and `pbp demo --keep FOLDER` then `pbp serve`, each
run as a user types it (a subprocess), the pages read from the real server over HTTP."""

from __future__ import annotations

import re
import socket
import sqlite3
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

pytestmark = pytest.mark.slow

Run = Callable[..., subprocess.CompletedProcess[str]]
Ok = Callable[..., str]
PASSWORD = "correct horse battery"


def _one_line(result: subprocess.CompletedProcess[str], status: int, *words: str) -> str:
    """The error of a refused command: one line on stderr, saying ``words``."""
    assert result.returncode == status, (result.stdout, result.stderr)
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def _accounts(db: Path) -> dict[str, tuple[str, bool]]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT name, password_hash, gm FROM web_accounts").fetchall()
    return {name: (hashed, bool(gm)) for name, hashed, gm in rows}


def test_user_add_makes_accounts_and_refuses_bad_input_in_one_line(
    tmp_path: Path, site: Path, pbp: Run, pbp_ok: Ok
) -> None:
    add = ("user", "add", "--password-stdin")
    assert pbp_ok(site, *add, "alice", stdin=PASSWORD + "\n").strip() == "added alice"
    assert pbp_ok(site, *add, "--gm", "root", stdin=PASSWORD).strip() == "added root (GM)"
    accounts = _accounts(site / "pbp.db")
    assert set(accounts) == {"alice", "root"} and accounts["root"][1] and not accounts["alice"][1]
    assert all(h.startswith("$argon2id$") for h, _ in accounts.values())
    assert PASSWORD.encode() not in (site / "pbp.db").read_bytes()

    _one_line(pbp(site, *add, "ALICE", stdin=PASSWORD), 1, "already an account", "ALICE")
    _one_line(pbp(site, *add, "bob", stdin="short\n"), 2, "at least 8 characters")
    _one_line(pbp(site, *add, "bob", stdin=""), 2, "at least 8 characters")
    _one_line(pbp(site, *add, " ", stdin=PASSWORD), 2, "NAME must be 1 to 100")
    _one_line(pbp(site, *add, "x" * 101, stdin=PASSWORD), 2, "NAME must be 1 to 100")
    _one_line(pbp(site, *add, "--reset", "bob", stdin=PASSWORD), 1, "no account called 'bob'")
    _one_line(pbp(site, "user", "add", "bob", stdin=""), 2, "--password-stdin")  # no terminal
    _one_line(pbp(tmp_path, *add, "bob", stdin=PASSWORD), 2, "no configuration at config.toml")
    assert set(_accounts(site / "pbp.db")) == {"alice", "root"}

    before = _accounts(site / "pbp.db")["alice"][0]
    reset = pbp_ok(site, *add, "--reset", "Alice", stdin="another password\n")
    assert reset.strip() == "new password for Alice"
    assert _accounts(site / "pbp.db")["alice"][0] != before


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def _serving(
    started: tuple[list[str], dict[str, str]], cwd: Path, *args: str
) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """``pbp serve ARGS --port P`` running in ``cwd`` until the block ends."""
    argv, env = started
    port = _free_port()
    process = subprocess.Popen(
        [*argv, "serve", *args, "--port", str(port)],
        cwd=cwd,
        env=env,
        text=True,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if httpx.get(f"{base}/health", timeout=1).text == "ok\n":
                    break
            except httpx.HTTPError:
                pass
            assert process.poll() is None, process.communicate()
            time.sleep(0.1)
        else:
            raise AssertionError("pbp serve did not answer /health")
        yield base, process
    finally:
        if process.returncode is None:
            process.terminate()
            process.communicate(timeout=20)


def _csrf(page: httpx.Response) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert found, page.text
    return found.group(1)


def test_the_readmes_two_commands_then_accounts_and_a_gm_link(
    tmp_path: Path, pbp: Run, pbp_ok: Ok, pbp_process: tuple[list[str], dict[str, str]]
) -> None:
    # README: `pbp demo --keep demo` then `pbp serve --config demo/config.toml`
    kept = pbp(tmp_path, "demo", "--keep", "demo")
    assert kept.returncode == 0 and "Round 1" in kept.stdout
    assert "pbp serve --config demo/config.toml" in kept.stderr
    _one_line(pbp(tmp_path, "demo", "--keep", "demo"), 2, "exists already")
    config = ("--config", "demo/config.toml")
    add = ("user", "add", *config, "--password-stdin")
    pbp_ok(tmp_path, *add, "alice", stdin=PASSWORD)

    with _serving(pbp_process, tmp_path, *config) as (base, process):
        with httpx.Client(base_url=base) as anyone:
            index = anyone.get("/")
            assert index.status_code == 200 and "The Sunken Keep" in index.text
            assert 'href="/thread/replay"' in index.text and "2 closed" in index.text
            history = anyone.get("/thread/replay/rounds")
            assert "<h2>Round 2</h2>" in history.text and "<h2>Round 1</h2>" in history.text
            assert history.text.count("The seal matches the seed.") == 2
            assert "pbp verify round-1.txt" in history.text
            assert "Full status (GM)" not in anyone.get("/thread/replay").text

        with httpx.Client(base_url=base) as alice:  # the account made by the command
            token = _csrf(alice.get("/login"))
            signed = alice.post(
                "/login", data={"name": "alice", "password": PASSWORD, "csrf": token}
            )
            assert signed.status_code == 303, signed.text
            assert "Write as alice" in alice.get("/thread/replay").text
            wrong = alice.post("/login", data={"name": "alice", "password": "x", "csrf": token})
            assert wrong.status_code in (401, 403)

        _one_line(pbp(tmp_path, "serve", "link", *config, "alice"), 1, "not a GM", "gm_sam")
        url = pbp_ok(tmp_path, "serve", *config, "link", "--base-url", base, "GM_Sam").strip()
        assert re.fullmatch(re.escape(base) + r"/link\?token=[\w.-]+", url), url
        with httpx.Client() as gm:
            page = gm.get(url)
            assert page.status_code == 200 and "Sign in as gm_sam" in page.text
            token = url.split("token=", 1)[1]
            used = gm.post(f"{base}/link", data={"token": token, "csrf": _csrf(page)})
            assert used.status_code == 303
            thread = gm.get(f"{base}/thread/replay").text
            assert "GM view" in thread and "gm_sam" in thread
        with httpx.Client() as other:  # the same link, used again: refused with a clear page
            page = other.get(url)
            again = other.post(f"{base}/link", data={"token": token, "csrf": _csrf(page)})
            assert again.status_code == 403
            assert "This sign-in link was used already." in again.text
            assert "GM view" not in other.get(f"{base}/thread/replay").text
        process.terminate()
        out, _err = process.communicate(timeout=20)
    assert f"pbp serve: {base}/ (Ctrl-C stops)" in out  # 127.0.0.1 unless told otherwise
