"""The ``table`` fixture: a thread on the local forum and the bot that runs it."""

from __future__ import annotations

from pathlib import Path

import pytest
from service_table import Table


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return Table(tmp_path)
