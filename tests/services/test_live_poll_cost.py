"""What a live poll costs the database when one of its threads has one new post (issue 28):
on the local forum, the statements and transactions of a poll that reads the post, answers
it and records the answer, on SQLite and on PostgreSQL, with the bot warm (its worker's beat
not due)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from replay_scale import START
from sample_campaigns import TEST_KEEP
from sql_counter import counting

from pbp.forums.local import LocalForum
from pbp.services.bot import Bot, BotOptions, WatchedThread
from pbp.store.database import Store
from pbp.store.local_posts import SqlLocalStorage

THREADS = 5


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'live.db'}"
    else:
        database: Any = request.getfixturevalue("postgres_database")
        database.reset()
        url = str(database.url)
    store = Store(url)
    store.upgrade()
    try:
        yield store
    finally:
        store.dispose()


def _table(store: Store, tmp_path: Path, keys: list[str]) -> tuple[Bot, LocalForum, list[Any]]:
    """A bot watching ``keys`` on the local forum (a campaign of the Test Keep each), the
    forum, and the clock both read (``clock[0]``)."""
    campaign = tmp_path / "campaign.toml"
    campaign.write_text(TEST_KEEP, encoding="utf-8")
    clock: list[Any] = [START]
    forum = LocalForum(SqlLocalStorage(store), bot="pbp_bot", clock=lambda: clock[0])
    bot = Bot(
        store=store,
        forum=forum,
        threads=[WatchedThread(key=k, campaign=campaign) for k in keys],
        options=BotOptions(username="pbp_bot", owner="w1", lease=timedelta(minutes=30)),
    )
    return bot, forum, clock


def test_a_poll_with_one_new_post_costs_6_statements_in_1_transaction(
    store: Store, tmp_path: Path
) -> None:
    keys = [f"t{i}" for i in range(THREADS)]
    bot, forum, clock = _table(store, tmp_path, keys)
    for key in keys:
        forum.post(thread=key, author="bob", body="[physical: attack Goblin]", at=clock[0])
    bot.poll_once(START)  # every thread read and answered
    costs: list[tuple[int, int, list[str]]] = []
    for minute, key in enumerate(keys * 2, 1):  # the second time round: every thread warm
        clock[0] = START + timedelta(minutes=minute)
        forum.post(thread=key, author="bob", body="[phisical: attack Goblin]", at=clock[0])
        with counting(store) as sent:
            report = bot.poll_once(clock[0])
        assert report.events == 1 and not report.errors, report
        [answer] = report.delivered[key]  # the typo's problem reply
        assert answer.key.startswith("problems-"), answer
        costs.append((len(sent.statements), sent.transactions, sent.statements))
    for statements, transactions, sent_ in costs:  # the worker's beat not due before minute 15
        # the thread is held by this worker and has nothing else to do: its cycle runs in
        # the ingest's transaction, the post in hand (no inbox), and the cursor waits for
        # the beat: the listing; the threads with work (with the live workers, the thread
        # counts, the thread's row and the post's known versions); the version (with its
        # outcome and its event in the log); the thread's row (while the lease is ours);
        # the forum's post; the reply's row, written as posted with the post's id and its
        # attempt counted (its revision found by the INSERT: the first, as the key it was
        # posted under says)
        assert (statements, transactions) == (6, 1), sent_


def test_the_turn_board_of_a_long_thread_reads_no_seed_from_the_store(
    store: Store, tmp_path: Path
) -> None:
    # the opening post shows the seal of the round the cheat sheet was posted in (round 1):
    # each edit of its turn board, twelve rounds on in one process, still finds that seed in
    # memory
    bot, forum, clock = _table(store, tmp_path, ["t"])

    def post(author: str, body: str) -> Any:
        clock[0] += timedelta(minutes=1)
        forum.post(thread="t", author=author, body=body, at=clock[0])
        return bot.poll_once(clock[0])

    post("gm_sam", "!group Aria, Bram, Goblin")
    for _ in range(12):
        post("alice", "Aria swings. [physical: attack Goblin]")
        post("gm_sam", "!close")
    with counting(store) as sent:
        report = post("alice", "Aria swings. [physical: attack Goblin]")
    edits = [d for d in report.delivered["t"] if d.edited]
    assert edits and "Dice seal of round 1" in edits[0].text  # the turn board's edit
    assert not [s for s in sent.texts if " rounds" in s], sent.texts
