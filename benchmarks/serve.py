"""What ``pbp serve`` takes to show a long thread, and whether it holds many readers at once.

    python benchmarks/serve.py [ROUNDS] [READERS]          (default: 1000 200)
    PBP_BENCH_URL=postgresql+psycopg://postgres@127.0.0.1:5432/bench python benchmarks/serve.py

Input: the campaign of ``replay_scale.py`` (four heroes and a goblin in one Distat group);
ROUNDS rounds, each a player's attack and the GM's ``!close``, fed through the real replay
path (``ReplayRun``: the local forum in an SQLite file, the bot's poll every hundred rounds),
so the store holds what ``pbp run`` would have written: ROUNDS summaries, seeds, snapshots
(in an SQLite file, or the PostgreSQL database of PBP_BENCH_URL, emptied first).
Then the pages' application (``pbp.web``) over that store, with a bot of its own that never
polls, as a separate ``pbp serve`` process would have:

- server time: the thread's page (the open round) and the newest history page (ten summaries
  rendered from Markdown, each seal checked), each asked 50 times in-process through
  Starlette's TestClient, after one warm-up request; the median and the slowest are printed
  (target: a median of at most 50 ms each);
- READERS concurrent readers: as many asyncio tasks with httpx against a real uvicorn on
  127.0.0.1, each reading the thread page and a history page; every answer must be a 200
  (the errors are counted by kind).

Not measured: the network and TLS of a reverse proxy, the browser's rendering, pages while a
bot writes to the same database, and the sign-in forms (argon2 is slow on purpose). A page's
first reading ("first") rebuilds the thread's state from its snapshot and renders each summary
from Markdown; both are then kept (the state while the thread's log does not move, a rendered
summary by its text), so the median is that of a page read again, as readers read it.
"""

from __future__ import annotations

import asyncio
import os
import socket
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from replay_scale import CAMPAIGN

from pbp.engine.events import PostArrived
from pbp.forums.local import LocalForum
from pbp.services.bot import Bot, BotOptions, WatchedThread
from pbp.services.replay import THREAD, ReplayRun, _Clock
from pbp.services.seeds import round_seeds
from pbp.store.accounts import Accounts
from pbp.store.database import Store
from pbp.store.local_posts import SqlLocalStorage
from pbp.web.app import Site, create_app
from pbp.web.reader import Reader
from pbp.web.security import Signer
from pbp.web.serve import KEEP_ALIVE_SECONDS

START = datetime(2026, 11, 1, tzinfo=UTC)


def post(pid: str, author: str, minute: float, body: str) -> PostArrived:
    return PostArrived(post_id=pid, author=author, at=START + timedelta(minutes=minute), body=body)


def build(folder: Path, rounds: int) -> tuple[Store, Path]:
    """A thread of ``rounds`` closed rounds, played through the replay path."""
    campaign = folder / "c.toml"
    campaign.write_text(CAMPAIGN, encoding="utf-8")
    url = os.environ.get("PBP_BENCH_URL") or f"sqlite:///{folder / 'serve.db'}"
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
        threads=[WatchedThread(key=THREAD, campaign=campaign)],
        options=BotOptions(username="pbp_bot", ack="errors", owner="bench"),
        seed_maker=lambda _thread, number: seeds(number),
    )
    run = ReplayRun(bot=bot, forum=forum, clock=clock, storage=storage)
    run.feed(post("g0", "gm", 0, "!group Aria, Bram, Cora, Dax, Goblin"))
    for n in range(1, rounds + 1):
        run.put(post(f"b{n}", "bob", n, "Bram swings. [physical: attack Goblin]"))
        run.put(post(f"c{n}", "gm", n + 0.5, "!close"))
        if n % 100 == 0 or n == rounds:
            run.poll(post("-", "-", n + 0.9, ""))
    return store, campaign


def site_over(store: Store, campaign: Path) -> Site:
    forum = LocalForum(SqlLocalStorage(store), bot="pbp_bot", clock=lambda: datetime.now(UTC))
    bot = Bot(
        store=store,
        forum=forum,
        threads=[WatchedThread(key=THREAD, campaign=campaign)],
        options=BotOptions(username="pbp_bot", ack="errors", owner="web"),
    )
    accounts = Accounts(store)
    now = datetime.now(UTC)
    return Site(
        reader=Reader(bot),
        accounts=accounts,
        signer=Signer(accounts.signing_key(at=now)),
        clock=lambda: datetime.now(UTC),
    )


def server_times(site: Site, urls: list[str], times: int = 50) -> None:
    from starlette.testclient import TestClient

    client = TestClient(create_app(site))
    for url in urls:
        start = time.perf_counter()
        assert client.get(url).status_code == 200, url  # warm-up: the state read once
        first = (time.perf_counter() - start) * 1000
        took = []
        for _ in range(times):
            start = time.perf_counter()
            answer = client.get(url)
            took.append((time.perf_counter() - start) * 1000)
            assert answer.status_code == 200
        print(
            f"{url:<32} median {statistics.median(took):6.1f} ms   slowest {max(took):6.1f} ms"
            f"   first {first:6.1f} ms   {len(answer.content) // 1024} KiB"
        )


async def readers(base: str, urls: list[str], count: int) -> tuple[int, Counter[str], float]:
    import httpx

    limits = httpx.Limits(max_connections=count, max_keepalive_connections=count)
    async with httpx.AsyncClient(base_url=base, timeout=120, limits=limits) as client:

        async def reader(i: int) -> list[str]:
            codes = []
            for url in urls:
                try:
                    codes.append(str((await client.get(url)).status_code))
                except httpx.HTTPError as exc:
                    codes.append(type(exc).__name__)
            return codes

        start = time.perf_counter()
        results = await asyncio.gather(*(reader(i) for i in range(count)))
        took = time.perf_counter() - start
    codes = Counter(c for r in results for c in r)
    return codes.pop("200", 0), codes, took


def concurrent(site: Site, urls: list[str], count: int) -> None:
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(create_app(site), host="127.0.0.1", port=port, log_level="warning",
                       backlog=4096, timeout_keep_alive=KEEP_ALIVE_SECONDS)
    )  # fmt: skip
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    ok, failed, took = asyncio.run(readers(f"http://127.0.0.1:{port}", urls, count))
    server.should_exit = True
    thread.join(timeout=10)
    errors = ", ".join(f"{n} {kind}" for kind, n in failed.items()) or "none"
    print(f"{count} concurrent readers: {ok} answers 200, errors: {errors}, in {took:.1f} s")


def main(rounds: int, count: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        store, campaign = build(Path(tmp), rounds)
        print(f"a thread of {rounds} closed rounds built in {time.perf_counter() - start:.0f} s")
        site = site_over(store, campaign)
        urls = [f"/thread/{THREAD}", f"/thread/{THREAD}/rounds?page=1"]
        server_times(site, urls)
        concurrent(site, urls, count)
        store.dispose()


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:]]
    main(args[0] if args else 1000, args[1] if len(args) > 1 else 200)
