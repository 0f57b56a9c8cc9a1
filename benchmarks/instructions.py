"""The instructions a command runs, as valgrind's callgrind counts them: a figure that a busy
machine does not move (the same command on the same input gives the same count to within a
few hundred instructions in a billion), for the comparisons that timing cannot make here,
where one run's CPU time moves by 10-20% from the next.

    python benchmarks/instructions.py COMMAND [ARG ...]     (prints the count)

A count is not a time: it is the process's user-space instructions only, not the kernel's
work for it (system calls, page faults, the disk), not waiting, and not how long each
instruction takes (cache misses, branches). Python's string hashes are made the same in every
run (``PYTHONHASHSEED=0``), so that sets and dicts are built alike. A program runs some 50
times slower under it. It needs valgrind (``apt-get install valgrind``).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

_COLLECTED = re.compile(rb"Collected : (\d+)")


def available() -> bool:
    """Whether valgrind is installed."""
    return shutil.which("valgrind") is not None


def count(argv: Sequence[str], *, cwd: Path | str | None = None, env: dict[str, str]) -> int:
    """The instructions ``argv`` runs (it must succeed); its output is thrown away."""
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv],
        cwd=cwd,
        env={**env, "PYTHONHASHSEED": "0"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    found = _COLLECTED.search(done.stderr)
    if done.returncode != 0 or found is None:
        tail = done.stderr.decode(errors="replace")[-2000:]
        sys.exit(f"{list(argv)} failed under valgrind (exit {done.returncode}):\n{tail}")
    return int(found.group(1))


def main() -> None:
    if not sys.argv[1:]:
        sys.exit(__doc__)
    if not available():
        sys.exit("valgrind is not installed (apt-get install valgrind)")
    print(count(sys.argv[1:], env=dict(os.environ)))


if __name__ == "__main__":
    main()
