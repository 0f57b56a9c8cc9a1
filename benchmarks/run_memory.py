"""Whether a running bot's memory stays flat as its threads grow (what `pbp run` does).

    python benchmarks/run_memory.py [POSTS] [--threads N] [--every N] [--before DIR]
                                                    (default: 50000 posts, 5 threads, 5000)

Input: ``corpus.events`` (realistic players' posts, an edit for one in eight, the GM's close
every tenth post) dealt round-robin to THREADS threads of the local forum, stored in a SQLite
file as `pbp run` on the local forum keeps them. One process (``Bot.poll_once``, the poll that
`pbp run`'s scheduler calls) polls after every 20 new posts on a simulated clock (a minute a
poll), setting aside from the garbage collector what its first poll left as `pbp run` does
(in the code that has ``pbp.services.lasting``); every ``--every`` posts it prints its
resident set (RSS, after a garbage collection) and at the end the ratio of the last to the
first. ``--before DIR`` runs the pbp in DIR (another checkout) the same way, first, in the
same run.

It does not measure: the scheduler's own timers (APScheduler), the Reddit forum (praw and its
caches), PostgreSQL, several workers, wall time or CPU (see ``live_poll.py``), nor memory that
grows with the number of threads rather than with their posts.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

CHILD = r"""
import gc, json, sys, tempfile
from datetime import datetime, timedelta
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import corpus
from pbp.forums.local import LocalForum
from pbp.services.bot import Bot, BotOptions, WatchedThread
from pbp.store.database import Store
from pbp.store.local_posts import SqlLocalStorage
try:
    from pbp.services import lasting
except ImportError:  # code from before it: `pbp run` set nothing aside
    lasting = None

posts, threads, every = (int(a) for a in sys.argv[2:5])
folder = Path(tempfile.mkdtemp())
campaign = folder / "c.toml"
campaign.write_text(corpus.CAMPAIGN)
store = Store(f"sqlite:///{folder / 'pbp.db'}")
store.upgrade()
clock = [corpus.START]
forum = LocalForum(SqlLocalStorage(store), bot="pbp_bot", clock=lambda: clock[0])
bot = Bot(store=store, forum=forum,
          threads=[WatchedThread(key=f"t{i}", campaign=campaign) for i in range(threads)],
          options=BotOptions(username="pbp_bot", owner="bench"))
# each thread's events made as they are posted: the benchmark keeps none of them
streams = [corpus.thread_events(posts // threads + 1, seed=i) for i in range(threads)]
ids = {}
def rss_mib():
    gc.collect()
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 / 2**20
seen, polled = 0, 0
while streams:
    for i, stream in enumerate(streams):
        e = next(stream, None)
        if e is None:
            continue
        key = f"t{i}:{e['id']}"
        if e["type"] == "post":
            made = forum.post(thread=f"t{i}", author=e["author"], body=e["body"], at=clock[0])
            ids[key] = made.id
            seen += 1
        else:
            forum.edit(ids.pop(key), body=e["body"], at=clock[0])
        if seen - polled >= 20:
            clock[0] += timedelta(minutes=1)
            bot.poll_once(clock[0])
            if lasting is not None and not polled:  # what `pbp run` does after its first poll
                lasting.set_aside(collect=True)
            polled = seen
            if polled % every < 20 and polled >= every:
                print(json.dumps({"posts": polled, "rss": rss_mib()}), flush=True)
    if seen >= posts:
        break
    if len(ids) > 1000:  # an edit comes within a minute of its post: older ids are not needed
        ids = dict(list(ids.items())[-100:])
"""


def run(posts: int, threads: int, every: int, source: str | None) -> list[tuple[int, float]]:
    env = dict(os.environ)
    if source:
        env["PYTHONPATH"] = source
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(HERE), str(posts), str(threads), str(every)],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd="/",
    )
    assert child.stdout is not None
    found: list[tuple[int, float]] = []
    label = f"[{source}] " if source else ""
    for line in child.stdout:
        import json

        got = json.loads(line)
        found.append((got["posts"], got["rss"]))
        print(f"{label}{got['posts']:7d} posts: RSS {got['rss']:6.1f} MiB", flush=True)
    if child.wait() != 0:
        sys.exit("the bot failed")
    return found


def main() -> None:
    args = sys.argv[1:]

    def option(name: str, default: str | None) -> str | None:
        if name in args:
            at = args.index(name)
            value = args[at + 1]
            del args[at : at + 2]
            return value
        return default

    before = option("--before", None)
    threads = int(option("--threads", "5") or 5)
    every = int(option("--every", "5000") or 5000)
    posts = int(args[0]) if args else 50_000
    for source in ([before] if before else []) + [None]:
        found = run(posts, threads, every, source)
        (n0, m0), (n1, m1) = found[0], found[-1]
        label = f"[{source}] " if source else ""
        print(f"{label}RSS at {n1} posts / at {n0} posts: {m1 / m0:.3f}x")


if __name__ == "__main__":
    main()
