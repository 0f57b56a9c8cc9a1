"""`pbp run`: the bot on APScheduler 3.x (the only module that imports it).

APScheduler says when a poll is due: every ``poll_seconds``, and at the moment the next
deadline or half-time reminder falls due (read from the database after every poll, so a
restart never loses one). Its jobs only wake the poller, one thread of pbp's own that runs one
poll at a time (missed polls coalesce into one), so a poll that blocks never piles jobs up.

A database that does not answer is retried every poll, with one line in the log each time; if
it stays away for ``give_up_after`` (by then the other workers have taken this one's threads),
the bot stops, at that moment even if a call is still waiting, and ``failure`` says why. A
SQLite file that vanishes or is damaged stops it at once.

What the first poll leaves (the modules, the templates, the threads' states) lasts as long as
the process: for `pbp run` (``set_aside``) it is set aside from the garbage collector's full
passes (``services.lasting``), at the cost of one full collection after that poll.

SIGINT and SIGTERM stop the bot after the post in hand, and within ``stop_within`` seconds
whatever that post is blocked in (the database, a slow forum): then the poll is abandoned,
which is as safe as a crash (every unit of work is a transaction, and a reply sent but not
recorded is looked up by its key before it is sent again). The leases are released when the
database answers in time.
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from types import FrameType
from typing import TypeVar

from apscheduler.schedulers.background import BackgroundScheduler

from pbp.services import lasting
from pbp.services.bot import Bot, PollReport
from pbp.store.database import StoreError, StoreGone, StoreUnavailable

log = logging.getLogger(__name__)
T = TypeVar("T")

STOP_WITHIN = 8.0  # seconds from a stop signal to the end (a supervisor's default is 10)
RELEASE_SHARE = 2.0  # of which the leases' release keeps this much, if the poll takes long


class BotRunner:
    """Runs ``bot`` every ``poll_seconds`` until asked to stop."""

    def __init__(
        self,
        bot: Bot,
        *,
        poll_seconds: int,
        clock: Callable[[], datetime],
        on_poll: Callable[[PollReport], None] | None = None,
        give_up_after: timedelta | None = None,
        stop_within: float = STOP_WITHIN,
        set_aside: bool = False,
    ) -> None:
        self._bot = bot
        self._poll_seconds = poll_seconds
        self._clock = clock
        self._on_poll = on_poll
        self._give_up_after = give_up_after or bot.options.lease
        self._stop_within = stop_within
        self._unavailable_since: datetime | None = None
        self._last_outage = ""  # the last poll's line about the database, for the give-up
        self.failure: str | None = None  # why the bot stopped on its own
        self.abandoned = False  # the stop left a poll blocked (the process should end now)
        self._stop = threading.Event()
        self._deciding = threading.Lock()  # the poller and the main thread may both give up
        self._wake = threading.Event()  # a poll is due
        self._scheduler = BackgroundScheduler(timezone="UTC")
        # ``set_aside``: what the first poll leaves is set aside from the collector (``lasting``;
        # `pbp run`, whose process lasts); then whether this runner froze first, once it did
        self._set_aside: bool | None = None if set_aside else False
        self._setting_aside = threading.Lock()  # (the poller sets aside, the end gives back)
        self._ended = False

    # -- the poller's thread -------------------------------------------------------------------

    def _poll_loop(self) -> None:
        while True:
            self._wake.wait()
            if self._stop.is_set():
                return
            self._wake.clear()
            self._poll_now()

    def _poll_now(self) -> None:
        now = self._clock()
        report = self._attempt(lambda: self._bot.poll_once(now), now=now)
        if report is None:
            return
        self._unavailable_since = None
        self._set_aside_once()
        if self._on_poll is not None:
            self._on_poll(report)
        due = self._attempt(self._bot.next_due, now=now)  # (None too if it failed: the next
        if due is not None and not self._stop.is_set():  # poll reads it again)
            self._scheduler.add_job(
                self._wake.set,
                "date",
                run_date=due,
                id="due",
                replace_existing=True,
                misfire_grace_time=None,
            )

    def _set_aside_once(self) -> None:
        """What the first poll leaves lasts: the collector's full passes leave it out from now
        on (``lasting``); not once the runner has ended (a poll abandoned then may still
        return)."""
        with self._setting_aside:
            if self._set_aside is None and not self._ended:
                self._set_aside = lasting.set_aside(collect=True)

    def _attempt(self, call: Callable[[], T], *, now: datetime) -> T | None:
        """``call()``, or None when it failed: the database away (retried next poll, until the
        outage window ends), its file gone (the bot stops), a bug (logged whole)."""
        try:
            return call()
        except StoreGone as exc:
            self._give_up(str(exc))
        except StoreUnavailable as exc:
            self._unavailable_since = self._unavailable_since or now
            self._last_outage = str(exc)
            if not self._outage_over(self._clock()):
                log.warning("the poll failed, trying again next poll: %s", exc)
        except Exception:  # a bug: log it whole, the next poll tries again
            log.exception("the poll failed")
        return None

    # -- the main thread -----------------------------------------------------------------------

    def _outage_over(self, now: datetime) -> bool:
        """Whether the database has been away for ``give_up_after``: then the bot stops."""
        with self._deciding:
            since = self._unavailable_since
            if since is None or now - since < self._give_up_after or self._stop.is_set():
                return False
            self._give_up(f"{self._last_outage} (for {int((now - since).total_seconds())} s)")
            return True

    def _give_up(self, why: str) -> None:
        log.info("stopping: %s", why)  # the command says why, once
        self.failure = why
        self.stop()

    def stop(self, *_args: object) -> None:
        """Ask the bot to stop after the post in hand."""
        self._stop.set()
        self._wake.set()  # an idle poller wakes up to end
        self._bot.request_stop()

    def run(self) -> None:
        """Poll until ``stop`` (or SIGINT/SIGTERM when run in the main thread)."""
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                signal.signal(sig, self._on_signal)
        self._scheduler.add_job(
            self._wake.set,
            "interval",
            seconds=self._poll_seconds,
            id="poll",
            next_run_time=self._clock(),
            coalesce=True,
            misfire_grace_time=None,
        )
        poller = threading.Thread(target=self._poll_loop, name="pbp-poll", daemon=True)
        poller.start()
        self._scheduler.start()
        try:
            while not self._stop.wait(0.5):
                self._outage_over(self._clock())  # even while a call waits for the database
        finally:
            self._scheduler.shutdown(wait=False)
            self._finish(poller)
            with self._setting_aside:
                self._ended = True
                if self._set_aside:
                    lasting.given_back(self._set_aside)
            log.info("stopped")

    def _finish(self, poller: threading.Thread) -> None:
        """Let the post in hand end, and release the leases, all within ``stop_within``."""
        deadline = time.monotonic() + self._stop_within
        poller.join(max(0.0, deadline - time.monotonic() - RELEASE_SHARE))
        if poller.is_alive():
            self.abandoned = True
            log.warning(
                "the poll in hand did not end in time: abandoned (what it had not "
                "committed is rolled back, as after a crash)"
            )
        if self.failure is not None:
            return  # the database is away or broken: nothing to release there
        releasing = threading.Thread(target=self._release, name="pbp-release", daemon=True)
        releasing.start()
        releasing.join(max(0.0, deadline - time.monotonic()))
        if releasing.is_alive():
            self.abandoned = True
            log.warning(
                "the database did not take the leases back in time: other workers "
                "take the threads when the leases run out"
            )

    def _release(self) -> None:
        try:
            self._bot.release_leases()
        except StoreError as exc:  # the threads move on when the leases run out
            log.warning("the leases were not released: %s", exc)

    def _on_signal(self, signum: int, _frame: FrameType | None) -> None:
        log.info("signal %s: stopping after the post in hand", signum)
        self.stop()
