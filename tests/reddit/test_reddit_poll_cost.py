"""What a poll costs on Reddit, counted in requests to the fake Reddit through real praw: an
idle poll and the first poll of a new process are one listing (and a token); a thread is read
from its comment tree only when the store cannot account for its comments."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import praw
import pytest
from fake_reddit import FakeReddit, praw_settings
from sample_campaigns import TEST_KEEP

from pbp.forums.reddit import RedditForum, key_of
from pbp.services.bot import Bot, BotOptions, WatchedThread
from pbp.store.database import Store

pytestmark = pytest.mark.slow

SUB = "MyPbPGame"


class Site:
    """Submissions on the fake Reddit and a SQLite store; ``bot()`` is a new process's bot."""

    def __init__(self, folder: Path, fake: FakeReddit, threads: int) -> None:
        self.fake = fake
        fake.add_subreddit(SUB)
        self.campaign = folder / "campaign.toml"
        self.campaign.write_text(TEST_KEEP, encoding="utf-8")
        self.threads = [fake.add_submission(SUB, "gm_sam", f"scene {i}") for i in range(threads)]
        self.store = Store(f"sqlite:///{folder / 'pbp.db'}")
        self.store.upgrade()
        self.workers = 0

    def bot(self) -> Bot:
        """The bot as a new process makes it: a new praw session, a new worker name."""
        self.workers += 1
        forum = RedditForum(
            praw.Reddit(**praw_settings(self.fake)), subreddits=[SUB], bot="pbp_bot"
        )
        return Bot(
            store=self.store,
            forum=forum,
            threads=[WatchedThread(key=t, campaign=self.campaign) for t in self.threads],
            options=BotOptions(username="pbp_bot", owner=f"w{self.workers}"),
        )

    def poll(self, bot: Bot) -> Counter[str]:
        """Poll once; return the requests it made, by path (``/comments/`` for any tree)."""
        self.fake.clear_log()
        report = bot.poll_once(datetime.now(UTC))
        assert report.errors == [] and report.failed == []
        return Counter(_kind(r.path) for r in self.fake.requests)

    def replies(self) -> Counter[str]:
        """The bot's comments by key (a key is once per thread: cheat sheets add up)."""
        return Counter(key_of(c.body) or "" for c in self.fake.comments_by("pbp_bot"))

    def doubled(self) -> list[tuple[str, str]]:
        """(thread, key) of any reply posted twice in a thread."""
        keys = Counter((c.link_id, key_of(c.body) or "") for c in self.fake.comments_by("pbp_bot"))
        return [k for k, n in keys.items() if n > 1]


def _kind(path: str) -> str:
    path = path.split("?")[0]
    if path.startswith("/comments/"):
        return "/comments/"
    return path.rstrip("/") + "/"


@pytest.fixture
def site(tmp_path: Path, fake_reddit: FakeReddit) -> Site:
    return Site(tmp_path, fake_reddit, threads=200)


def test_an_idle_poll_of_200_threads_is_one_request_and_a_restart_adds_only_its_token(
    site: Site,
) -> None:
    for thread in site.threads[:5]:
        site.fake.add_comment("alice", f"t3_{thread}", "[physical: attack Goblin]")
    bot = site.bot()
    first = site.poll(bot)
    assert first["/comments/"] == 0  # the listing reached every comment: no tree is read
    assert first["/api/info/"] == 2  # 200 new threads asked about, 100 a request
    assert site.replies()["cheatsheet"] == 200
    site.poll(bot)  # pages back through the 200 cheat sheets it posted
    assert site.poll(bot) == Counter({f"/r/{SUB}/comments/": 1})
    bot.release_leases()  # the process stops
    restarted = site.bot()  # a new one starts: no thread is read again
    assert site.poll(restarted) == Counter({"/api/v1/access_token/": 1, f"/r/{SUB}/comments/": 1})
    assert site.poll(restarted) == Counter({f"/r/{SUB}/comments/": 1})


def test_a_restart_after_new_comments_reads_them_from_the_listing_only(site: Site) -> None:
    bot = site.bot()
    site.poll(bot)
    site.poll(bot)
    bot.release_leases()  # the process stops; comments come in meanwhile
    typos = [
        site.fake.add_comment("bob", f"t3_{t}", "[phisical: attack Goblin]")
        for t in site.threads[:3]
    ]
    asked = site.poll(site.bot())
    assert asked["/comments/"] == 0 and asked["/api/info/"] == 0
    assert all(site.replies()[f"problems-{t}"] == 1 for t in typos)


def test_a_new_thread_with_comments_the_listing_never_showed_is_read_whole_alone(
    tmp_path: Path, fake_reddit: FakeReddit
) -> None:
    site = Site(tmp_path, fake_reddit, threads=3)
    old, new = site.threads[0], site.threads[1]
    early = [
        fake_reddit.add_comment("bob", f"t3_{old}", f"[phisical: attack Goblin] {i}")
        for i in range(120)
    ]  # more than the first page of the listing holds
    fake_reddit.add_comment("alice", f"t3_{new}", "[pass]")
    asked = site.poll(site.bot())
    assert asked["/comments/"] == 1  # only the thread whose comments the listing missed
    assert all(site.replies()[f"problems-{c}"] == 1 for c in early)


def test_the_first_poll_of_a_thousand_fresh_threads_reads_no_tree_nor_does_the_next(
    tmp_path: Path, fake_reddit: FakeReddit
) -> None:
    site = Site(tmp_path, fake_reddit, threads=1000)
    bot = site.bot()
    first = site.poll(bot)
    assert first["/comments/"] == 0
    assert first["/api/info/"] == 10  # what 1,000 threads hold: 100 a request
    assert site.replies()["cheatsheet"] == 1000
    # 1,000 cheat sheets fill Reddit's whole listing: the gap is checked with the same
    # ten requests, and every thread is accounted for
    after = site.poll(bot)
    assert after["/comments/"] == 0 and after["/api/info/"] == 10
    assert site.poll(bot) == Counter({f"/r/{SUB}/comments/": 1})
    assert site.doubled() == []
