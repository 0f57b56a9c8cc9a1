"""``[database]``'s limits: how long one call waits for the database, and how long `pbp run`
keeps trying one that does not answer; defaults, and clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbp.config import Config, parse_config
from pbp.errors import ConfigError

MINIMAL = '[bot]\nusername = "pbp_bot"\n'


def parse(text: str) -> Config:
    return parse_config(MINIMAL + text, path=Path("/srv/pbp/config.toml"), environ={})


def test_the_defaults_wait_ten_seconds_and_leave_the_outage_window_to_the_lease() -> None:
    database = parse("").database
    assert (database.timeout_seconds, database.outage_seconds) == (10, None)


def test_both_limits_are_read_beside_the_url() -> None:
    database = parse(
        '[database]\nurl = "sqlite:///x.db"\ntimeout_seconds = 3\noutage_seconds = 90\n'
    ).database
    assert (database.url, database.timeout_seconds, database.outage_seconds) == (
        "sqlite:////srv/pbp/x.db",
        3,
        90,
    )


@pytest.mark.parametrize(
    ("line", "where", "problem"),
    [
        ("timeout_seconds = 1", "database.timeout_seconds", "timeout_seconds = 1 is below 2"),
        ("timeout_seconds = 2.5", "database.timeout_seconds", ""),
        ("timeout_seconds = 601", "database.timeout_seconds", "is beyond 600"),
        ("outage_seconds = 0", "database.outage_seconds", "outage_seconds = 0 is below 1"),
        ("outage_seconds = 86401", "database.outage_seconds", "is beyond 86400"),
        ("timeout = 5", "database", "timeout"),
    ],
)
def test_a_wrong_limit_names_its_key(line: str, where: str, problem: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse(f"[database]\n{line}\n")
    assert caught.value.where.startswith(where), caught.value.where
    assert problem in str(caught.value)
