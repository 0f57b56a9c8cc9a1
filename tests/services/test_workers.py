"""Several workers on one database (SPEC §9), in one process: each takes the threads with work
up to its share of the live workers, gives idle ones up when a new worker comes, and a post
read by one worker's listing is answered by the worker that runs its thread."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sample_campaigns import TEST_KEEP
from sqlalchemy import func, select

from pbp.forums.local import LocalForum
from pbp.services.bot import Bot, BotOptions, WatchedThread
from pbp.store.database import Store
from pbp.store.local_posts import SqlLocalStorage
from pbp.store.schema import ThreadRow

START = datetime(2026, 11, 29, 10, 0, tzinfo=UTC)
THREADS = [f"t{i}" for i in range(20)]


class Site:
    """20 threads of the local forum in one SQLite file; workers are bots on it."""

    def __init__(self, folder: Path) -> None:
        self.campaign = folder / "campaign.toml"
        self.campaign.write_text(TEST_KEEP, encoding="utf-8")
        self.store = Store(f"sqlite:///{folder / 'pbp.db'}")
        self.store.upgrade()
        self.now = START
        self.forum = LocalForum(SqlLocalStorage(self.store), bot="pbp_bot", clock=lambda: self.now)

    def worker(self, name: str, *, alive: set[str] | None = None) -> Bot:
        options = BotOptions(username="pbp_bot", owner=name, lease=timedelta(minutes=10))
        if alive is not None:
            options = BotOptions(
                username="pbp_bot",
                owner=name,
                lease=timedelta(minutes=10),
                owner_alive=alive.__contains__,
            )
        return Bot(
            store=self.store,
            forum=self.forum,
            threads=[WatchedThread(key=t, campaign=self.campaign) for t in THREADS],
            options=options,
        )

    def typo_everywhere(self) -> list[str]:
        self.now += timedelta(minutes=1)
        return [
            self.forum.post(
                thread=t, author="bob", body="[phisical: attack Goblin]", at=self.now
            ).id
            for t in THREADS
        ]

    def poll(self, bot: Bot) -> None:
        self.now += timedelta(minutes=1)
        report = bot.poll_once(self.now)
        assert report.errors == [] and report.failed == []

    def held(self) -> dict[str | None, int]:
        with self.store.session() as s:
            rows = s.execute(
                select(ThreadRow.lease_owner, func.count()).group_by(ThreadRow.lease_owner)
            ).all()
        return {owner: n for owner, n in rows}

    def answers(self) -> Counter[str | None]:
        return Counter(
            p.reply_to
            for t in THREADS
            for p in self.forum.thread(t)
            if p.author == "pbp_bot" and p.reply_to is not None
        )


def test_a_new_worker_gets_its_share_and_the_first_gives_idle_threads_up(
    tmp_path: Path,
) -> None:
    site = Site(tmp_path)
    first = site.worker("w1")
    typos = site.typo_everywhere()
    site.poll(first)
    assert site.held() == {"w1": 20}  # alone, it runs them all
    second = site.worker("w2")
    site.poll(second)  # nothing to do yet, but it is alive now
    site.poll(first)
    assert site.held() == {"w1": 10, None: 10}  # half of them, idle, given up
    typos += site.typo_everywhere()
    site.poll(first)
    site.poll(second)
    assert site.held() == {"w1": 10, "w2": 10}
    assert site.answers() == Counter(dict.fromkeys(typos, 1))  # each once, by either worker


def test_a_post_one_worker_listed_is_answered_by_the_worker_that_runs_its_thread(
    tmp_path: Path,
) -> None:
    site = Site(tmp_path)
    first, second = site.worker("w1"), site.worker("w2")
    typos = site.typo_everywhere()
    site.poll(first)
    later = site.typo_everywhere()
    site.poll(second)  # its listing reads them all; w1 runs every thread
    site.poll(first)
    assert site.answers() == Counter(dict.fromkeys(typos + later, 1))


def test_a_dead_workers_threads_go_to_the_live_one_at_once(tmp_path: Path) -> None:
    site = Site(tmp_path)
    alive = {"w1", "w2"}
    first, second = site.worker("w1", alive=alive), site.worker("w2", alive=alive)
    site.typo_everywhere()
    site.poll(first)
    alive.discard("w1")  # killed: its leases have not expired yet
    typos = site.typo_everywhere()
    site.poll(second)
    assert site.held() == {"w2": 20}
    assert all(site.answers()[t] == 1 for t in typos)
