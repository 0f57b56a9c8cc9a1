"""How long the `pbp` command takes to start, against a bare Python, in fresh processes.

    python benchmarks/startup.py [RUNS]    (default: 15)

Runs each command RUNS times as a new process, in turns (so a busy machine slows all of them
alike), and prints the median wall time of each and its ratio to `python -c pass`. The `pbp`
commands run through the installed console script's own code path (`pbp.cli.main`) with the
same interpreter, so the figures are the command's own, not the shell's.
To time another checkout, run this from outside any checkout with PYTHONPATH=that checkout
(a `python -c` child puts its working folder first on the path).
Goal (issue 16): `pbp --help` at most 0.2 s and at most 15 times `python -c pass`.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

PBP = "import sys; from pbp.cli import main; sys.argv[0] = 'pbp'; main()"
COMMANDS: dict[str, list[str]] = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "pbp --help": [sys.executable, "-c", PBP, "--help"],
    'pbp parse "[physical: attack Goblin]"': [
        sys.executable,
        "-c",
        PBP,
        "parse",
        "[physical: attack Goblin]",
    ],
}


def once(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for argv in COMMANDS.values():  # warm the file cache and the .pyc files
        once(argv)
    for _ in range(runs):
        for name, argv in COMMANDS.items():
            times[name].append(once(argv))
    base = statistics.median(times["python -c pass"])
    print(f"median of {runs} fresh processes each")
    for name, taken in times.items():
        median = statistics.median(taken)
        print(f"{name:42} {median:7.3f} s  {median / base:6.1f}x python -c pass")


if __name__ == "__main__":
    main()
