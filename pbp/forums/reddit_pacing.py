"""How fast the bot may ask Reddit: Reddit's rate-limit answers, kept.

- A 429 says how long to wait (``Retry-After``, else the window's ``x-ratelimit-reset``): no
  request goes out before that has passed.
- Every answer's ``x-ratelimit-*`` headers say how many requests the window has left and when
  it resets. prawcore paces its requests by them, sleeping a little between two; when the window
  is used up it would sleep until the reset (up to ten minutes, inside a poll). Instead the bot
  then asks nothing more until the reset, so a poll never hangs on a long sleep.
- A ``RATELIMIT`` error on a write ("you are doing that too much. try again in 5 minutes.")
  holds the writes until then; reads go on.

While held, every call raises a temporary ``ForumError`` that says for how long, without a
request. What is held is this process's: each worker keeps its own (several workers on one
account each hear Reddit's answers to their own requests).
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable
from typing import Any

import prawcore
from praw.exceptions import RedditAPIException

from pbp.errors import ForumError

log = logging.getLogger(__name__)

LONGEST_PACE = 10.0  # seconds prawcore may sleep between two requests (its own longest pace)
DEFAULT_WAIT = 60.0  # seconds to wait when Reddit says to wait but not how long
_WAIT_IN = re.compile(r"(\d+)\s*(millisecond|second|minute|hour)s?", re.IGNORECASE)
_UNIT_SECONDS = {"millisecond": 0.001, "second": 1.0, "minute": 60.0, "hour": 3600.0}


class Pacing:
    """When this process may ask Reddit again (``clock``: seconds, e.g. ``time.monotonic``)."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        self._all_until = 0.0  # no request before this
        self._writes_until = 0.0  # no comment, edit or message before this
        self._why = ""
        self._limiters: list[Any] = []  # prawcore's rate limiters, each guarded once
        self._limiter_held = False  # a hold that came from prawcore's limiter

    def check(self, *, write: bool) -> None:
        """Raise a temporary ForumError if Reddit asked the bot to wait (writes: or to wait
        before writing)."""
        now = self._clock()
        until = max(self._all_until, self._writes_until) if write else self._all_until
        if now < until:
            raise ForumError(
                f"Reddit asked the bot to wait {until - now:.0f} s more "
                f"({self._why}); nothing was asked of it",
                temporary=True,
            )
        if self._limiter_held and now >= self._all_until:
            self._limiter_held = False
            for limiter in self._limiters:  # waited out by this clock: prawcore need not
                limiter.next_request_timestamp_ns = None

    def hold(self, seconds: float, *, why: str, writes_only: bool = False) -> None:
        """Ask nothing (or write nothing) for ``seconds``."""
        until = self._clock() + max(0.0, seconds)
        if writes_only:
            self._writes_until = max(self._writes_until, until)
        else:
            self._all_until = max(self._all_until, until)
        self._why = why
        log.warning(
            "Reddit: waiting %.0f s before the next %s (%s)",
            seconds,
            "write" if writes_only else "request",
            why,
        )

    def heard(self, exc: BaseException) -> None:
        """Keep what a rate-limit answer said (any other error is left alone)."""
        match exc:
            case prawcore.TooManyRequests():
                self.hold(_seconds_of(exc), why="429 Too Many Requests")
            case RedditAPIException() if any(i.error_type == "RATELIMIT" for i in exc.items):
                message = " ".join(i.message or "" for i in exc.items)
                self.hold(_wait_in(message), why="Reddit's limit on posting", writes_only=True)
            case _:
                pass

    def guard(self, limiter: Any) -> None:
        """Make prawcore's ``limiter`` hold the bot instead of sleeping until its window
        resets (it still sleeps its short paces)."""
        if any(known is limiter for known in self._limiters):
            return
        self._limiters.append(limiter)
        sleep_then_ask = limiter.delay

        def delay() -> None:
            due = limiter.next_request_timestamp_ns
            wait = 0.0 if due is None else (due - time.monotonic_ns()) / 1e9
            if wait > LONGEST_PACE:
                self.hold(wait, why="the rate limit's window is used up")
                self._limiter_held = True
                raise ForumError(
                    f"Reddit's rate limit is used up for {wait:.0f} s; nothing was asked of it",
                    temporary=True,
                )
            sleep_then_ask()

        limiter.delay = delay


def _seconds_of(exc: prawcore.TooManyRequests) -> float:
    """How long a 429 said to wait: ``Retry-After``, else the window's reset."""
    headers = getattr(exc.response, "headers", {}) or {}
    for name in ("retry-after", "x-ratelimit-reset"):
        value = headers.get(name)
        if value is None:
            continue
        try:
            return max(1.0, float(value))
        except (TypeError, ValueError):
            continue
    return DEFAULT_WAIT


def _wait_in(message: str) -> float:
    """The wait a RATELIMIT message names ("try again in 5 minutes"), in seconds."""
    found = _WAIT_IN.search(message)
    if found is None:
        return DEFAULT_WAIT
    return max(1.0, int(found.group(1)) * _UNIT_SECONDS[found.group(2).lower()])
