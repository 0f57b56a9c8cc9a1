"""How many realistic posts a second the tag reader reads (``benchmarks/corpus.py``'s posts).

    python benchmarks/real_posts.py [POSTS] [--before DIR] [--runs N] [--instructions]
                                                                      (default: 4000, 5)

Input: ``corpus.posts(POSTS)``, players' posts of 200-1,500 characters (about 650 on average)
with curly quotes and dashes (94%), Markdown emphasis, quotes of earlier posts, 1-3 tags,
typos and edit notes, read against the four heroes and the goblin of ``corpus.CAMPAIGN``.
Prints posts a second of CPU time (the best of five passes) for the reader cold (its memory
of bracket readings emptied before each post, the figure the goal is for), warm (kept), and
the full path (every post through markdown-it, the reference the fast path is tested
against). ``--before DIR`` times the pbp in DIR (another checkout) too, in the same run,
alternating runs of each (``--runs``, the median of each is printed) and prints the ratio.
``--instructions`` also counts the instructions of a cold read of one post (``instructions.py``,
under valgrind: a count a busy machine does not move): a process that reads every post twice
cold less one that reads none, over twice POSTS; with ``--before``, the ratio, which says how
many times the figure of the code in DIR the reader would read on any machine.

It does not measure: reading GM posts with many command lines, posts with tables, lists,
code or links (read through markdown-it), the first post after start-up (markdown-it's
import, about 40 ms, is paid once per process when a post needs it), or anything but the
reader (not the engine, the store or the replies).

Goal (issue 28): at least 25,000 posts a second, cold.
"""

from __future__ import annotations

import inspect
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus
import instructions

from pbp.tags import ReadContext, parse_post

HERE = Path(__file__).resolve().parent
CONTEXT = ReadContext(characters=("Aria", "Bram", "Cora", "Dax", "Goblin"))
GOAL = 25_000


def rate(posts: list[str], *, cold: bool = False, **options: bool) -> float:
    """Posts a second of CPU time, the best of five passes over ``posts``."""
    forget = _forgetting() if cold else _nothing
    best = float("inf")
    for _ in range(5):
        start = time.process_time()
        _read(posts, forget, **options)
        best = min(best, time.process_time() - start)
    return len(posts) / best


def _read(posts: list[str], forget: Callable[[], None], **options: bool) -> None:
    for text in posts:
        forget()
        parse_post(text, context=CONTEXT, **options)


def _nothing() -> None:
    pass


def _forgetting() -> Callable[[], None]:
    from pbp.tags import reader

    forget: Callable[[], None] = getattr(reader, "forget_readings", _nothing)
    return forget


def measure(count: int) -> dict[str, float]:
    """The three rates of this process's pbp on ``count`` posts."""
    posts = corpus.posts(count)
    parse_post(posts[0], context=CONTEXT, full=True)  # markdown-it imported before timing
    has_full = "full" in inspect.signature(parse_post).parameters
    return {
        "cold": rate(posts, cold=True),
        "warm": rate(posts),
        "full": rate(posts, full=True) if has_full else 0.0,
    }


def read_cold(count: int, passes: int) -> None:
    """Read ``count`` posts cold ``passes`` times, after what is paid once (the imports)."""
    posts = corpus.posts(count)
    parse_post(posts[0], context=CONTEXT, full=True)
    forget = _forgetting()
    for _ in range(passes):
        _read(posts, forget)


def instructions_per_post(count: int, source: str | None) -> float:
    """The instructions of reading one post cold (of ``count``), under valgrind."""
    env = _env(source)
    read = [sys.executable, __file__, str(count), "--read-cold"]
    twice = instructions.count([*read, "2"], cwd=HERE, env=env)
    none = instructions.count([*read, "0"], cwd=HERE, env=env)
    return (twice - none) / (2 * count)


def _env(source: str | None) -> dict[str, str]:
    env = dict(os.environ)
    if source:
        env["PYTHONPATH"] = source
    return env


def _child(count: int, source: str | None) -> dict[str, float]:
    env = _env(source)
    done = subprocess.run(
        [sys.executable, __file__, str(count), "--child"],
        env=env,
        cwd=HERE,
        check=True,
        capture_output=True,
        text=True,
    )
    rates: dict[str, float] = json.loads(done.stdout)
    return rates


def main() -> None:
    args = sys.argv[1:]
    if "--child" in args:
        print(json.dumps(measure(int(args[0]))))
        return
    if "--read-cold" in args:
        read_cold(int(args[0]), int(args[args.index("--read-cold") + 1]))
        return
    if "--instructions" in args and not instructions.available():
        sys.exit("--instructions needs valgrind (apt-get install valgrind)")
    before = args[args.index("--before") + 1] if "--before" in args else None
    runs = int(args[args.index("--runs") + 1]) if "--runs" in args else 5
    count = int(args[0]) if args and args[0].isdigit() else 4000
    sources = [before, None] if before else [None]
    results: dict[str | None, list[dict[str, float]]] = {s: [] for s in sources}
    for _ in range(runs):
        for source in sources:
            results[source].append(_child(count, source))
    print(f"{count} realistic posts; posts a second of CPU time, median of {runs} runs:")
    for source in sources:
        median = {k: statistics.median(r[k] for r in results[source]) for k in ("cold", "warm")}
        full = statistics.median(r["full"] for r in results[source])
        label = f"before ({source})" if source else "this checkout"
        goal = "goal met" if median["cold"] >= GOAL else f"below the goal of {GOAL:,}"
        print(
            f"  {label}: cold {median['cold']:8,.0f}  warm {median['warm']:8,.0f}  "
            f"full path {full:8,.0f}  ({goal})"
        )
    if before:
        old = statistics.median(r["cold"] for r in results[before])
        new = statistics.median(r["cold"] for r in results[None])
        print(f"  cold, this checkout / before: {new / old:.2f}x")
    if "--instructions" in args:
        counted = {source: instructions_per_post(count, source) for source in sources}
        print("instructions to read one post cold (user space; valgrind):")
        for source, each in counted.items():
            label = f"before ({source})" if source else "this checkout"
            print(f"  {label}: {each:,.0f}")
        if before:
            print(f"  before / this checkout: {counted[before] / counted[None]:.2f}x")


if __name__ == "__main__":
    main()
