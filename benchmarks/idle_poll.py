"""What an idle poll costs as the number of watched threads grows, on the local forum.

    python benchmarks/idle_poll.py [THREADS ...]    (default: 10 100 1000)
    PBP_BENCH_URL=postgresql+psycopg://postgres@127.0.0.1:5432/bench python benchmarks/...

For each size, a SQLite file (or the PostgreSQL database of PBP_BENCH_URL, emptied first) gets
that many threads with one post each, read and answered by a first poll. Then a NEW process
(a fresh Python, as a restarted `pbp poll --once` would be) polls once more with nothing new,
and prints the statements and transactions that idle poll sent and its CPU and wall time.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
START = datetime(2026, 11, 29, 10, 0, tzinfo=UTC)

CHILD = r"""
import json, sys, time
from datetime import datetime, timedelta
from pathlib import Path
from sqlalchemy import event
from pbp.forums.local import LocalForum
from pbp.services.bot import Bot, BotOptions, WatchedThread
from pbp.store.database import Store
from pbp.store.local_posts import SqlLocalStorage

url, campaign, threads, now, owner = sys.argv[1:6]
now = datetime.fromisoformat(now)
store = Store(url)
forum = LocalForum(SqlLocalStorage(store), bot="pbp_bot", clock=lambda: now)
bot = Bot(store=store, forum=forum,
          threads=[WatchedThread(key=f"t{i}", campaign=Path(campaign))
                   for i in range(int(threads))],
          options=BotOptions(username="pbp_bot", owner=owner))
sent = {"statements": 0, "transactions": 0}
def statement(*args):
    if not str(args[2]).startswith("BEGIN"):
        sent["statements"] += 1
def begin(*args):
    sent["transactions"] += 1
if owner == "idle":
    for engine in store.engines:
        event.listen(engine, "before_cursor_execute", statement)
        event.listen(engine, "begin", begin)
cpu, wall = time.process_time(), time.perf_counter()
report = bot.poll_once(now)
sent["cpu_ms"] = round((time.process_time() - cpu) * 1000, 1)
sent["wall_ms"] = round((time.perf_counter() - wall) * 1000, 1)
sent["events"] = report.events
bot.release_leases()
print(json.dumps(sent))
"""


def child(url: str, campaign: Path, threads: int, now: datetime, owner: str) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, url, str(campaign), str(threads), now.isoformat(), owner],
        capture_output=True,
        text=True,
        check=True,
    )
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def measure(folder: Path, threads: int) -> dict[str, float]:
    from pbp.forums.local import LocalForum
    from pbp.store.database import Store
    from pbp.store.local_posts import SqlLocalStorage

    sys.path.insert(0, str(HERE.parent / "tests"))
    from sample_campaigns import TEST_KEEP

    campaign = folder / "campaign.toml"
    campaign.write_text(TEST_KEEP, encoding="utf-8")
    url = os.environ.get("PBP_BENCH_URL") or f"sqlite:///{folder / 'pbp.db'}"
    store = Store(url)
    if url.startswith("postgresql"):
        with store.engine.begin() as conn:
            conn.exec_driver_sql("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
    store.upgrade()
    forum = LocalForum(SqlLocalStorage(store), bot="pbp_bot", clock=lambda: START)
    for i in range(threads):
        forum.post(thread=f"t{i}", author="bob", body="[phisical: attack Goblin]", at=START)
    store.dispose()
    child(url, campaign, threads, START + timedelta(minutes=1), "first")  # reads, answers
    child(url, campaign, threads, START + timedelta(minutes=2), "second")  # its own replies
    return child(url, campaign, threads, START + timedelta(minutes=3), "idle")


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [10, 100, 1000]
    print(f"{'threads':>8} {'statements':>11} {'transactions':>13} {'cpu ms':>8} {'wall ms':>8}")
    for size in sizes:
        with tempfile.TemporaryDirectory() as folder:
            got = measure(Path(folder), size)
        assert got["events"] == 0
        print(
            f"{size:>8} {got['statements']:>11} {got['transactions']:>13} "
            f"{got['cpu_ms']:>8} {got['wall_ms']:>8}"
        )


if __name__ == "__main__":
    main()
