"""The statements of a live poll find their rows through an index on SQLite: none reads a
table whole, and none looks a thread's growing tables up by the thread alone (that reads every
row the thread ever had, once a poll or once a post: a long thread's polls would slow down
with its length, and no test of a short thread would see it).

Every statement the store sends while a bot polls posts, a typo, an edit, a delete and a close
is asked ``EXPLAIN QUERY PLAN`` with its own parameters, in a file holding those rows."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

from replay_scale import START
from sample_campaigns import TEST_KEEP
from sqlalchemy import event

from pbp.forums.local import LocalForum
from pbp.services.bot import Bot, BotOptions, WatchedThread
from pbp.store.database import Store
from pbp.store.local_posts import SqlLocalStorage

# tables that hold a handful of rows whatever the threads' lengths: read whole, they cost little
SMALL = frozenset({"workers", "campaigns"})
# a thread's rows that grow with every post, reply, event and round (not found_replies: the
# replies a whole read found with no row in the store, each forgotten once owed again; a poll
# asks only whether a thread has any)
GROWING = frozenset({"post_versions", "thread_events", "replies", "local_posts", "rounds"})
NOT_PLANNED = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE", "PRAGMA")

Statement = tuple[str, Any]  # its text and its parameters


@contextmanager
def _recording(store: Store) -> Iterator[list[Statement]]:
    sent: list[Statement] = []

    def hook(*args: Any) -> None:
        _conn, _cursor, text, parameters, _context, many = args
        # (an executemany's first row; SQLAlchemy's many-rows INSERT ... RETURNING is sent as
        # one statement, its rows' values flat)
        each_row = many and isinstance(parameters[0], tuple | list | dict)
        sent.append((text, parameters[0] if each_row else parameters))

    for engine in store.engines:
        event.listen(engine, "before_cursor_execute", hook)
    try:
        yield sent
    finally:
        for engine in store.engines:
            event.remove(engine, "before_cursor_execute", hook)


def _played(tmp_path: Path) -> tuple[Path, list[Statement]]:
    """A file with three threads played a while, and what the polls sent meanwhile."""
    database = tmp_path / "plans.db"
    store = Store(f"sqlite:///{database}")
    store.upgrade()
    campaign = tmp_path / "campaign.toml"
    campaign.write_text(TEST_KEEP, encoding="utf-8")
    clock = [START]
    forum = LocalForum(SqlLocalStorage(store), bot="pbp_bot", clock=lambda: clock[0])
    keys = ["t0", "t1", "t2"]
    bot = Bot(
        store=store,
        forum=forum,
        threads=[WatchedThread(key=k, campaign=campaign) for k in keys],
        options=BotOptions(username="pbp_bot", owner="w1", lease=timedelta(minutes=30)),
    )

    def at(minute: int) -> Any:
        clock[0] = START + timedelta(minutes=minute)
        return clock[0]

    for key in keys:
        forum.post(thread=key, author="bob", body="[physical: attack Goblin]", at=at(0))
    bot.poll_once(clock[0])
    try:
        with _recording(store) as sent:
            for minute in range(1, 4):  # rounds in every thread: the rows a poll looks through
                for key in keys:
                    forum.post(thread=key, author="gm_sam", body="!close", at=at(minute))
                    forum.post(
                        thread=key, author="bob", body="[physical: attack Goblin]", at=at(minute)
                    )
                bot.poll_once(clock[0])
            typo = forum.post(thread="t0", author="cara", body="[mentl: attack Goblin]", at=at(5))
            bot.poll_once(clock[0])
            forum.edit(typo.id, body="[mental: attack Goblin]", at=at(6))
            bot.poll_once(clock[0])
            chatter = forum.post(thread="t0", author="dan", body="Out of character: brb", at=at(7))
            bot.poll_once(clock[0])
            forum.delete(chatter.id, at=at(8))
            forum.post(thread="t0", author="gm_sam", body="!close", at=at(8))
            bot.poll_once(clock[0])
    finally:
        store.dispose()
    return database, sent


def _plans(database: Path, sent: list[Statement]) -> dict[str, list[str]]:
    """Each statement's text (its whitespace folded) and its plan's lines."""
    plans: dict[str, list[str]] = {}
    with closing(sqlite3.connect(database)) as conn:
        for text, parameters in sent:
            if text.split()[0].upper() in NOT_PLANNED:
                continue
            rows = conn.execute(f"EXPLAIN QUERY PLAN {text}", parameters).fetchall()
            plans[" ".join(text.split())] = [str(row[3]) for row in rows]
    return plans


def _slow(line: str) -> str | None:
    """What is wrong with one line of a plan, if anything."""
    words = line.split()
    constants = line.endswith("CONSTANT ROWS")  # the VALUES of a many-rows INSERT
    if (
        words[:1] == ["SCAN"]
        and len(words) > 1
        and not words[1].startswith("anon")
        and not constants
    ):
        table = words[1]
        return None if table in SMALL else f"reads {table} whole"
    by_thread_alone = line.endswith("(thread_id=?)")
    if words[:1] == ["SEARCH"] and len(words) > 1 and words[1] in GROWING and by_thread_alone:
        return f"looks {words[1]} up by the thread alone"
    return None


def test_no_statement_of_a_live_poll_reads_a_growing_table_whole(tmp_path: Path) -> None:
    database, sent = _played(tmp_path)
    plans = _plans(database, sent)
    assert len(plans) >= 18  # the poll's reads and writes, the close's, the edit's, the delete's
    problems = [
        f"{why}: {text[:160]}"
        for text, lines in plans.items()
        for line in lines
        if (why := _slow(line)) is not None
    ]
    assert problems == []


def test_the_check_sees_a_lookup_by_thread_alone_and_a_whole_read() -> None:
    assert _slow("SEARCH post_versions USING COVERING INDEX ix (thread_id=?)") is not None
    assert _slow("SEARCH post_versions USING INDEX ix (thread_id=? AND post_id=?)") is None
    assert _slow("SCAN thread_events") is not None
    assert _slow("SCAN workers") is None
    assert _slow("SCAN anon_1") is None
    assert _slow("SEARCH characters USING INDEX ix (thread_id=?)") is None  # the cast: a few
