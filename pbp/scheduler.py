"""`pbp run`: the bot on APScheduler 3.x (the only module that imports it).

One poll job, never two at once, with missed runs coalesced; after every poll a one-off job is
set for the moment the next deadline or half-time reminder falls due (read from the database,
so a restart never loses one). SIGINT and SIGTERM stop the bot after the post in hand.

A database that does not answer is retried every poll, with one line in the log each time; if
it stays away for ``give_up_after`` (by then the other workers have taken this one's threads),
or the SQLite file vanishes, the bot stops and ``failure`` says why.
"""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Callable
from datetime import datetime, timedelta
from types import FrameType

from apscheduler.schedulers.background import BackgroundScheduler

from pbp.services.bot import Bot, PollReport
from pbp.store.database import StoreGone, StoreUnavailable

log = logging.getLogger(__name__)


class BotRunner:
    """Runs ``bot`` every ``poll_seconds`` until asked to stop."""

    def __init__(self, bot: Bot, *, poll_seconds: int, clock: Callable[[], datetime],
                 on_poll: Callable[[PollReport], None] | None = None,
                 give_up_after: timedelta | None = None) -> None:
        self._bot = bot
        self._poll_seconds = poll_seconds
        self._clock = clock
        self._on_poll = on_poll
        self._give_up_after = give_up_after or bot.options.lease
        self._unavailable_since: datetime | None = None
        self.failure: str | None = None  # why the bot stopped on its own
        self._stop = threading.Event()
        self._one_at_a_time = threading.Lock()  # the interval job and the due job share it
        self._scheduler = BackgroundScheduler(timezone="UTC")

    def _poll(self) -> None:
        with self._one_at_a_time:
            if not self._stop.is_set():
                self._poll_now()

    def _poll_now(self) -> None:
        now = self._clock()
        try:
            report = self._bot.poll_once(now)
        except StoreGone as exc:
            self._give_up(str(exc))
            return
        except StoreUnavailable as exc:
            since = self._unavailable_since = self._unavailable_since or now
            if now - since >= self._give_up_after:
                self._give_up(f"{exc} (for {int((now - since).total_seconds())} s)")
            else:
                log.warning("the poll failed, trying again next poll: %s", exc)
            return
        except Exception:  # a bug: log it whole, the next poll tries again
            log.exception("the poll failed")
            return
        self._unavailable_since = None
        if self._on_poll is not None:
            self._on_poll(report)
        due = self._bot.next_due()
        if due is not None and not self._stop.is_set():
            self._scheduler.add_job(self._poll, "date", run_date=due, id="due",
                                    replace_existing=True, misfire_grace_time=None)

    def _give_up(self, why: str) -> None:
        log.info("stopping: %s", why)  # the command says why, once
        self.failure = why
        self.stop()

    def stop(self, *_args: object) -> None:
        """Ask the bot to stop after the post in hand."""
        self._stop.set()
        self._bot.request_stop()

    def run(self) -> None:
        """Poll until ``stop`` (or SIGINT/SIGTERM when run in the main thread)."""
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                signal.signal(sig, self._on_signal)
        self._scheduler.add_job(
            self._poll, "interval", seconds=self._poll_seconds, id="poll",
            next_run_time=self._clock(), max_instances=1, coalesce=True,
            misfire_grace_time=None,
        )
        self._scheduler.start()
        try:
            while not self._stop.wait(0.5):
                pass
        finally:
            self._scheduler.shutdown(wait=True)  # the poll in hand finishes first
            if self.failure is None:
                self._bot.release_leases()
            log.info("stopped")

    def _on_signal(self, signum: int, _frame: FrameType | None) -> None:
        log.info("signal %s: stopping after the post in hand", signum)
        self.stop()
