"""`pbp run`'s loop when a poll blocks or the database stays away: a stop ends it within its
bound whatever the poll in hand waits for, the outage window ends it on time even while a call
still waits, and a blocked poll never piles polls up behind it.

The bot here is a fake with the few methods the runner calls; its polls fail or block as each
test says (the real bot's behaviour on a real outage is in tests/cli/test_database_trouble.py).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from pbp.scheduler import BotRunner
from pbp.services.bot import BotOptions, PollReport
from pbp.store.database import StoreUnavailable

pytestmark = pytest.mark.slow

NO_ANSWER = "the database postgresql+psycopg://pbp@db/pbp did not answer within 2 s"


def _now() -> datetime:
    return datetime.now(UTC)


class ScriptedBot:
    """A bot whose polls do what ``script`` says, poll by poll: ``"fail"`` (the database did
    not answer), ``"block"`` (wait until the test ends), ``"ok"``; the last step repeats."""

    def __init__(self, *script: str, due_fails: int = 0) -> None:
        self.script = list(script)
        self.due_fails = due_fails  # how many reads of the next deadline fail first
        self.options = BotOptions(username="pbp_bot", lease=timedelta(minutes=5))
        self.polls = 0
        self.released = 0
        self.stop_asked = False
        self.unblock = threading.Event()  # set by the test's end, so no thread outlives it

    def poll_once(self, _now: datetime) -> PollReport:
        step = self.script[min(self.polls, len(self.script) - 1)]
        self.polls += 1
        if step == "fail":
            raise StoreUnavailable(NO_ANSWER)
        if step == "block":
            self.unblock.wait()
        return PollReport()

    def next_due(self) -> datetime | None:
        if self.due_fails:
            self.due_fails -= 1
            raise StoreUnavailable(NO_ANSWER)
        return None

    def request_stop(self) -> None:
        self.stop_asked = True

    def release_leases(self) -> None:
        self.released += 1


@pytest.fixture
def started() -> Any:
    """``started(bot, **runner_options)``: the runner's ``run`` in a thread of its own."""
    running: list[tuple[ScriptedBot, threading.Thread]] = []

    def start(bot: ScriptedBot, **options: Any) -> tuple[BotRunner, threading.Thread]:
        poll_seconds = options.pop("poll_seconds", 1)
        runner = BotRunner(bot, clock=_now, poll_seconds=poll_seconds, **options)  # type: ignore[arg-type]
        thread = threading.Thread(target=runner.run, daemon=True)
        thread.start()
        running.append((bot, thread))
        return runner, thread

    yield start
    for bot, thread in running:
        bot.unblock.set()
        thread.join(10)


def _wait_for(condition: Callable[[], bool], seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


def test_a_stop_ends_the_run_in_its_bound_while_the_poll_in_hand_stays_blocked(
    started: Any,
) -> None:
    bot = ScriptedBot("block")
    runner, thread = started(bot, stop_within=1.5)
    assert _wait_for(lambda: bot.polls == 1, 5)
    asked = time.monotonic()
    runner.stop()
    thread.join(5)
    took = time.monotonic() - asked
    assert not thread.is_alive() and took < 2.5, f"the run ended {took:.1f} s after the stop"
    assert bot.stop_asked  # the poll was told to end after its post in hand
    assert runner.abandoned and runner.failure is None
    assert bot.released == 1  # a clean stop still gives the leases back when it can


def test_an_outage_ends_the_run_after_its_window_with_one_line_per_failed_poll(
    started: Any,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING, logger="pbp.scheduler")
    bot = ScriptedBot("ok", "fail")
    runner, thread = started(bot, give_up_after=timedelta(seconds=2.5))
    thread.join(15)
    assert not thread.is_alive()
    assert runner.failure is not None
    assert runner.failure.startswith(NO_ANSWER + " (for ")
    assert bot.released == 0  # nothing to give back to a database that is away
    warned = [r.getMessage() for r in caplog.records]
    assert warned == [f"the poll failed, trying again next poll: {NO_ANSWER}"] * len(warned)
    assert 1 <= len(warned) <= bot.polls - 1  # the first poll was fine


def test_the_outage_window_ends_the_run_on_time_even_while_a_call_waits(
    started: Any,
) -> None:
    bot = ScriptedBot("fail", "block")  # the database failed once, then a call hangs
    began = time.monotonic()
    runner, thread = started(bot, give_up_after=timedelta(seconds=2), stop_within=1.0)
    thread.join(10)
    took = time.monotonic() - began
    assert not thread.is_alive() and took < 5, f"the run ended after {took:.1f} s"
    assert runner.failure is not None and runner.failure.startswith(NO_ANSWER)
    assert runner.abandoned and bot.polls == 2


def test_a_blocked_poll_piles_no_polls_up_behind_it(
    started: Any,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING)
    bot = ScriptedBot("block", "ok")
    runner, _thread = started(bot)
    time.sleep(3.5)  # three intervals of one second pass while the first poll waits
    assert bot.polls == 1
    bot.unblock.set()  # the missed intervals make one poll, not three
    assert _wait_for(lambda: bot.polls >= 2, 5)
    assert bot.polls == 2  # (the next interval is half a second away)
    runner.stop()
    assert not [r for r in caplog.records if "maximum number of running" in r.getMessage()]


def test_the_database_failing_after_a_poll_does_not_end_the_polls(
    started: Any,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING, logger="pbp.scheduler")
    bot = ScriptedBot("ok", due_fails=1)  # the next deadline is read once while it is away
    runner, _thread = started(bot)
    assert _wait_for(lambda: bot.polls >= 3, 10), "the polls should go on"
    runner.stop()
    assert runner.failure is None
    assert [r.getMessage() for r in caplog.records] == [
        f"the poll failed, trying again next poll: {NO_ANSWER}"
    ]
