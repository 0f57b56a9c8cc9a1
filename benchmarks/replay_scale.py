"""How `pbp replay` scales with the length of a thread.

    python benchmarks/replay_scale.py [POSTS ...]    (default: 2000 8000)

Writes a generated Distat thread of each size (four players and a GM who closes a round
every ten posts; a mix of attacks, moves, typos, quotes and edits) to a temporary folder,
replays it with `pbp replay --json` in a subprocess, and prints the wall time of each run and
the ratio between them.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

CAMPAIGN = """
[campaign]
name = "Scale"
gms = ["gm"]
visibility = "open"
[[characters]]
name = "Aria"
player = "alice"
body = 60
mind = 30
[[characters]]
name = "Bram"
player = "bob"
body = 30
mind = 40
[[characters]]
name = "Cora"
player = "cara"
body = 20
mind = 60
[[characters]]
name = "Dax"
player = "dan"
body = 40
mind = 40
[[characters]]
name = "Goblin"
body = 200
mind = 200
"""
PLAYERS = [("alice", "Aria"), ("bob", "Bram"), ("cara", "Cora"), ("dan", "Dax")]
BODIES = [
    "{name} swings. [physical: attack Goblin]",
    "{name} taunts. [mental: attack Goblin]",
    "> [physical: attack Goblin]\n\n{name} quotes and thinks. [mental: attack Goblin]",
    "{name} fumbles. [phisical: attack Goblin]",
]


def events(posts: int) -> list[dict[str, object]]:
    """A thread of ``posts`` posts."""
    start = datetime(2026, 11, 1, tzinfo=UTC)
    out: list[dict[str, object]] = [
        {
            "type": "post",
            "id": "g0",
            "author": "gm",
            "at": start.isoformat(),
            "body": "!group Aria, Bram, Cora, Dax, Goblin",
        }
    ]
    for i in range(1, posts):
        at = (start + timedelta(minutes=i)).isoformat()
        if i % 10 == 0:
            out.append(
                {
                    "type": "post",
                    "id": f"g{i}",
                    "author": "gm",
                    "at": at,
                    "body": "[physical: attack Aria | as Goblin]\n!close",
                }
            )
            continue
        player, name = PLAYERS[i % 4]
        body = BODIES[(i // 4) % len(BODIES)].format(name=name)
        out.append({"type": "post", "id": f"p{i}", "author": player, "at": at, "body": body})
        if i % 7 == 0:
            out.append({"type": "edit", "id": f"p{i}", "at": at, "body": body + " (edited)"})
    return out


def run(posts: int, folder: Path) -> float:
    """Seconds `pbp replay --json` takes on a thread of ``posts`` posts."""
    (folder / "c.toml").write_text(CAMPAIGN)
    path = folder / f"e{posts}.jsonl"
    path.write_text("\n".join(json.dumps(e) for e in events(posts)) + "\n")
    began = time.perf_counter()
    done = subprocess.run(
        ["pbp", "replay", str(folder / "c.toml"), str(path), "--json", "--seed", "1"],
        capture_output=True,
        text=True,
        check=False,
    )
    took = time.perf_counter() - began
    if done.returncode != 0:
        sys.exit(f"replay failed: {done.stderr[-2000:]}")
    rounds = len(json.loads(done.stdout)["rounds"])
    print(f"{posts:6d} posts, {rounds:4d} rounds: {took:6.2f} s")
    return took


def main(sizes: list[int]) -> None:
    """Time each size and print the ratio of the last to the first."""
    with tempfile.TemporaryDirectory() as tmp:
        times = [run(n, Path(tmp)) for n in sizes]
    if len(times) > 1:
        print(f"ratio {sizes[-1] / sizes[0]:.0f}x posts -> {times[-1] / times[0]:.2f}x time")


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [2000, 8000])
