"""A PostgreSQL server that stops answering (silent: a hung host, a firewall dropping packets)
or refuses, as the user sees it: every command that opens the database exits non-zero with one
line; `pbp run` stops after its outage window, and within 10 s of SIGTERM while its poll waits
for the database. The server sits behind ``tests/tcp_proxy.py``; the limits are made short
through ``[database]`` (2 s a call, a few seconds of outage), never by waiting long."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from running_bot import RunningBot, wait_for
from sqlalchemy.engine import make_url
from tcp_proxy import Mode, TcpProxy

pytestmark = pytest.mark.slow

Ok = Callable[..., str]
TIMEOUT = 2  # [database] timeout_seconds: the shortest libpq takes

# every command that opens the store, as a user types it (`run` last: it polls on)
COMMANDS: list[list[str]] = [
    ["poll", "--once"],
    ["db", "status"],
    ["db", "upgrade"],
    ["thread", "list"],
    ["thread", "show", "keep-1"],
    ["post", "--thread", "keep-1", "--as", "alice", "[pass]"],
    ["export", "keep-1", "--md"],
    ["run"],
]


def _use_database(site: Path, url: str, **settings: int) -> None:
    """Point the site's config at ``url``, with ``[database]`` settings (``timeout_seconds``…)."""
    config = site / "config.toml"
    lines = "".join(f"{key} = {value}\n" for key, value in settings.items())
    config.write_text(
        config.read_text().replace('url = "sqlite:///pbp.db"\n', f'url = "{url}"\n{lines}')
    )


def _proxied_url(database_url: str, proxy: TcpProxy) -> str:
    return (
        make_url(database_url)
        .set(host="127.0.0.1", port=proxy.port)
        .render_as_string(hide_password=False)
    )


@pytest.fixture
def proxy(postgres_database: Any) -> Iterator[TcpProxy]:
    """A proxy in front of the test's PostgreSQL server, forwarding to begin with."""
    postgres_database.reset()
    url = make_url(str(postgres_database.url))
    with TcpProxy(url.port or 5432, target_host=url.host or "127.0.0.1") as started:
        yield started


def _one_line_within_30_s(
    args: list[str], took: float, status: int, err: str, *, mode: Mode
) -> str | None:
    """What is wrong with how a command failed (None: exit status not 0, one line on stderr
    that names the command and the database and says why, within 30 s)."""
    lines = err.strip().splitlines()
    name = " ".join(args[:2] if args[0] in ("db", "thread") else args[:1])
    why = f"did not answer within {TIMEOUT} s" if mode == "silent" else "Connection refused"
    if (
        status == 0
        or took > 30
        or len(lines) != 1
        or not lines[0].startswith(f"pbp {name}: ")
        or "postgresql+psycopg://" not in lines[0]
        or why not in lines[0]
    ):
        return f"pbp {' '.join(args)} ({took:.1f} s, exit {status}): {lines}"
    return None


@pytest.mark.parametrize("mode", ["silent", "refuse"])
def test_every_command_that_opens_the_database_says_in_one_line_that_it_does_not_answer(
    tmp_path: Path,
    make_site: Callable[..., Path],
    pbp_process: tuple[list[str], dict[str, str]],
    mode: Mode,
) -> None:
    site = make_site(tmp_path / "site", poll_seconds=5)
    argv, env = pbp_process
    problems = []
    with TcpProxy(9) as proxy:  # nothing behind it: silent or refusing, it is never reached
        proxy.set_mode(mode)
        _use_database(
            site, f"postgresql+psycopg://pbp@127.0.0.1:{proxy.port}/pbp", timeout_seconds=TIMEOUT
        )
        # as many at once as there are cores: each is timed from its own start
        at_once = max(1, min(len(COMMANDS), os.cpu_count() or 1))
        for first in range(0, len(COMMANDS), at_once):
            started = [
                (
                    args,
                    time.monotonic(),
                    subprocess.Popen(
                        [*argv, *args],
                        cwd=site,
                        env=env,
                        stdin=subprocess.DEVNULL,
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.PIPE,
                        text=True,
                    ),
                )
                for args in COMMANDS[first : first + at_once]
            ]
            for args, began, process in started:
                try:
                    _out, err = process.communicate(timeout=60)
                except subprocess.TimeoutExpired:
                    process.kill()
                    _out, err = process.communicate()
                problem = _one_line_within_30_s(
                    args, time.monotonic() - began, process.returncode, err, mode=mode
                )
                if problem is not None:
                    problems.append(problem)
        if mode == "silent":
            assert proxy.connections >= len(COMMANDS)  # each did try, and was left waiting
    assert not problems, "\n".join(problems)


