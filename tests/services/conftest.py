"""The ``table`` fixture: a thread on the local forum and the bot that runs it; and
``pg_table``, the same with its bot's database on PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from service_table import Table


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return Table(tmp_path)


@pytest.fixture
def pg_table(tmp_path: Path, postgres_database: Any) -> Iterator[Table]:
    """A table whose bot keeps everything in a PostgreSQL database of its own."""
    postgres_database.reset()
    table = Table(tmp_path, url=postgres_database.url)
    try:
        yield table
    finally:
        table.store.dispose()
