"""The store contract's fixtures: every test runs once on SQLite and once on PostgreSQL.

``empty_store`` is a store on a database without any table; ``store`` is the same store
migrated with Alembic (``Store.upgrade``), never ``create_all``: the contract covers the
migrations too. ``new_thread`` makes a campaign and a watched thread and returns its id.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from pbp.store import Store
from pbp.store.repository import Repository

T0 = datetime(2026, 11, 29, 10, 0, tzinfo=UTC)

BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgresql", id="postgresql", marks=pytest.mark.postgres),
]


@pytest.fixture(params=BACKENDS)
def empty_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'pbp.db'}"
    else:
        database = request.getfixturevalue("postgres_database")
        database.reset()
        url = database.url
    store = Store(url)
    try:
        yield store
    finally:
        store.dispose()


@pytest.fixture
def store(empty_store: Store) -> Store:
    empty_store.upgrade()
    return empty_store


@pytest.fixture
def new_thread(store: Store) -> Callable[..., int]:
    """Make a watched thread (and its campaign) and return the thread's id."""

    def make(key: str = "keep-1", *, forum: str = "local") -> int:
        with store.session() as s:
            repo = Repository(s)
            campaign = repo.save_campaign(
                path=f"/campaigns/{key}.toml", name="Test Keep", file_hash="c0ffee", at=T0
            )
            thread = repo.add_thread(
                forum=forum, key=key, campaign_id=campaign.id, campaign_hash="c0ffee", at=T0
            )
            return thread.id

    return make