def _started(
    site: Path, pbp_process: tuple[list[str], dict[str, str]], name: str = "run"
) -> RunningBot:
    argv, env = pbp_process
    return RunningBot([*argv, "run"], env=env, cwd=site, name=name)


def test_run_stops_after_its_outage_window_when_the_server_goes_silent_or_refuses(
    tmp_path: Path,
    make_site: Callable[..., Path],
    pbp_ok: Ok,
    postgres_database: Any,
    pbp_process: tuple[list[str], dict[str, str]],
) -> None:
    """Two workers on one database, each through a proxy of its own: one loses the server to
    silence, the other to refusal, after their first poll."""
    postgres_database.reset()
    url = make_url(str(postgres_database.url))
    outage = 4
    with TcpProxy(url.port or 5432) as silent, TcpProxy(url.port or 5432) as refusing:
        sites = {}
        for proxy in (silent, refusing):
            site = make_site(tmp_path / f"site-{proxy.port}", poll_seconds=5)
            _use_database(
                site,
                _proxied_url(str(postgres_database.url), proxy),
                timeout_seconds=TIMEOUT,
                outage_seconds=outage,
            )
            sites[proxy.port] = site
        pbp_ok(sites[silent.port], "post", "--thread", "keep-1", "--as", "alice", "[pass]")
        with (
            _started(sites[silent.port], pbp_process) as one,
            _started(sites[refusing.port], pbp_process) as other,
        ):
            for bot in (one, other):
                assert bot.says("pbp runs 1 thread(s)", seconds=30), bot.report()
            assert wait_for(lambda: "read 1 new post version" in one.out + other.out, seconds=30), (
                one.report() + other.report()
            )
            time.sleep(0.5)  # both polled (the other found the thread taken)
            silent.set_mode("silent")
            refusing.set_mode("refuse")
            lost = time.monotonic()
            # the next poll (≤ 5 s) fails; the window (4 s) runs out before the one after
            for bot in (one, other):
                assert bot.ended(seconds=30), bot.report()
    for bot, says in ((one, f"did not answer within {TIMEOUT} s"), (other, "")):
        took = (bot.ended_at or 0) - lost
        lines = bot.err.strip().splitlines()
        assert bot.status == 1 and took < 5 + TIMEOUT + outage + 3, (took, bot.report())
        assert "Traceback" not in bot.err and "maximum number of running" not in bot.err
        last = lines[-1]
        assert last.startswith("pbp run: the database postgresql+psycopg://"), last
        assert says in last and last.endswith(" s)"), last  # "(for 4 s)"
        failed = [line for line in lines[:-1] if "the poll failed, trying again" in line]
        assert failed and len(failed) == len(lines) - 1, bot.report()  # one line a poll
        assert bot.out.splitlines()[-1] != "pbp stopped"


def test_run_stops_within_ten_seconds_of_sigterm_while_its_poll_waits_for_the_database(
    tmp_path: Path,
    make_site: Callable[..., Path],
    pbp_ok: Ok,
    proxy: TcpProxy,
    postgres_database: Any,
    pbp_process: tuple[list[str], dict[str, str]],
) -> None:
    site = make_site(tmp_path / "site", poll_seconds=5)
    # a call may wait a whole minute: the stop must not wait for it
    _use_database(site, _proxied_url(str(postgres_database.url), proxy), timeout_seconds=60)
    pbp_ok(site, "post", "--thread", "keep-1", "--as", "alice", "[pass]")
    with _started(site, pbp_process) as bot:
        assert bot.says("read 1 new post version", seconds=30), bot.report()
        proxy.set_mode("silent")
        time.sleep(6.5)  # the next poll has begun and waits for an answer
        assert bot.status is None, bot.report()
        sent = bot.signal(signal.SIGTERM)
        assert bot.ended(seconds=15), bot.report()
    took = (bot.ended_at or 0) - sent
    assert took < 10, f"pbp run stopped {took:.1f} s after SIGTERM\n{bot.report()}"
    assert bot.status == 0, bot.report()
    assert bot.out.splitlines()[-1] == "pbp stopped"
    assert "Traceback" not in bot.err
    assert "the poll in hand did not end in time: abandoned" in bot.err
