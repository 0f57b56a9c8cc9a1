"""What a replay costs the database (issue 16), on SQLite and on PostgreSQL: at most 8
statements in at most 2 transactions per post, and a close at most 20 statements plus one
per character that changed, the same in a late round as in the first."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from replay_scale import CAMPAIGN, CLOSE, START, events
from sql_counter import Sent, counting

from pbp.engine.events import Event, PostArrived
from pbp.forums.local import LocalForum
from pbp.services.bot import Bot, BotOptions, WatchedThread
from pbp.services.events_file import event_from
from pbp.services.replay import THREAD, ReplayRun, _Clock, feed_all
from pbp.services.seeds import round_seeds
from pbp.store.database import Store
from pbp.store.local_posts import SqlLocalStorage
from pbp.store.repository import Repository


def synthetic(posts: int) -> list[Event]:
    """The thread of ``benchmarks/replay_scale.py`` (its own generator, so the test and the
    benchmark measure the same thread): four players, a GM who closes a round every ten
    posts, a typo in every fourth post, an edit every seventh."""
    return [event_from(raw, where=f"event {i}") for i, raw in enumerate(events(posts), 1)]


@dataclass
class Replay:
    run: ReplayRun
    store: Store


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def replay(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Replay]:
    """A replay of the synthetic campaign, on a SQLite file or a PostgreSQL database."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'replay.db'}"
    else:
        database: Any = request.getfixturevalue("postgres_database")
        database.reset()
        url = str(database.url)
    campaign = tmp_path / "campaign.toml"
    campaign.write_text(CAMPAIGN, encoding="utf-8")
    store = Store(url, durable=False)
    store.upgrade()
    clock = _Clock()
    storage = SqlLocalStorage(store)
    forum = LocalForum(storage, bot="pbp_bot", clock=clock)
    seeds = round_seeds("cost")
    bot = Bot(
        store=store,
        forum=forum,
        threads=[WatchedThread(key=THREAD, campaign=campaign)],
        options=BotOptions(username="pbp_bot", ack="errors", owner="replay"),
        seed_maker=lambda _thread, number: seeds(number),
    )
    try:
        yield Replay(run=ReplayRun(bot=bot, forum=forum, clock=clock, storage=storage), store=store)
    finally:
        store.dispose()


def test_a_replay_costs_at_most_8_statements_in_2_transactions_a_post(replay: Replay) -> None:
    events = synthetic(300)
    posts = sum(isinstance(e, PostArrived) for e in events)
    with counting(replay.store) as sent:
        feed_all(replay.run, events)
    replies = sum(len(done) for _, done in replay.run.log)
    assert replies > posts // 3  # the error replies, summaries and cheat sheets went out
    assert len(sent.statements) <= 8 * posts, (len(sent.statements) / posts, sent)
    assert sent.transactions <= 2 * posts, sent.transactions / posts


def _characters(store: Store) -> dict[str, str]:
    with store.session() as s:
        repo = Repository(s)
        thread = repo.thread("local", THREAD)
        assert thread is not None
        return {c.name: c.data for c in repo.characters(thread.id)}


def _round(replay: Replay, minute: int) -> tuple[tuple[int, int], tuple[int, int], int]:
    """One round: a player's post polled alone, then the GM's close polled alone. What each
    poll sent (statements, transactions), and how many characters the close changed."""
    run = replay.run
    at = START + timedelta(minutes=minute)
    post = PostArrived(
        post_id=f"p{minute}", author="alice", at=at, body="Aria swings. [physical: attack Goblin]"
    )
    close = PostArrived(
        post_id=f"g{minute}", author="gm", at=at + timedelta(seconds=30), body=CLOSE
    )
    before = _characters(replay.store)
    measured: list[tuple[int, int]] = []
    for event in (post, close):
        run.put(event)
        with counting(replay.store) as sent:
            done = run.poll(event)
        measured.append(sent - Sent())
    assert [d.key for d in done][:1] and any("summary" in d.key for d in done), done
    after = _characters(replay.store)
    changed = sum(after.get(name) != data for name, data in before.items()) + len(
        set(after) - set(before)
    )
    return measured[0], measured[1], changed


def test_a_close_costs_at_most_20_statements_and_1_per_changed_character_in_any_round(
    replay: Replay,
) -> None:
    run = replay.run
    run.feed(
        PostArrived(
            post_id="g0", author="gm", at=START, body="!group Aria, Bram, Cora, Dax, Goblin"
        )
    )
    costs = []
    for rounds_before in (1, 60):  # the rounds closed in one go before the one measured
        minute = 10 + 130 * len(costs)
        for n in range(rounds_before):
            at = START + timedelta(minutes=minute - 2 * rounds_before + 2 * n)
            run.put(
                PostArrived(
                    post_id=f"b{minute}-{n}",
                    author="bob",
                    at=at,
                    body="Bram swings. [physical: attack Goblin]",
                )
            )
            run.put(
                PostArrived(
                    post_id=f"c{minute}-{n}",
                    author="gm",
                    at=at + timedelta(minutes=1),
                    body="!close",
                )
            )
        run.poll(
            PostArrived(post_id="-", author="-", at=START + timedelta(minutes=minute), body="")
        )
        post, close, changed = _round(replay, minute)
        extra = close[0] - post[0]  # what closing adds to a poll
        assert extra <= 20 + changed, (close, post, changed)
        costs.append((extra - changed, close[1] - post[1]))
    assert costs[0] == costs[1], costs  # the same in round 63 as in round 2
