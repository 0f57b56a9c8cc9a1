"""A long-running `pbp` (``pbp run``) started in the background as a user starts it, its stdout
and stderr in files the test reads while it runs (import it as ``from running_bot import
RunningBot``). Leaving the ``with`` block kills it if it still runs."""

from __future__ import annotations

import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path


class RunningBot:
    """``with RunningBot(argv, env=env, cwd=site) as bot:``; ``bot.status`` once it ended."""

    def __init__(
        self, argv: Sequence[str], *, env: dict[str, str], cwd: Path, name: str = "run"
    ) -> None:
        self.out_file, self.err_file = cwd / f"{name}.out", cwd / f"{name}.err"
        with self.out_file.open("w") as stdout, self.err_file.open("w") as stderr:
            self.process = subprocess.Popen(
                list(argv),
                cwd=cwd,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=stdout,
                stderr=stderr,
                text=True,
            )
        self.ended_at: float | None = None

    def __enter__(self) -> RunningBot:
        return self

    def __exit__(self, *_exc: object) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    @property
    def out(self) -> str:
        return self.out_file.read_text(errors="replace")

    @property
    def err(self) -> str:
        return self.err_file.read_text(errors="replace")

    @property
    def status(self) -> int | None:
        return self.process.poll()

    def says(self, text: str, *, seconds: float, err: bool = False) -> bool:
        """Whether ``text`` shows in its stdout (``err``: stderr) within ``seconds``."""
        return wait_for(lambda: text in (self.err if err else self.out), seconds=seconds)

    def signal(self, signum: signal.Signals) -> float:
        """Send ``signum``; the moment it was sent (``time.monotonic()``)."""
        self.process.send_signal(signum)
        return time.monotonic()

    def ended(self, *, seconds: float) -> bool:
        """Whether it exits within ``seconds`` (``ended_at`` is then about when it did)."""
        if wait_for(lambda: self.process.poll() is not None, seconds=seconds, every=0.05):
            self.ended_at = self.ended_at or time.monotonic()
            return True
        return False

    def report(self) -> str:
        """Its exit status and output, for an assertion's message."""
        return f"status {self.status}\n--- stdout:\n{self.out}\n--- stderr:\n{self.err}"


def wait_for(predicate: Callable[[], bool], *, seconds: float, every: float = 0.1) -> bool:
    """Whether ``predicate`` becomes true within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(every)
    return predicate()
