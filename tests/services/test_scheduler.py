"""`pbp run`'s scheduler: polls until stopped, and wakes up at the next deadline."""

from __future__ import annotations

import gc
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from service_table import SETUP, THREAD, Table

from pbp.scheduler import BotRunner
from pbp.store.schema import ThreadRow


def _real_now() -> datetime:
    return datetime.now(UTC)


def _wait_for(condition: object, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.05)
    return False


def _post(table: Table, author: str, body: str, at: datetime) -> str:
    return table.forum.post(thread=THREAD, author=author, body=body, at=at).id


def test_the_runner_polls_at_once_and_stops_cleanly_releasing_its_leases(
    tmp_path: Path,
) -> None:
    table = Table(tmp_path, clock=_real_now)  # the scheduler runs on the real clock
    bot = table.bot
    _post(table, "alice", "[pass]", _real_now())
    runner = BotRunner(bot, poll_seconds=3600, clock=_real_now)
    worker = threading.Thread(target=runner.run)
    worker.start()
    try:
        assert _wait_for(lambda: table.replies(), 10), "the first poll should run at once"
    finally:
        runner.stop()
        worker.join(10)
    assert not worker.is_alive()
    with table.store.session() as s:
        assert s.query(ThreadRow).one().lease_owner is None


def test_what_the_first_poll_leaves_is_set_aside_from_the_collector_until_the_runner_ends(
    tmp_path: Path,
) -> None:
    table = Table(tmp_path, clock=_real_now)
    _post(table, "alice", "[pass]", _real_now())
    assert gc.get_freeze_count() == 0  # (nothing else in this process froze objects)
    frozen: list[int] = []
    runner = BotRunner(
        table.bot,
        poll_seconds=3600,
        clock=_real_now,
        on_poll=lambda report: frozen.append(gc.get_freeze_count()),
        set_aside=True,  # as `pbp run` asks
    )
    worker = threading.Thread(target=runner.run)
    worker.start()
    try:
        assert _wait_for(lambda: frozen, 10), "the first poll should run at once"
    finally:
        runner.stop()
        worker.join(10)
    assert not worker.is_alive()
    assert frozen[0] > 10_000  # the modules, the bot, its templates and the thread's state
    assert gc.get_freeze_count() == 0  # given back: the process collects them as before


def test_the_runner_wakes_up_when_a_deadline_falls_due(tmp_path: Path) -> None:
    table = Table(tmp_path, clock=_real_now)  # the scheduler runs on the real clock
    bot = table.bot
    start = _real_now() - timedelta(seconds=58)  # a one-minute deadline ends in ~2 s
    _post(table, "gm_sam", SETUP + "\n!deadline 1m", start)
    _post(table, "alice", "[physical: attack Goblin]", start + timedelta(seconds=1))
    runner = BotRunner(bot, poll_seconds=3600, clock=_real_now)  # no second interval poll
    worker = threading.Thread(target=runner.run)
    worker.start()
    try:
        closed = _wait_for(lambda: any("Round 1: results" in r.body for r in table.replies()), 15)
    finally:
        runner.stop()
        worker.join(10)
    assert closed, "the deadline job should have closed the round"
    assert table.ledger()["rounds"][0]["closed_by"] == "deadline"
