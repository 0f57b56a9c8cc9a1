"""The range of times the bot takes, and adding a duration to a time without overflowing.

Pure. The shell refuses a time outside ``EARLIEST`` to ``LATEST`` where it reads one (an events
file's ``at``); the engine never trusts that: a deadline worked out from a time at the end of
the calendar saturates at the last moment Python can hold instead of raising OverflowError.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)  # Unix time 0: no forum post is older
# far enough from datetime.max that every duration the bot adds (a deadline of at most a
# year, a worker's lease, a re-read delay) still gives a time
LATEST = datetime(9000, 1, 1, tzinfo=UTC)
_LAST = datetime.max.replace(tzinfo=UTC)


def later(at: datetime, by: timedelta) -> datetime:
    """``at + by``, or the last moment there is when that is past the end of the calendar."""
    if by > timedelta(0) and at > _LAST - by:
        return _LAST
    return at + by
