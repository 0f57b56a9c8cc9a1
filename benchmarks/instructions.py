"""The instructions a command runs, as valgrind's callgrind counts them: a figure that a busy
machine does not move (the same command on the same input gives the same count to within a
few hundred instructions in a billion), for the comparisons that timing cannot make here,
where one run's CPU time moves by 10-20% from the next.

    python benchmarks/instructions.py COMMAND [ARG ...]     (prints the count)

A count is not a time: it is the process's user-space instructions only, not the kernel's
work for it (system calls, page faults, the disk), not waiting, and not how long each
instruction takes (cache misses, branches). A program can mark what to count (``count_each``:
each stretch from a call of ``sys.getswitchinterval()`` to one of ``sys.is_finalizing()``),
where valgrind can read the interpreter's own symbols (a build that is not stripped, as
pyenv's). Python's string hashes are made the same in every
run (``PYTHONHASHSEED=0``), so that sets and dicts are built alike. A program runs some 50
times slower under it. It needs valgrind (``apt-get install valgrind``).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

_COLLECTED = re.compile(rb"^==\d+== Collected : (\d+)", re.MULTILINE)  # valgrind's own line
_SUMMARY = re.compile(rb"^summary: (\d+)", re.MULTILINE)

# Two C functions of the interpreter that nothing else calls while pbp polls, which a program
# calls to mark where a stretch to count starts and ends (``count_each``)
START, END = "sys_getswitchinterval", "sys_is_finalizing"


def available() -> bool:
    """Whether valgrind is installed."""
    return shutil.which("valgrind") is not None


def count(
    argv: Sequence[str],
    *,
    cwd: Path | str | None = None,
    env: dict[str, str],
    says: bytes | None = None,
) -> int:
    """The instructions ``argv`` runs (it must succeed, and print ``says`` if given)."""
    stderr = _run(["--callgrind-out-file=/dev/null"], argv, cwd=cwd, env=env, says=says)
    found = _COLLECTED.search(stderr)
    if found is None:
        sys.exit(f"valgrind gave no count for {list(argv)}")
    return int(found.group(1))


def count_each(
    argv: Sequence[str], *, cwd: Path | str | None = None, env: dict[str, str]
) -> list[int]:
    """The instructions of each stretch of ``argv`` from a call of ``sys.getswitchinterval()``
    to one of ``sys.is_finalizing()`` (``START``, ``END``), in order: the program marks what
    to count, and nothing else it does is counted. None at all when it calls no mark, or
    valgrind cannot read the interpreter's symbols (a stripped build)."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "counts"
        _run(
            [f"--callgrind-out-file={out}", f"--zero-before={START}", f"--dump-before={END}"],
            argv,
            cwd=cwd,
            env=env,
        )
        parts = sorted(Path(folder).glob("counts.*"), key=lambda p: int(p.suffix[1:]))
        counts = []
        for part in parts:
            found = _SUMMARY.search(part.read_bytes())
            if found is None:
                sys.exit(f"valgrind's count {part.name} of {list(argv)} has no summary")
            counts.append(int(found.group(1)))
        return counts


def _run(
    options: list[str],
    argv: Sequence[str],
    *,
    cwd: Path | str | None,
    env: dict[str, str],
    says: bytes | None = None,
) -> bytes:
    """Run ``argv`` under callgrind with ``options``; valgrind's report (standard error)."""
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", *options, *argv],
        cwd=cwd,
        env={**env, "PYTHONHASHSEED": "0"},
        capture_output=True,
    )
    if done.returncode != 0:
        tail = done.stderr.decode(errors="replace")[-2000:]
        sys.exit(f"{list(argv)} failed under valgrind (exit {done.returncode}):\n{tail}")
    if says is not None and done.stdout != says:
        sys.exit(f"{list(argv)} printed {done.stdout!r} under valgrind, not {says!r}")
    return done.stderr


def main() -> None:
    if not sys.argv[1:]:
        sys.exit(__doc__)
    if not available():
        sys.exit("valgrind is not installed (apt-get install valgrind)")
    print(count(sys.argv[1:], env=dict(os.environ)))


if __name__ == "__main__":
    main()
