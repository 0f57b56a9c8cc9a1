"""What an idle poll costs the database: the same few statements whether the bot runs ten
threads or a thousand (idle threads are never touched), on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sample_campaigns import TEST_KEEP
from sqlalchemy import event

from pbp.forums.local import LocalForum
from pbp.services.bot import Bot, BotOptions, WatchedThread
from pbp.store.database import Store
from pbp.store.local_posts import SqlLocalStorage

START = datetime(2026, 11, 29, 10, 0, tzinfo=UTC)


@contextmanager
def statements(store: Store) -> Iterator[list[str]]:
    """Every SQL statement the store sends inside the block (BEGIN and COMMIT included)."""
    sent: list[str] = []

    def record(*args: Any) -> None:
        verb = str(args[2]).split()[0].upper()
        if verb != "BEGIN":  # SQLite's BEGIN IMMEDIATE is the begin event below
            sent.append(verb)

    def begin(*_args: Any) -> None:
        sent.append("BEGIN")

    def commit(*_args: Any) -> None:
        sent.append("COMMIT")

    hooks = [("before_cursor_execute", record), ("begin", begin), ("commit", commit)]
    for engine in store.engines:
        for name, hook in hooks:
            event.listen(engine, name, hook)
    try:
        yield sent
    finally:
        for engine in store.engines:
            for name, hook in hooks:
                event.remove(engine, name, hook)


def idle_poll(folder: Path, url: str, *, threads: int) -> list[str]:
    """The statements of an idle poll of a bot running ``threads`` threads, each of which
    has had a post read and answered."""
    folder.mkdir()
    campaign = folder / "campaign.toml"
    campaign.write_text(TEST_KEEP, encoding="utf-8")
    store = Store(url, durable=False)
    store.upgrade()
    forum = LocalForum(SqlLocalStorage(store), bot="pbp_bot", clock=lambda: START)
    keys = [f"t{i}" for i in range(threads)]
    for key in keys:
        forum.post(thread=key, author="bob", body="[phisical: attack Goblin]", at=START)
    bot = Bot(
        store=store,
        forum=forum,
        threads=[WatchedThread(key=k, campaign=campaign) for k in keys],
        options=BotOptions(username="pbp_bot", owner="w1"),
    )
    first = bot.poll_once(START + timedelta(minutes=1))
    assert first.events == threads and first.errors == []
    bot.poll_once(START + timedelta(minutes=2))  # the bot's own replies go by in the listing
    try:
        with statements(store) as sent:
            report = bot.poll_once(START + timedelta(minutes=3))
        assert report.events == 0 and not report.delivered
        return sent
    finally:
        store.dispose()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("backend", "many"),
    [
        ("sqlite", 1000),
        pytest.param("postgresql", 200, marks=pytest.mark.postgres),  # slower to set up
    ],
)
def test_an_idle_poll_costs_the_same_statements_for_ten_threads_and_many(
    tmp_path: Path, request: pytest.FixtureRequest, backend: str, many: int
) -> None:
    def url(name: str) -> str:
        if backend == "sqlite":
            return f"sqlite:///{tmp_path / name}.db"
        database = request.getfixturevalue("postgres_database")
        database.reset()
        return str(database.url)

    few = idle_poll(tmp_path / "few", url("few"), threads=10)
    lots = idle_poll(tmp_path / "many", url("many"), threads=many)
    assert lots == few
    # a beat (INSERT … ON CONFLICT, UPDATE of its leases), the cursor, the new threads, the
    # listing, the threads with work, the live workers, the counts: three transactions
    assert few.count("BEGIN") <= 3 and len(few) <= 15, few
    assert few.count("UPDATE") <= 1 and few.count("INSERT") <= 1, few
