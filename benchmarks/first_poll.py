"""What the first poll of a new process costs on a long thread.

    python benchmarks/first_poll.py [EVENTS ...] [--runs N] [--before DIR]
                                                        (default: 1000 20000, 5 runs)

A cron `pbp poll --once`, a restart, or a lease passing to another worker starts with nothing
in memory: it rebuilds each touched thread's state from its snapshot and the events logged
after it. This benchmark measures that first poll against the length of the thread.

The input: for each size, a SQLite file holding one Distat thread of about that many logged
events (four players and a GM who closes a round every ten posts; attacks, moves, typos,
quotes and an edit every seventh post: the thread of ``replay_scale.py``), played by a bot
that polled after every event, as a live bot does. Then each run puts ONE new player post in
the thread and starts a NEW process (a fresh Python, through a small launcher so that its peak
resident set is its own) that polls once: it prints that poll's wall and CPU time, and the
process's peak resident set (imports, start-up and the poll together, which is what a cron
job or a restarted worker holds). Figures are the median of ``--runs`` runs, and the ratios
of the longest thread to the shortest. ``--before DIR``: the same on the pbp source in DIR
(another checkout), in the same run.

What it does not measure: PostgreSQL (the rebuild is the same code; the statements are the
same few), start-up before the poll (``startup.py``), threads with long open rounds (a round
is replayed whole either way), and a poll that closes a round (``close_sql.py``).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
from datetime import timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from replay_scale import CAMPAIGN, LAUNCHER, START, _child_env, _compile, events  # noqa: E402

# Plays the thread (the replay thread of services.replay), polling after every event, then
# lets it go (its lease released).
BUILD = r"""
import sys
from pathlib import Path
from pbp.services.events_file import read_events
from pbp.services.replay import ReplayRun, _Clock
from pbp.forums.local import LocalForum
from pbp.services.bot import Bot, BotOptions, WatchedThread
from pbp.store.database import Store
from pbp.store.local_posts import SqlLocalStorage

url, campaign, events_path = sys.argv[1:4]
store = Store(url)
store.create_schema()
clock = _Clock()
storage = SqlLocalStorage(store)
forum = LocalForum(storage, bot="pbp_bot", clock=clock)
bot = Bot(store=store, forum=forum, threads=[WatchedThread(key="replay", campaign=Path(campaign))],
          options=BotOptions(username="pbp_bot", owner="builder", reload_templates=False))
run = ReplayRun(bot=bot, forum=forum, clock=clock)
for event in read_events(Path(events_path)):
    run.put(event)
    run.poll(event)
bot.release_leases()
with store.engine.connect() as conn:
    print(conn.exec_driver_sql("SELECT last_seq FROM threads").scalar())
store.dispose()
"""

# A new process's first poll, after one new post.
POLL = r"""
import json, sys, time
from datetime import datetime
from pathlib import Path
from pbp.forums.local import LocalForum
from pbp.services.bot import Bot, BotOptions, WatchedThread
from pbp.store.database import Store
from pbp.store.local_posts import SqlLocalStorage

url, campaign, now, owner = sys.argv[1:5]
now = datetime.fromisoformat(now)
store = Store(url)
forum = LocalForum(SqlLocalStorage(store), bot="pbp_bot", clock=lambda: now)
forum.post(thread="replay", author="bob", body="Bram swings. [physical: attack Goblin]", at=now)
bot = Bot(store=store, forum=forum, threads=[WatchedThread(key="replay", campaign=Path(campaign))],
          options=BotOptions(username="pbp_bot", owner=owner))
