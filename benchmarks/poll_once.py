"""What an idle `pbp poll --once` costs (a cron set-up's every run), and whether it grows.

    python benchmarks/poll_once.py [RUNS] [--before DIR] [--instructions]
                                                        (default: 10 runs in a row)

Input: a folder with a config of the local forum, a SQLite file and two threads of
``examples/sunken-keep.toml``, each with a post read and answered by two first polls. Then
RUNS idle `pbp poll --once` in a row, each a new process, each in turn with a
`python -c pass` (so a busy machine slows both alike), each checked to print what an idle
poll prints; prints the median wall time, its ratio to `python -c pass`, the CPU time
(user + system) of the first and the last run, and the last three runs against the first
three (CPU and wall). ``--before DIR`` runs the pbp in DIR (another checkout) on a folder of
its own, alternating with this one's. ``--instructions`` then counts the instructions of RUNS
more idle runs in a row of each (``instructions.py``, under valgrind: a count that a busy
machine does not move, where the timing of a 0.1 s command moves by more than the 10% asked)
and prints the first, the last, and the last three against the first three.

An idle run here is told by the check `pbp poll --once` asks first (``pbp.store.idle``: the
standard library's sqlite3 on the file), without loading the bot. It does not measure: a
poll with work (the full poll, see ``live_poll`` figures), PostgreSQL or the Reddit forum
(both always take the full poll), nor a cold file cache (each command runs once before the
timing).
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import instructions  # noqa: E402

PBP = "import sys; from pbp.cli import main; sys.argv[0] = 'pbp'; main()"
IDLE = b"read 0 new post versions; posted or edited 0 replies\n"
CONFIG = """
campaigns = ["sunken-keep.toml"]
[bot]
username = "pbp_bot"
[database]
url = "sqlite:///pbp.db"
[forum]
kind = "local"
[[threads]]
id = "t1"
campaign = "sunken-keep.toml"
[[threads]]
id = "t2"
campaign = "sunken-keep.toml"
"""


def timed(
    argv: list[str], *, cwd: Path, env: dict[str, str], says: bytes | None = None
) -> tuple[float, float]:
    """Wall and CPU seconds (user + system) of one process (which must print ``says``, if
    given, and nothing on stderr)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        child = subprocess.Popen(argv, cwd=cwd, env=env, stdout=out, stderr=err)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        said, complained = out.read(), err.read()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{argv} failed in {cwd}")
    if says is not None and (said != says or complained):
        sys.exit(f"{argv} in {cwd} was not idle: {said!r} {complained!r}")
    return wall, usage.ru_utime + usage.ru_stime


def prepare(folder: Path, env: dict[str, str]) -> None:
    folder.mkdir()
    shutil.copy(HERE.parent / "examples" / "sunken-keep.toml", folder)
    (folder / "config.toml").write_text(CONFIG)
    pbp = [sys.executable, "-c", PBP]
    for thread, author, body in (
        ("t1", "gm_sam", "!group Aria, Goblin"),
        ("t1", "alice", "Aria swings. [physical: attack Goblin]"),
        ("t2", "alice", "Aria swings. [physical: attack Goblin]"),
    ):
        timed([*pbp, "post", "-t", thread, "--as", author, body], cwd=folder, env=env)
    for _ in range(2):  # reads and answers; sees its own replies
        timed([*pbp, "poll", "--once"], cwd=folder, env=env)


def main() -> None:
    args = sys.argv[1:]
    before = None
    if "--before" in args:
        at = args.index("--before")
        before = args[at + 1]
        del args[at : at + 2]
    counting = "--instructions" in args
    if counting:
        args.remove("--instructions")
        if not instructions.available():
            sys.exit("--instructions needs valgrind (apt-get install valgrind)")
    runs = int(args[0]) if args else 10
    if counting and runs < 6:
        sys.exit("--instructions compares the last three runs with the first three: RUNS >= 6")
    tmp = Path(tempfile.mkdtemp())
    sources = [before, None] if before else [None]
    envs: dict[str | None, dict[str, str]] = {}
    for source in sources:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        if source:
            env["PYTHONPATH"] = source
        envs[source] = env
        prepare(tmp / (source or "this").strip("/").replace("/", "_"), env)
    bare = [sys.executable, "-c", "pass"]
    poll = [sys.executable, "-c", PBP, "poll", "--once"]
    walls: dict[str | None, list[float]] = {s: [] for s in sources}
    cpus: dict[str | None, list[float]] = {s: [] for s in sources}
    base: list[float] = []
    for _ in range(runs):
        for source in sources:
            folder = tmp / (source or "this").strip("/").replace("/", "_")
            base.append(timed(bare, cwd=tmp, env=envs[source])[0])
            wall, cpu = timed(poll, cwd=folder, env=envs[source], says=IDLE)
            walls[source].append(wall)
            cpus[source].append(cpu)
    bare_median = statistics.median(base)
    print(f"{runs} idle `pbp poll --once` in a row; python -c pass {bare_median:.3f} s")
    for source in sources:
        wall, cpu, each = statistics.median(walls[source]), cpus[source], walls[source]
        label = f"before ({source})" if source else "this checkout"
        first, last = statistics.mean(cpu[:3]), statistics.mean(cpu[-3:])
        grown = statistics.mean(each[-3:]) / statistics.mean(each[:3])
        print(
            f"  {label}: {wall:.3f} s wall ({wall / bare_median:.1f}x python -c pass), CPU "
            f"{cpu[0]:.3f} s first, {cpu[-1]:.3f} s last; last 3 / first 3: CPU "
            f"{last / first:.2f}x, wall {grown:.2f}x"
        )
    if counting:
        print(f"{runs} more in a row, instructions (user space; valgrind):")
        for source in sources:
            folder = tmp / (source or "this").strip("/").replace("/", "_")
            counts = [
                instructions.count(poll, cwd=folder, env=envs[source], says=IDLE)
                for _ in range(runs)
            ]
            label = f"before ({source})" if source else "this checkout"
            grown = statistics.mean(counts[-3:]) / statistics.mean(counts[:3])
            print(
                f"  {label}: {counts[0]:,} first, {counts[-1]:,} last, "
                f"{max(counts) - min(counts):,} between the most and the least; "
                f"last 3 / first 3: {grown:.6f}x"
            )
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
