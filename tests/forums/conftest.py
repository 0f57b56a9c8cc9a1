"""Fixtures of the forum tests: every Forum implementation, by name (see ``forum_harness``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from forum_harness import (
    IMPLEMENTATIONS,
    STORAGES,
    FlakyLocalHarness,
    ForumHarness,
    LocalHarness,
    flaky_harness,
    local_harness,
)


@pytest.fixture(params=list(IMPLEMENTATIONS))
def harness(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ForumHarness]:
    """Each forum of the contract suite in turn, fresh and empty."""
    with IMPLEMENTATIONS[request.param](tmp_path) as made:
        yield made


@pytest.fixture(params=list(STORAGES))
def local(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[LocalHarness]:
    """The local forum on each storage in turn, fresh and empty."""
    with STORAGES[request.param](tmp_path) as storage:
        yield local_harness(storage)


@pytest.fixture
def flaky() -> FlakyLocalHarness:
    """A ``FlakyForum`` over the local forum in memory."""
    return flaky_harness()
