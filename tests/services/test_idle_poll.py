"""The idle check `pbp poll --once` asks first (``pbp.services.idle_poll``): it says "idle"
only when a full poll would change no row and post nothing, and says so again once a full
poll has nothing left to do.

Every poll here is a cron run's: a new bot under a name of its own (a new process), which
gives its leases back when the poll ends, as `pbp poll --once` does. The check is asked under
the name of the process that would poll next.
"""

from __future__ import annotations

import itertools
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import pytest
from fakes import FlakyForum
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from service_table import BOT, CAMPAIGN, SETUP, THREAD, Table, at

from pbp.forums.base import Forum
from pbp.services.bot import Bot, BotOptions, WatchedThread
from pbp.services.idle_poll import nothing_to_do
from pbp.services.polling import PollReport
from pbp.services.seeds import round_seeds
from pbp.store.database import Store

_names = (f"cron-{n}" for n in itertools.count(1))


def rows(database: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table, in a stable order."""
    with closing(sqlite3.connect(database)) as conn:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {
            t: sorted(map(tuple, conn.execute(f'SELECT * FROM "{t}"')), key=repr) for t in tables
        }


@dataclass
class Probe:
    """What one full poll did: its report and whether any row changed."""

    report: PollReport
    changed_rows: bool

    @property
    def did_something(self) -> bool:
        r = self.report
        busy = r.events or r.delivered or r.errors or r.failed or r.skipped or r.waiting
        return self.changed_rows or bool(busy)


class Cron:
    """`pbp poll --once` run again and again on a table's database."""

    def __init__(self, table: Table, *, threads: tuple[str, ...] = (THREAD,)) -> None:
        self.table = table
        self.database = table.folder / "pbp.db"
        self.threads = threads
        self.next_name = next(_names)

    def idle(self, minute: float) -> bool:
        return nothing_to_do(
            self.database,
            forum="local",
            threads=self.threads,
            owner=self.next_name,
            now=at(minute),
            timeout=10,
        )

    def poll(self, minute: float, *, forum: Forum | None = None) -> Probe:
        """One full poll by the next process; then its name is used up."""
        before = rows(self.database)
        bot = Bot(
            store=self.table.store,
            forum=forum or self.table.forum,
            threads=[WatchedThread(key=k, campaign=self.table.campaign) for k in self.threads],
            options=BotOptions(username=BOT, ack=self.table.ack, owner=self.next_name),
            seed_maker=lambda _t, n: round_seeds("test")(n),
        )
        self.next_name = next(_names)
        try:
            report = bot.poll_once(at(minute))
        finally:
            bot.release_leases()
        return Probe(report=report, changed_rows=rows(self.database) != before)

    def settle(self, minute: float) -> None:
        """Full polls until one does nothing (the bot's own replies move the cursor once)."""
        for _ in range(5):
            if not self.poll(minute).did_something:
                return
        raise AssertionError("the polls never settled")

    def check_at(self, minute: float) -> bool:
        """The check's answer, and a full poll at the same time to hold it to: "idle" must
        mean that poll does nothing, "work" that it does something."""
        idle = self.idle(minute)
        probe = self.poll(minute)
        assert idle != probe.did_something, (idle, probe)
        return idle


@pytest.fixture
def cron(table: Table) -> Cron:
    return Cron(table)


def test_a_fresh_database_has_work_until_a_poll_registers_its_threads(cron: Cron) -> None:
    assert not cron.check_at(0)  # the thread is put in the store, the listing's cursor set
    assert cron.check_at(1)


def test_a_new_post_an_edit_and_a_delete_are_work(cron: Cron, table: Table) -> None:
    cron.settle(0)
    post = table.post("gm_sam", SETUP, 1)
    assert not cron.check_at(2)
    assert not cron.check_at(3)  # the bot's own replies are in the listing: the cursor moves
    assert cron.check_at(4)
    table.edit(post, SETUP + "\nGoblins everywhere.", 5)
    assert not cron.idle(6)
    cron.settle(6)
    assert cron.check_at(7)
    table.delete(post, 8)
    assert not cron.idle(9)
    cron.settle(9)
    assert cron.check_at(10)


def test_a_post_in_a_thread_the_bot_does_not_run_is_work_once(cron: Cron, table: Table) -> None:
    cron.settle(0)
    table.forum.post(thread="elsewhere", author="carol", body="hello", at=at(1))
    assert not cron.check_at(2)  # the listing shows it: the cursor moves past it
    assert cron.check_at(3)


def test_a_deadline_and_a_reminder_coming_due_are_work(cron: Cron, table: Table) -> None:
    table.post("gm_sam", SETUP + "\n!deadline 4h", 0)
    table.post("alice", "[physical: attack Goblin]", 1)
    cron.settle(2)
    assert cron.check_at(119)
    assert not cron.idle(120)  # half time: the reminder falls due
    assert not cron.check_at(121)
    cron.settle(122)
    assert cron.check_at(239)
    assert not cron.check_at(240)  # the deadline: the round closes
    cron.settle(241)
    assert cron.check_at(242)


def test_a_reply_waiting_for_a_retry_is_work_and_a_failed_one_is_not(
    cron: Cron, table: Table
) -> None:
    cron.settle(0)
    flaky = FlakyForum(table.forum)
    table.post("gm_sam", SETUP, 1)
    flaky.fail_next("reply", times=20)  # the forum is down for a while
    probe = cron.poll(2, forum=flaky)
    assert probe.report.waiting  # the replies stay owed
    assert not cron.idle(3)
    probe = cron.poll(3, forum=flaky)
    assert probe.report.waiting
    flaky = FlakyForum(table.forum)
    flaky.fail_next("reply", temporary=False, message="refused")
    cron.poll(4, forum=flaky)
    cron.settle(5)
    with closing(sqlite3.connect(cron.database)) as conn:
        statuses = {s for (s,) in conn.execute("SELECT status FROM replies")}
    assert "failed" in statuses  # given up on: no poll sends it again
    assert cron.check_at(6)


def test_an_edited_campaign_file_waits_for_the_threads_next_work(cron: Cron, table: Table) -> None:
    table.post("gm_sam", SETUP, 0)
    cron.settle(1)
    table.campaign.write_text(
        CAMPAIGN + '\n[[characters]]\nname = "Orc"\nbody = 4\nmind = 1\n', encoding="utf-8"
    )
    assert cron.check_at(2)  # a full poll reads the file only for a thread with work
    table.post("gm_sam", "!group Orc", 3)
    assert not cron.check_at(4)


def test_a_thread_added_to_the_config_is_work(table: Table) -> None:
    Cron(table).settle(0)
    assert Cron(table).idle(1)
    two = Cron(table, threads=(THREAD, "keep-2"))
    assert not two.check_at(2)
    assert two.check_at(3)
    assert Cron(table).check_at(4)  # taken out again: left alone


def test_another_workers_thread_with_work_is_work(cron: Cron, table: Table) -> None:
    cron.settle(0)
    table.post("gm_sam", SETUP, 1)
    table.poll(2)  # a running bot (`pbp run`, worker w1) holds the thread
    table.post("alice", "[physical: attack Goblin]", 3)
    probe = cron.poll(4)  # the listing is read; the thread is w1's
    assert probe.report.skipped
    assert not cron.idle(5)  # the full poll would say it is skipped
    table.poll(6)
    cron.settle(7)
    assert cron.check_at(8)  # w1 holds its lease, but nothing is to do


def test_a_worker_row_or_lease_under_the_pollers_own_name_is_work(cron: Cron, table: Table) -> None:
    table.post("gm_sam", SETUP, 0)
    cron.settle(1)
    table.poll(2, bot=table.restart(owner=cron.next_name))  # a dead process of that name
    assert not cron.check_at(3)  # renewed, then let go at the end
    assert cron.check_at(4)


def test_a_thread_the_forum_was_not_asked_about_is_work(cron: Cron, table: Table) -> None:
    flaky = FlakyForum(table.forum)
    flaky.fail_next("survey")
    probe = cron.poll(0, forum=flaky)
    assert probe.report.errors  # the thread stays to be surveyed
    assert not cron.check_at(1)
    assert cron.check_at(2)


def test_a_database_not_migrated_or_at_another_revision_is_work(tmp_path: Path) -> None:
    def idle(database: Path) -> bool:
        return nothing_to_do(
            database, forum="local", threads=[THREAD], owner="cron", now=at(0), timeout=10
        )

    assert not idle(tmp_path / "none.db")  # a fresh folder
    (tmp_path / "empty.db").touch()
    assert not idle(tmp_path / "empty.db")
    sqlite3.connect(tmp_path / "other.db").execute("CREATE TABLE t (x)").connection.close()
    assert not idle(tmp_path / "other.db")
    Store(f"sqlite:///{tmp_path / 'old.db'}").upgrade()
    with closing(sqlite3.connect(tmp_path / "old.db")) as conn, conn:
        conn.execute("UPDATE alembic_version SET version_num = '0007'")
    assert not idle(tmp_path / "old.db")


def test_a_file_not_in_wal_mode_is_work(cron: Cron, table: Table) -> None:
    cron.settle(0)
    table.store.dispose()
    with closing(sqlite3.connect(cron.database)) as conn:
        assert conn.execute("PRAGMA journal_mode=DELETE").fetchone() == ("delete",)
    assert not cron.idle(1)  # the full poll puts it back in WAL mode
    cron.settle(1)
    assert cron.check_at(2)


def test_only_the_local_forum_in_an_sqlite_file_is_checked(cron: Cron) -> None:
    cron.settle(0)
    assert cron.idle(1)
    kwargs = {"threads": [THREAD], "owner": "cron", "now": at(1), "timeout": 10}
    assert not nothing_to_do(cron.database, forum="reddit", **kwargs)  # type: ignore[arg-type]
    assert not nothing_to_do(None, forum="local", **kwargs)  # type: ignore[arg-type]


def test_the_check_writes_nothing(cron: Cron) -> None:
    cron.settle(0)
    before = rows(cron.database)
    assert cron.idle(1)
    assert rows(cron.database) == before


def test_an_aware_time_is_needed(cron: Cron) -> None:
    cron.settle(0)
    naive = datetime(2026, 11, 29, 12, 0)
    assert not nothing_to_do(
        cron.database, forum="local", threads=[THREAD], owner="cron", now=naive, timeout=10
    )


# -- whatever happened before: "idle" means the full poll does nothing -------------------------

BODIES = (
    SETUP,
    SETUP + "\n!deadline 2h",
    "Aria swings. [physical: attack Goblin]",
    "Bram thinks. [mental: atack Goblin]",  # a typo: a problem reply
    "!close",
    "!status",
    "Just talking.",
)
AUTHORS = ("gm_sam", "alice", "bob")
ACTIONS = st.one_of(
    st.tuples(st.just("post"), st.sampled_from(AUTHORS), st.sampled_from(BODIES)),
    st.tuples(st.just("edit"), st.integers(0, 5), st.sampled_from(BODIES)),
    st.tuples(st.just("delete"), st.integers(0, 5)),
    st.tuples(st.just("wait"), st.integers(1, 150)),
    st.tuples(st.just("elsewhere"), st.sampled_from(("hello", "!campaign Test Keep"))),
    st.tuples(st.just("running bot polls"), st.booleans()),
    st.tuples(st.just("forum down"), st.booleans()),
    st.tuples(st.just("campaign edited"), st.integers(1, 9)),
)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(ACTIONS, min_size=1, max_size=8))
def test_after_anything_idle_means_the_full_poll_does_nothing(
    tmp_path_factory: pytest.TempPathFactory, actions: list[tuple[object, ...]]
) -> None:
    table = Table(tmp_path_factory.mktemp("idle"))
    cron = Cron(table)
    posts: list[str] = []
    minute = 0.0
    for action in actions:
        minute += 1
        forum = None
        match action:
            case ("post", str(author), str(body)):
                posts.append(table.post(author, body, minute))
            case ("edit", int(n), str(body)) if posts:
                table.edit(posts[n % len(posts)], body, minute)
            case ("delete", int(n)) if posts:
                table.delete(posts.pop(n % len(posts)), minute)
            case ("wait", int(minutes)):
                minute += minutes
            case ("elsewhere", str(body)):
                table.forum.post(
                    thread=f"other-{minute}", author="gm_sam", body=body, at=at(minute)
                )
            case ("running bot polls", bool(release)):
                table.poll(minute)
                if release:
                    table.bot.release_leases()
            case ("forum down", bool(temporary)):
                forum = FlakyForum(table.forum)
                forum.fail_next("reply", times=3, temporary=temporary)
                forum.fail_next("send_private", times=3, temporary=temporary)
            case ("campaign edited", int(body)):
                table.campaign.write_text(CAMPAIGN.replace("body = 5", f"body = {body}"))
        minute += 0.5
        idle = cron.idle(minute)
        probe = cron.poll(minute, forum=forum)
        assert not (idle and probe.did_something), (action, probe)
        if forum is None:  # the check is exact: "work" means the full poll does something
            assert idle or probe.did_something, (action, probe)
    table.store.dispose()


def test_a_write_lock_not_had_in_time_leaves_it_to_the_full_poll(cron: Cron) -> None:
    cron.settle(0)
    with closing(sqlite3.connect(cron.database, isolation_level=None)) as writer:
        writer.execute("BEGIN IMMEDIATE")  # `pbp post` or another worker, mid-write
        assert not nothing_to_do(
            cron.database, forum="local", threads=[THREAD], owner="cron", now=at(1), timeout=0.1
        )
        writer.execute("ROLLBACK")
    assert cron.idle(1)
