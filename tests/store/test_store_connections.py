"""Server connections: no round trip to try a pooled connection at every unit of work, and a
connection the server dropped is replaced (after resting in the pool: at once; in use: the
unit of work fails in one line, the next one works)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from pbp.store import engines
from pbp.store.database import Store, StoreUnavailable

pytestmark = pytest.mark.postgres


@pytest.fixture
def pg_store(postgres_database: Any) -> Iterator[Store]:
    postgres_database.reset()
    store = Store(str(postgres_database.url))
    store.create_for_tests()
    try:
        yield store
    finally:
        store.dispose()


def _drop_connections(store: Store) -> None:
    """The server ends the store's pooled connection (as a restart would)."""
    with store.session() as s:
        pid = s.execute(text("SELECT pg_backend_pid()")).scalar_one()
    admin = create_engine(store.url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
    finally:
        admin.dispose()


def _answer(store: Store) -> int:
    with store.session() as s:
        return int(s.execute(text("SELECT 41 + 1")).scalar_one())


def test_a_connection_dropped_while_resting_is_replaced_without_an_error(
    pg_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _answer(pg_store) == 42
    _drop_connections(pg_store)
    monkeypatch.setattr(engines, "IDLE_PING", 0.0)  # it rested long enough to be tried
    assert _answer(pg_store) == 42


def test_units_of_work_in_a_row_are_not_pinged_and_a_drop_costs_one_of_them(
    pg_store: Store,
) -> None:
    assert _answer(pg_store) == 42
    _drop_connections(pg_store)
    # used again at once: not tried first (no round trip), so the drop shows, in one line
    with pytest.raises(StoreUnavailable) as failed:
        _answer(pg_store)
    assert "\n" not in str(failed.value)
    assert _answer(pg_store) == 42  # the pool opened a new connection
