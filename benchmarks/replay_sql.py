"""What a replay costs the database: statements and transactions per post, in-process.

    python benchmarks/replay_sql.py [POSTS ...]          (default: 2000)
    python benchmarks/replay_sql.py --where 2000         (also: which code sent them)
    PBP_BENCH_URL=postgresql+psycopg://postgres@127.0.0.1:5432/bench python benchmarks/...

Replays the generated thread of ``replay_scale.py`` (four players and a GM who closes a round
every ten posts) through the bot's own services on the local forum, as `pbp replay` does, on a
SQLite file (or the PostgreSQL database of PBP_BENCH_URL, emptied first), and prints the
statements (BEGIN and COMMIT not counted) and transactions sent per post, and posts a second.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
import traceback
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import event

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from replay_scale import CAMPAIGN, events  # noqa: E402

from pbp.forums.local import LocalForum  # noqa: E402
from pbp.services.bot import Bot, BotOptions, WatchedThread  # noqa: E402
from pbp.services.events_file import event_from  # noqa: E402
from pbp.services.replay import THREAD, ReplayRun, _Clock, feed_all  # noqa: E402
from pbp.services.seeds import round_seeds  # noqa: E402
from pbp.store.database import Store  # noqa: E402
from pbp.store.local_posts import SqlLocalStorage  # noqa: E402


def _where() -> str:
    """The innermost pbp frame outside the store that sent a statement."""
    for frame in reversed(traceback.extract_stack()[:-3]):
        if "/pbp/" in frame.filename and "/pbp/store/database" not in frame.filename:
            return f"{Path(frame.filename).name}:{frame.name}"
    return "?"


def measure(posts: int, folder: Path, *, where: bool) -> dict[str, Any]:
    """Replay a thread of ``posts`` posts; count what it sent."""
    campaign = folder / "c.toml"
    campaign.write_text(CAMPAIGN, encoding="utf-8")
    url = os.environ.get("PBP_BENCH_URL") or f"sqlite:///{folder / f'r{posts}.db'}"
    store = Store(url, durable=False)
    if url.startswith("postgresql"):
        with store.engine.begin() as conn:
            conn.exec_driver_sql("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
    store.upgrade()
    clock = _Clock()
    storage = SqlLocalStorage(store)
    forum = LocalForum(storage, bot="pbp_bot", clock=clock)
    seeds = round_seeds("1")
    bot = Bot(
        store=store,
        forum=forum,
        threads=[WatchedThread(key=THREAD, campaign=campaign)],
        options=BotOptions(username="pbp_bot", ack="errors", owner="replay"),
        seed_maker=lambda _thread, number: seeds(number),
    )
    run = ReplayRun(bot=bot, forum=forum, clock=clock, storage=storage)
    loaded = [event_from(e, where=f"event {i}") for i, e in enumerate(events(posts))]
    sent: Counter[str] = Counter()
    places: Counter[str] = Counter()

    def statement(*args: Any) -> None:
        if not str(args[2]).lstrip().upper().startswith("BEGIN"):
            sent["statements"] += 1
            if where:
                places[_where()] += 1

    def begin(*_args: Any) -> None:
        sent["transactions"] += 1
        if where:
            places[_where() + " (BEGIN)"] += 1

    for engine in store.engines:
        event.listen(engine, "before_cursor_execute", statement)
        event.listen(engine, "begin", begin)
    began, cpu = time.perf_counter(), time.process_time()
    feed_all(run, loaded)
    took, cpu = time.perf_counter() - began, time.process_time() - cpu
    store.dispose()
    replies = sum(len(done) for _, done in run.log)
    return {
        "posts": posts,
        "seconds": took,
        "cpu": cpu,
        "replies": replies,
        "polls": len(run.log),
        **sent,
        "places": places,
    }


def main(argv: list[str]) -> None:
    where = "--where" in argv
    sizes = [int(a) for a in argv if a != "--where"] or [2000]
    started = datetime.now(UTC)
    print(
        f"{'posts':>6} {'polls':>6} {'replies':>8} {'stmts/post':>11} {'txns/post':>10} "
        f"{'posts/s':>8} {'cpu posts/s':>12}"
    )
    for size in sizes:
        with tempfile.TemporaryDirectory() as folder:
            got = measure(size, Path(folder), where=where)
        print(
            f"{size:>6} {got['polls']:>6} {got['replies']:>8} "
            f"{got['statements'] / size:>11.2f} {got['transactions'] / size:>10.2f} "
            f"{size / got['seconds']:>8.0f} {size / got['cpu']:>12.0f}"
        )
        if where:
            for place, count in got["places"].most_common(40):
                print(f"    {count / size:7.2f}  {place}")
    del started


if __name__ == "__main__":
    main(sys.argv[1:])