cpu, wall = time.process_time(), time.perf_counter()
report = bot.poll_once(now)
cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
assert report.events == 1, report.events
bot.release_leases()
print(json.dumps({"cpu_ms": cpu * 1000, "wall_ms": wall * 1000}))
"""


def build(folder: Path, size: int, source: str | None) -> tuple[str, int]:
    """A thread of about ``size`` logged events in a SQLite file in ``folder``: its URL, and
    the events it logged."""
    campaign = folder / "c.toml"
    campaign.write_text(CAMPAIGN)
    thread = events(_posts_for(size))
    path = folder / "events.jsonl"
    path.write_text("\n".join(json.dumps(e) for e in thread) + "\n")
    url = f"sqlite:///{folder / 'pbp.db'}"
    done = subprocess.run(
        [sys.executable, "-c", BUILD, url, str(campaign), str(path)],
        env=_child_env(source),
        cwd=folder,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        sys.exit(f"building the thread failed: {done.stderr[-2000:]}")
    return url, int(done.stdout.strip().splitlines()[-1])


def _posts_for(size: int) -> int:
    """The posts that make about ``size`` logged events (an edit every seventh post)."""
    return max(2, round(size / (1 + 1 / 7)))


def first_poll(folder: Path, url: str, run: int, source: str | None) -> dict[str, float]:
    """One new process's first poll: its wall and CPU milliseconds, and its peak MiB."""
    measured = folder / "measured.txt"
    measured.unlink(missing_ok=True)
    out = folder / "out.txt"
    now = START + timedelta(days=60, minutes=run)  # after every event of the thread
    with out.open("w") as sink, (folder / "err.txt").open("w") as err:
        subprocess.run(
            [
                sys.executable,
                "-c",
                LAUNCHER,
                str(measured),
                sys.executable,
                "-c",
                POLL,
                url,
                str(folder / "c.toml"),
                now.isoformat(),
                f"fresh{run}",
            ],
            stdout=sink,
            stderr=err,
            env=_child_env(source),
            cwd=folder,
            check=False,
        )
    code, took, maxrss = measured.read_text().split()
    if int(code) != 0:
        sys.exit(f"the first poll failed: {(folder / 'err.txt').read_text()[-2000:]}")
    got = dict(json.loads(out.read_text().strip().splitlines()[-1]))
    got["peak_mib"] = int(maxrss) / 1024
    got["process_ms"] = float(took) * 1000
    return got


def measure(size: int, runs: int, source: str | None) -> dict[str, float]:
    """The median first poll on a thread of about ``size`` events."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        url, logged = build(folder, size, source)
        polls = [first_poll(folder, url, run, source) for run in range(runs)]
    got = {key: statistics.median(p[key] for p in polls) for key in polls[0]}
    got["events"] = logged
    label = f"[{source}] " if source else ""
    print(
        f"{label}{logged:7d} events: first poll {got['wall_ms']:7.1f} ms wall, "
        f"{got['cpu_ms']:7.1f} ms CPU; the process {got['process_ms']:6.0f} ms wall, "
        f"peak {got['peak_mib']:6.1f} MiB "
        f"(median of {runs})",
        flush=True,
    )
    return got


def main(sizes: list[int], runs: int, before: str | None) -> None:
    for source in ([before] if before else []) + [None]:
        _compile(source)
        results = [measure(size, runs, source) for size in sizes]
        if len(results) > 1:
            first, last = results[0], results[-1]
            print(
                f"ratio {last['events'] / first['events']:.0f}x events -> "
                f"{last['wall_ms'] / first['wall_ms']:.2f}x wall, "
                f"{last['cpu_ms'] / first['cpu_ms']:.2f}x CPU, "
                f"{last['process_ms'] / first['process_ms']:.2f}x the process's wall, "
                f"{last['peak_mib'] / first['peak_mib']:.2f}x peak memory"
            )


if __name__ == "__main__":
    args = sys.argv[1:]
    options: dict[str, str] = {}
    for flag in ("--runs", "--before"):
        if flag in args:
            at = args.index(flag)
            options[flag] = args[at + 1]
            del args[at : at + 2]
    main(
        [int(a) for a in args] or [1000, 20000],
        int(options.get("--runs", "5")),
        options.get("--before"),
    )
