"""Properties of the command parser: it never raises, and what a formatter writes reads back."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbp.errors import Problem
from pbp.tags.command_parser import parse_command_line
from pbp.tags.commands import (
    COMMAND_WORDS,
    BonusCommand,
    Command,
    DamageCommand,
    DeadlineCommand,
    GroupCommand,
    NpcCommand,
)
from pbp.tags.model import RESERVED_WORDS, Source

# Words the grammar gives a meaning to, and pieces of arguments, to reach deep into each reader.
_PIECES = st.sampled_from(
    [
        *COMMAND_WORDS, "end", "medic", "rally", "interval", "ambush", "pressure", "on", "off",
        "body", "mind", "side", "group", "hp", "wp", "dice", "pool", "tn", "constraint", "dc",
        "secret", "night", "and", ",", '"', "'", "+", "-", "−", "2", "-1", "+2", "4d6", "d6",
        "0d0", "1 day", "48h", "1h30m", "2026-12-02 18:00 UTC", "2026-02-30 18:00", "abstract",
        "d20", "skirmish", "Imp A", "Aria", "https://www.reddit.com/r/x/comments/a/b/c/", ".",
        "!", "999999999999", "[", "]", "\\", "`", "\u00a0",
    ]
)  # fmt: skip


def source_of(line: str) -> Source:
    return Source(index=0, line=1, column=1, text=line)


def check_result(line: str, *, gm: bool) -> Command | Problem | None:
    result = parse_command_line(line, source=source_of(line), gm=gm)
    assert result is None or isinstance(result, Problem) or result.source == source_of(line)
    if isinstance(result, Problem):
        assert result.tag == line
    return result


@pytest.mark.slow
@settings(max_examples=300)
@given(rest=st.text(max_size=80), gm=st.booleans())
def test_any_bang_line_gives_a_command_a_problem_or_prose(rest: str, gm: bool) -> None:
    check_result("!" + rest, gm=gm)


@settings(max_examples=400)
@given(
    word=st.sampled_from(COMMAND_WORDS).map(lambda w: w.upper() if len(w) % 2 else w),
    pieces=st.lists(_PIECES, max_size=12),
    gm=st.booleans(),
)
def test_any_arguments_to_a_command_give_a_command_or_a_problem(
    word: str, pieces: list[str], gm: bool
) -> None:
    result = check_result(" ".join([f"!{word}", *pieces]), gm=gm)
    assert result is not None  # a command word is never prose


# Names of one to three words that are no keyword of any command.
_KEYWORDS = RESERVED_WORDS | {"side", "group", "hp", "wp", "and", "dice", "pool", "tn", "dc"}
_NAME_WORD = st.from_regex(r"[A-Z][a-z]{1,8}", fullmatch=True).filter(
    lambda w: w.lower() not in _KEYWORDS
)
_NAMES = st.lists(_NAME_WORD, min_size=1, max_size=3).map(" ".join)


@settings(max_examples=200)
@given(name=_NAMES, body=st.integers(0, 999), mind=st.integers(0, 999), hp=st.integers(0, 999))
def test_a_written_npc_reads_back(name: str, body: int, mind: int, hp: int) -> None:
    line = f"!npc {name} body {body} mind {mind} hp {hp}"
    assert check_result(line, gm=True) == NpcCommand(
        source=source_of(line), name=name, body=body, mind=mind, scores=(("hp", hp),)
    )


@settings(max_examples=200)
@given(name=_NAMES, amount=st.integers(-999, 999), stat=st.sampled_from(["body", "mind"]))
def test_written_corrections_read_back(name: str, amount: int, stat: str) -> None:
    bonus = f"!bonus {name} {amount:+d}"
    assert check_result(bonus, gm=True) == BonusCommand(
        source=source_of(bonus), name=name, amount=amount
    )
    damage = f"!damage {name} {stat} {amount}"
    result = check_result(damage, gm=True)
    assert isinstance(result, DamageCommand)
    assert (result.name, result.stat, result.amount) == (name, stat, amount)


@settings(max_examples=200)
@given(names=st.lists(_NAMES, min_size=2, max_size=5), joiner=st.sampled_from([", ", ",", " and "]))
def test_a_written_group_reads_back(names: list[str], joiner: str) -> None:
    line = "!group " + joiner.join(names)
    assert check_result(line, gm=True) == GroupCommand(source=source_of(line), names=tuple(names))


@settings(max_examples=200)
@given(
    days=st.integers(0, 300),
    hours=st.integers(0, 23),
    minutes=st.integers(0, 59),
    long_units=st.booleans(),
)
def test_a_written_deadline_duration_reads_back(
    days: int, hours: int, minutes: int, long_units: bool
) -> None:
    units = (" days", " hours", " minutes") if long_units else ("d", "h", "m")
    parts = [f"{n}{unit}" for n, unit in zip((days, hours, minutes), units, strict=True) if n]
    expected = timedelta(days=days, hours=hours, minutes=minutes)
    line = "!deadline " + " ".join(parts)
    result = check_result(line, gm=True)
    if parts:
        assert result == DeadlineCommand(source=source_of(line), after=expected)
    else:
        assert isinstance(result, Problem)


@settings(max_examples=200)
@given(moment=st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2200, 1, 1)))
def test_a_written_deadline_time_reads_back(moment: datetime) -> None:
    at = moment.replace(second=0, microsecond=0, tzinfo=UTC)
    line = f"!deadline {at:%Y-%m-%d %H:%M} UTC"
    assert check_result(line, gm=True) == DeadlineCommand(source=source_of(line), at=at)
