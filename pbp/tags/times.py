"""Durations and absolute times as GMs type them in commands (SPEC §2.5).

Pure: nothing here reads the clock, so "in the past" is for the engine to decide.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone

MIN_DURATION = timedelta(minutes=1)
MAX_DURATION = timedelta(days=365)

# Unit words and their abbreviations, each with its length in minutes.
_UNIT_MINUTES: dict[str, int] = {
    **dict.fromkeys(("m", "min", "mins", "minute", "minutes"), 1),
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours"), 60),
    **dict.fromkeys(("d", "day", "days"), 24 * 60),
    **dict.fromkeys(("w", "wk", "wks", "week", "weeks"), 7 * 24 * 60),
}
# At most six digits a part: enough for any duration under the limit, and it keeps a hostile
# "99999…9d" from overflowing timedelta before the limit check.
_PART = re.compile(r"([0-9]{1,6})\s*([a-z]+)")
_JOINER = re.compile(r"(?:\s|,|\band\b)*")

_INSTANT = re.compile(
    r"""
    (?P<year>[0-9]{4})-(?P<month>[0-9]{1,2})-(?P<day>[0-9]{1,2})
    (?:\s*T\s*|\s+)
    (?P<hour>[0-9]{1,2}):(?P<minute>[0-9]{2})(?::(?P<second>[0-9]{2}))?
    \s*
    (?P<zone>z|utc|gmt)?
    \s*
    (?:(?P<sign>[+-])(?P<off_h>[0-9]{1,2})(?::?(?P<off_m>[0-9]{2}))?)?
    """,
    re.IGNORECASE | re.VERBOSE,
)


def parse_duration(text: str) -> timedelta | None:
    """Read ``90m``, ``48h``, ``2d``, ``1 day``, ``2 hours``, ``1h30m``, ``1 hour and 30 min``.

    Each unit may appear once; parts add up. None when the text is no duration or falls outside
    1 minute to 365 days.
    """
    folded = text.strip().lower()
    if not folded:
        return None
    minutes = 0
    seen: set[int] = set()
    position = 0
    for match in _PART.finditer(folded):
        if _JOINER.fullmatch(folded, position, match.start()) is None:
            return None
        unit = _UNIT_MINUTES.get(match.group(2))
        if unit is None or unit in seen:
            return None
        seen.add(unit)
        minutes += int(match.group(1)) * unit
        position = match.end()
    if not seen or position != len(folded):
        return None
    duration = timedelta(minutes=minutes)
    return duration if MIN_DURATION <= duration <= MAX_DURATION else None


def parse_instant(text: str) -> datetime | None:
    """Read ``2026-12-02 18:00 UTC``, ``2026-12-02T18:00Z`` or ``2026-12-02 18:00+01:00``.

    A time without a zone is read as UTC. The result is aware and in UTC; None when the text is
    no valid time.
    """
    match = _INSTANT.fullmatch(text.strip())
    if match is None:
        return None
    fields = match.groupdict()
    try:
        zone = _offset(sign=fields["sign"], hours=fields["off_h"], minutes=fields["off_m"])
        local = datetime(
            int(fields["year"]),
            int(fields["month"]),
            int(fields["day"]),
            int(fields["hour"]),
            int(fields["minute"]),
            int(fields["second"] or 0),
            tzinfo=zone,
        )
        return local.astimezone(UTC)
    except (ValueError, OverflowError):
        return None


def _offset(*, sign: str | None, hours: str | None, minutes: str | None) -> timezone:
    """The zone of ``+01:00`` and its forms; UTC when there is no offset."""
    if sign is None or hours is None:
        return UTC
    if int(minutes or 0) >= 60:
        raise ValueError("offset minutes")
    delta = timedelta(hours=int(hours), minutes=int(minutes or 0))
    return timezone(-delta if sign == "-" else delta)  # raises ValueError beyond 24 hours
