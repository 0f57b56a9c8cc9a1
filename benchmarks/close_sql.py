"""What closing a round costs the database, early and late in a thread.

    python benchmarks/close_sql.py [ROUND ...]          (default: 2 100 1000)
    PBP_BENCH_URL=postgresql+psycopg://postgres@127.0.0.1:5432/bench python benchmarks/...

On the campaign of ``replay_scale.py``, rounds are closed (a player's attack and the GM's
``!close``, a hundred rounds a poll) until each ROUND; then a player's post is polled alone, and
the GM's close alone. Prints what each of the two polls sent (statements, BEGIN not counted,
and transactions), what the close adds, and how many character rows it changed.
"""

from __future__ import annotations

import os
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import event

sys.path.insert(0, str(Path(__file__).resolve().parent))

from replay_scale import CAMPAIGN

from pbp.engine.events import PostArrived
from pbp.forums.local import LocalForum
from pbp.services.bot import Bot, BotOptions, WatchedThread
from pbp.services.replay import THREAD, ReplayRun, _Clock
from pbp.services.seeds import round_seeds
from pbp.store.database import Store
from pbp.store.local_posts import SqlLocalStorage
from pbp.store.repository import Repository

START = datetime(2026, 11, 1, tzinfo=UTC)
CLOSE = "[physical: attack Aria | as Goblin]\n!close"


def post(pid: str, author: str, minute: float, body: str) -> PostArrived:
    return PostArrived(post_id=pid, author=author, at=START + timedelta(minutes=minute), body=body)


def characters(store: Store) -> dict[str, str]:
    with store.session() as s:
        repo = Repository(s)
        thread = repo.thread("local", THREAD)
        return {} if thread is None else {c.name: c.data for c in repo.characters(thread.id)}


def main(rounds: list[int], folder: Path) -> None:
    (folder / "c.toml").write_text(CAMPAIGN, encoding="utf-8")
    url = os.environ.get("PBP_BENCH_URL") or f"sqlite:///{folder / 'close.db'}"
    store = Store(url, durable=False)
    if url.startswith("postgresql"):
        with store.engine.begin() as conn:
            conn.exec_driver_sql("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
    store.upgrade()
    clock, storage = _Clock(), SqlLocalStorage(store)
    forum = LocalForum(storage, bot="pbp_bot", clock=clock)
    seeds = round_seeds("1")
    bot = Bot(
        store=store,
        forum=forum,
        threads=[WatchedThread(key=THREAD, campaign=folder / "c.toml")],
        options=BotOptions(username="pbp_bot", ack="errors", owner="bench"),
        seed_maker=lambda _thread, number: seeds(number),
    )
    run = ReplayRun(bot=bot, forum=forum, clock=clock, storage=storage)
    sent = {"statements": 0, "transactions": 0}

    def statement(*args: Any) -> None:
        if not str(args[2]).lstrip().upper().startswith("BEGIN"):
            sent["statements"] += 1

    def begin(*_args: Any) -> None:
        sent["transactions"] += 1

    for engine in store.engines:
        event.listen(engine, "before_cursor_execute", statement)
        event.listen(engine, "begin", begin)
    run.feed(post("g0", "gm", 0, "!group Aria, Bram, Cora, Dax, Goblin"))
    minute, closed = 1, 0
    print(f"{'round':>6} {'post poll':>10} {'close poll':>11} {'close adds':>11} {'changed':>8}")
    for target in rounds:
        while closed + 1 < target:
            run.put(post(f"b{minute}", "bob", minute, "Bram swings. [physical: attack Goblin]"))
            run.put(post(f"c{minute}", "gm", minute + 0.5, "!close"))
            minute, closed = minute + 1, closed + 1
            if closed % 100 == 0 or closed + 1 == target:
                run.poll(post("-", "-", minute, ""))
        before = characters(store)
        measured = []
        for event_ in (
            post(f"p{minute}", "alice", minute, "Aria swings. [physical: attack Goblin]"),
            post(f"g{minute}", "gm", minute + 0.5, CLOSE),
        ):
            run.put(event_)
            sent.update(statements=0, transactions=0)
            run.poll(event_)
            measured.append((sent["statements"], sent["transactions"]))
        after = characters(store)
        changed = sum(after.get(n) != d for n, d in before.items()) + len(set(after) - set(before))
        minute, closed = minute + 1, closed + 1
        (ps, pt), (cs, ct) = measured
        print(
            f"{closed:>6} {f'{ps}/{pt}':>10} {f'{cs}/{ct}':>11} {f'{cs - ps}/{ct - pt}':>11} "
            f"{changed:>8}"
        )
    store.dispose()


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as tmp:
        main([int(a) for a in sys.argv[1:]] or [2, 100, 1000], Path(tmp))
