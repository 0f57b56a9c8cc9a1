"""How `pbp replay` scales with the length of a thread.

    python benchmarks/replay_scale.py [POSTS ...] [--before DIR] [--heroes N] [--realistic]
                                                                  (default: 2000 8000)

Writes a generated Distat thread of each size (four players and a GM who closes a round
every ten posts; a mix of attacks, moves, typos, quotes and edits; ``--heroes 12``: twelve
players' heroes against twelve orcs, the issue's own measure) to a temporary folder,
``--realistic``: the thread of ``benchmarks/corpus.py``, players' posts as they write them:
200-1,500 characters of prose with curly quotes, emphasis, quotes of earlier posts and
edits), replays it with `pbp replay --json` in a subprocess, and prints the wall time, posts per
second and peak memory (the child's maximum resident set) of each run, and the ratios between
the last and the first. ``--before DIR`` also runs each size on the pbp source in DIR (another
checkout, e.g. the main branch), in the same run, for a before/after comparison.

pbp's modules are compiled to bytecode first and the child may use it, as an installed pbp
does (with ``PYTHONDONTWRITEBYTECODE`` set, an editable checkout compiles every module anew at
each start: about 0.35 s more); and its templates are compiled by a 20-post replay first, into
a cache folder of the run's own (``PBP_CACHE_DIR``), as a user's earlier replay or bot left
them (a first run anywhere compiles them: about 0.1 s more).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
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

START = datetime(2026, 11, 1, tzinfo=UTC)
# the GM's turn: the Goblin acts, then the round closes
CLOSE = "[physical: attack Aria | as Goblin]\n!close"


def big_table(heroes: int) -> tuple[str, list[tuple[str, str]]]:
    """A campaign of ``heroes`` heroes (each a player's) and as many orcs, and its players:
    the issue's measure is 12 and 12."""
    lines = ["[campaign]", 'name = "Scale"', 'gms = ["gm"]', 'visibility = "open"']
    players = []
    for n in range(1, heroes + 1):
        players.append((f"player{n}", f"Hero{n}"))
        lines += [
            "[[characters]]",
            f'name = "Hero{n}"',
            f'player = "player{n}"',
            f"body = {20 + 5 * (n % 8)}",
            f"mind = {60 - 5 * (n % 8)}",
        ]
    for n in range(1, heroes + 1):
        lines += ["[[characters]]", f'name = "Orc{n}"', "body = 120", "mind = 60"]
    return "\n".join(lines) + "\n", players


def events(
    posts: int, *, players: list[tuple[str, str]] | None = None, foe: str = "Goblin"
) -> list[dict[str, object]]:
    """A thread of ``posts`` posts (``players``: who plays, else the four of ``CAMPAIGN``;
    ``foe``: whom they attack, and who acts at each close)."""
    players = players or PLAYERS
    close = CLOSE.replace("Goblin", foe).replace("Aria", players[0][1])
    names = ", ".join(
        [n for _, n in players]
        + ([foe] if foe == "Goblin" else [f"Orc{i}" for i in range(1, len(players) + 1)])
    )
    start = START
    out: list[dict[str, object]] = [
        {
            "type": "post",
            "id": "g0",
            "author": "gm",
            "at": start.isoformat(),
            "body": f"!group {names}",
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
                    "body": close,
                }
            )
            continue
        player, name = players[i % len(players)]
        body = BODIES[(i // len(players)) % len(BODIES)].format(name=name).replace("Goblin", foe)
        out.append({"type": "post", "id": f"p{i}", "author": player, "at": at, "body": body})
        if i % 7 == 0:
            out.append({"type": "edit", "id": f"p{i}", "at": at, "body": body + " (edited)"})
    return out


def run(
    posts: int,
    folder: Path,
    source: str | None = None,
    *,
    heroes: int = 0,
    realistic: bool = False,
    shown: bool = True,
) -> tuple[float, float]:
    """Seconds `pbp replay --json` takes on a thread of ``posts`` posts, and its peak memory
    in MiB (the maximum resident set of that one process). ``heroes``: on ``big_table``;
    ``realistic``: ``corpus.events``."""
    if realistic:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import corpus

        campaign, thread = corpus.CAMPAIGN, corpus.events(posts)
    elif heroes:
        campaign, players = big_table(heroes)
        thread = events(posts, players=players, foe="Orc1")
    else:
        campaign, thread = CAMPAIGN, events(posts)
    (folder / "c.toml").write_text(campaign)
    path = folder / f"e{posts}.jsonl"
    path.write_text("\n".join(json.dumps(e) for e in thread) + "\n")
    out = folder / f"out{posts}.json"
    measured = folder / "measured.txt"
    measured.unlink(missing_ok=True)  # never the figures of the size before
    env = _child_env(source)
    with out.open("w") as sink, (folder / "err.txt").open("w") as err:
        launched = subprocess.run(
            [
                sys.executable,
                "-c",
                LAUNCHER,
                str(measured),
                sys.executable,
                "-m",
                "pbp",
                "replay",
                str(folder / "c.toml"),
                str(path),
                "--json",
                "--seed",
                "1",
            ],
            stdout=sink,
            stderr=err,
            env=env,
            # not the caller's folder: `python -m` puts it before PYTHONPATH, so run from a
            # checkout it would import that checkout's pbp instead of ``source``'s
            cwd=folder,
            check=False,
        )
    if launched.returncode != 0 or not measured.exists():
        sys.exit(f"the launcher failed: {(folder / 'err.txt').read_text()[-2000:]}")
    code, took_text, maxrss = measured.read_text().split()
    took = float(took_text)
    if int(code) != 0:
        sys.exit(f"replay failed: {(folder / 'err.txt').read_text()[-2000:]}")
    rounds = len(json.loads(out.read_text())["rounds"])
    peak = int(maxrss) / 1024  # KiB on Linux
    label = f"[{source}] " if source else ""
    if not shown:
        return took, peak
    print(
        f"{label}{posts:6d} posts, {rounds:4d} rounds: {took:6.2f} s, "
        f"{posts / took:6.0f} posts/s, peak {peak:6.1f} MiB"
    )
    return took, peak


# Runs the replay and writes its exit code, seconds and peak resident set (KiB) to a file. A
# process's peak counts what it inherited at its fork (Linux keeps it across exec): started
# from this small launcher, not from the benchmark (grown by the threads it made and the
# ledgers it read), the replay's peak is its own.
LAUNCHER = """
import os, subprocess, sys, time
began = time.perf_counter()
child = subprocess.Popen(sys.argv[2:])
_, status, usage = os.wait4(child.pid, 0)
took = time.perf_counter() - began
with open(sys.argv[1], "w") as out:
    out.write(f"{os.waitstatus_to_exitcode(status)} {took} {usage.ru_maxrss}")
"""


def _child_env(source: str | None) -> dict[str, str]:
    """The child's environment: pbp from ``source`` (else the installed one), bytecode used,
    the templates kept in this run's cache folder (``PBP_CACHE_DIR``, set by ``main``)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if source:
        env["PYTHONPATH"] = source
    return env


def _compile(source: str | None) -> None:
    """Compile the pbp that ``source`` runs to bytecode, as installing it does."""
    where = subprocess.run(
        [sys.executable, "-c", "import os, pbp; print(os.path.dirname(pbp.__file__))"],
        env=_child_env(source),
        cwd=tempfile.gettempdir(),
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", where],
        check=True,
        env=_child_env(source),
        stdout=subprocess.DEVNULL,
    )


def main(sizes: list[int], before: str | None, heroes: int = 0, realistic: bool = False) -> None:
    """Time each size and print the ratios of the last to the first."""
    for source in ([before] if before else []) + [None]:
        _compile(source)
        with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as cache:
            os.environ["PBP_CACHE_DIR"] = cache  # (the children's: ``_child_env``)
            run(20, Path(tmp), source, heroes=heroes, realistic=realistic, shown=False)
            results = [run(n, Path(tmp), source, heroes=heroes, realistic=realistic) for n in sizes]
        if len(results) > 1:
            (t0, m0), (t1, m1) = results[0], results[-1]
            print(
                f"ratio {sizes[-1] / sizes[0]:.0f}x posts -> {t1 / t0:.2f}x time, "
                f"{m1 / m0:.2f}x peak memory"
            )


if __name__ == "__main__":
    args = sys.argv[1:]
    where = args.index("--before") if "--before" in args else None
    old = args[where + 1] if where is not None else None
    if where is not None:
        del args[where : where + 2]
    many = args.index("--heroes") if "--heroes" in args else None
    heroes = int(args[many + 1]) if many is not None else 0
    if many is not None:
        del args[many : many + 2]
    realistic = "--realistic" in args
    if realistic:
        args.remove("--realistic")
    main([int(a) for a in args] or [2000, 8000], old, heroes, realistic)
