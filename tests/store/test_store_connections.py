"""Server connections: no round trip to try a pooled connection at every unit of work, and a
connection the server dropped is replaced (after resting in the pool: at once; in use: the
unit of work fails in one line, the next one works). A server that stops answering (silent)
or refuses fails a unit of work in one line within the store's timeout, and every connection
carries its limits (connect timeout, keepalives, TCP user timeout, statement timeout)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from tcp_proxy import TcpProxy

from pbp.store import engines
from pbp.store.database import Store, StoreUnavailable

pytestmark = pytest.mark.postgres


@pytest.fixture
def pg_store(postgres_database: Any) -> Iterator[Store]:
    postgres_database.reset()
    store = Store(str(postgres_database.url))
    store.create_schema()
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


# -- a server that does not answer -------------------------------------------------------------

TIMEOUT = 2  # seconds: the shortest libpq takes


@pytest.fixture
def proxied(postgres_database: Any) -> Iterator[tuple[TcpProxy, Store]]:
    """A store on the test database through a TCP proxy the test can silence or refuse."""
    postgres_database.reset()
    url = make_url(str(postgres_database.url))
    with TcpProxy(url.port or 5432, target_host=url.host or "127.0.0.1") as proxy:
        store = Store(
            url.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False),
            timeout=TIMEOUT,
        )
        try:
            yield proxy, store
        finally:
            store.dispose()


def _fails_within(store: Store, seconds: float) -> str:
    """The one line a unit of work fails with, which it must do within ``seconds``."""
    started = time.monotonic()
    with pytest.raises(StoreUnavailable) as failed:
        _answer(store)
    took = time.monotonic() - started
    assert took < seconds, f"the unit of work waited {took:.1f} s"
    assert "\n" not in str(failed.value)
    return str(failed.value)


def test_a_server_gone_silent_after_connecting_fails_in_one_line_and_is_used_again_after(
    proxied: tuple[TcpProxy, Store],
) -> None:
    proxy, store = proxied
    assert _answer(store) == 42
    proxy.set_mode("silent")  # the pooled connection's next statement is never answered
    line = _fails_within(store, TIMEOUT + 3)
    assert line == f"the database {store.shown_url} did not answer within {TIMEOUT} s"
    # a new connection: accepted by the silent proxy, its start-up never answered
    assert _fails_within(store, TIMEOUT + 3) == line
    proxy.set_mode("forward")
    assert _answer(store) == 42


def test_a_silent_server_from_the_start_and_a_refusing_one_each_fail_in_one_line(
    proxied: tuple[TcpProxy, Store],
) -> None:
    proxy, store = proxied
    proxy.set_mode("silent")
    with pytest.raises(StoreUnavailable, match=f"did not answer within {TIMEOUT} s$"):
        store.current()
    assert proxy.connections >= 1  # it did try
    proxy.set_mode("refuse")
    line = _fails_within(store, TIMEOUT)
    assert line.startswith(f"the database {store.shown_url} failed: ")
    assert "Connection refused" in line
    proxy.set_mode("forward")
    assert store.current() is None  # an empty database, answering again


def test_every_connection_carries_the_limits_and_a_url_keeps_its_own(
    postgres_database: Any,
) -> None:
    postgres_database.reset()
    url = make_url(str(postgres_database.url))
    store = Store(str(postgres_database.url), timeout=7)
    own = Store(
        url.update_query_dict(
            {"connect_timeout": "30", "options": "-c statement_timeout=1234"}
        ).render_as_string(hide_password=False),
        timeout=7,
    )
    try:
        for each, expected in ((store, ("7", "6s")), (own, ("30", "1234ms"))):
            with each.transaction() as conn:
                driver: Any = conn.connection.driver_connection
                given = driver.info.get_parameters()
                assert (given["connect_timeout"], given["keepalives"]) == (expected[0], "1")
                assert given["tcp_user_timeout"] == "7000"
                # the server's own limit, a second under the client's
                shown = conn.execute(text("SHOW statement_timeout")).scalar_one()
                assert shown == expected[1]
    finally:
        store.dispose()
        own.dispose()


def test_a_statement_the_server_cancels_fails_in_one_line_and_the_connection_stays(
    pg_store: Store,
) -> None:
    slow = Store(pg_store.url, timeout=2)  # the server cancels statements after 1 s
    try:
        with pytest.raises(StoreUnavailable) as failed, slow.session() as s:
            s.execute(text("SELECT pg_sleep(1.5)"))
        assert "canceling statement due to statement timeout" in str(failed.value)
        assert "\n" not in str(failed.value)
        assert _answer(slow) == 42
        assert slow.engine.pool.checkedin() == 1  # the same connection: not dropped
    finally:
        slow.dispose()
