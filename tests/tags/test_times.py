"""Durations and absolute times as GMs type them (SPEC §2.5)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbp.tags.times import MAX_DURATION, MIN_DURATION, parse_duration, parse_instant


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("90m", timedelta(minutes=90)),
        ("48h", timedelta(hours=48)),
        ("2d", timedelta(days=2)),
        ("1 day", timedelta(days=1)),
        ("2 hours", timedelta(hours=2)),
        ("30 minutes", timedelta(minutes=30)),
        ("1h30m", timedelta(hours=1, minutes=30)),
        ("1h 30m", timedelta(hours=1, minutes=30)),
        ("1 hour and 30 minutes", timedelta(hours=1, minutes=30)),
        ("1 hour, 30 min", timedelta(hours=1, minutes=30)),
        ("2D", timedelta(days=2)),
        ("1 week", timedelta(days=7)),
        ("  12 hrs ", timedelta(hours=12)),
        ("1m", MIN_DURATION),
        ("365d", MAX_DURATION),
    ],
)
def test_durations_read_in_every_written_form(text: str, expected: timedelta) -> None:
    assert parse_duration(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "48",  # a bare number has no unit
        "48x",
        "h",
        "0m",  # below a minute
        "366d",  # beyond a year
        "1h 2h",  # a unit twice
        "1h foo",
        "foo 1h",
        "1.5h",
        "-2h",
        "1234567d",
        "99999999999999999999d",
        "1 hour or 2",
    ],
)
def test_what_is_no_duration_reads_as_none(text: str) -> None:
    assert parse_duration(text) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026-12-02 18:00 UTC", datetime(2026, 12, 2, 18, 0, tzinfo=UTC)),
        ("2026-12-02T18:00Z", datetime(2026, 12, 2, 18, 0, tzinfo=UTC)),
        ("2026-12-02 18:00", datetime(2026, 12, 2, 18, 0, tzinfo=UTC)),
        ("2026-12-02 18:00 utc", datetime(2026, 12, 2, 18, 0, tzinfo=UTC)),
        ("2026-12-02 18:00 GMT", datetime(2026, 12, 2, 18, 0, tzinfo=UTC)),
        ("2026-12-02 18:00+01:00", datetime(2026, 12, 2, 17, 0, tzinfo=UTC)),
        ("2026-12-02 18:00 +01:00", datetime(2026, 12, 2, 17, 0, tzinfo=UTC)),
        ("2026-12-02T18:00:30-05:30", datetime(2026, 12, 2, 23, 30, 30, tzinfo=UTC)),
        ("2026-12-02 18:00 UTC+2", datetime(2026, 12, 2, 16, 0, tzinfo=UTC)),
        ("2026-12-02 00:30 +0100", datetime(2026, 12, 1, 23, 30, tzinfo=UTC)),
        ("2026-1-2 8:05", datetime(2026, 1, 2, 8, 5, tzinfo=UTC)),
    ],
)
def test_instants_read_into_aware_utc(text: str, expected: datetime) -> None:
    instant = parse_instant(text)
    assert instant == expected
    assert instant is not None and instant.utcoffset() == timedelta(0)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "2026-12-02",  # a date without a time
        "18:00",
        "2026-13-02 18:00",
        "2026-02-30 18:00",
        "2026-12-02 24:00",
        "2026-12-02 18:60",
        "2026-12-02 18:00 CET",
        "2026-12-02 18:00 +25:00",
        "2026-12-02 18:00 +01:70",
        "0001-01-01 00:00 +05:00",  # before the first representable instant in UTC
        "tomorrow 18:00",
    ],
)
def test_what_is_no_instant_reads_as_none(text: str) -> None:
    assert parse_instant(text) is None


_UNITS = st.sampled_from(
    [("d", 1440), ("day", 1440), ("days", 1440), ("h", 60), ("hours", 60), ("m", 1), ("min", 1)]
)


@settings(max_examples=200)
@given(
    parts=st.lists(st.tuples(st.integers(1, 200), _UNITS), min_size=1, max_size=3),
    spaced=st.booleans(),
)
def test_written_durations_read_back_to_themselves(
    parts: list[tuple[int, tuple[str, int]]], spaced: bool
) -> None:
    by_minutes = {minutes: (count, unit) for count, (unit, minutes) in parts}  # one of each unit
    gap = " " if spaced else ""
    text = " ".join(f"{count}{gap}{unit}" for count, unit in by_minutes.values())
    total = timedelta(minutes=sum(count * minutes for minutes, (count, _) in by_minutes.items()))
    expected = total if MIN_DURATION <= total <= MAX_DURATION else None
    assert parse_duration(text) == expected


@settings(max_examples=200)
@given(
    moment=st.datetimes(min_value=datetime(1900, 1, 1), max_value=datetime(2999, 12, 31)).map(
        lambda value: value.replace(microsecond=0)
    ),
    offset_minutes=st.integers(-14 * 60, 14 * 60),
    style=st.sampled_from(["{d} {t} UTC", "{d}T{t}Z", "{d} {t}", "{d} {t}{o}", "{d}T{t} {o}"]),
)
def test_written_instants_read_back_to_themselves(
    moment: datetime, offset_minutes: int, style: str
) -> None:
    zone = timezone(timedelta(minutes=offset_minutes)) if "{o}" in style else UTC
    local = moment.replace(tzinfo=zone)
    sign = "-" if offset_minutes < 0 else "+"
    hours, minutes = divmod(abs(offset_minutes), 60)
    text = style.format(
        d=local.strftime("%Y-%m-%d"),
        t=local.strftime("%H:%M:%S"),
        o=f"{sign}{hours:02d}:{minutes:02d}",
    )
    assert parse_instant(text) == local.astimezone(UTC)
