"""The bot on Reddit with its store on PostgreSQL, which enforces what SQLite lets by: column
lengths (the listing's cursor grows with every comment seen) and text (no NUL)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import praw
import pytest
from fake_reddit import FakeReddit, praw_settings
from sample_campaigns import TEST_KEEP

from pbp.forums.reddit import RedditForum, key_of
from pbp.services.bot import Bot, BotOptions, PollReport, WatchedThread
from pbp.store.database import Store

SUB = "MyPbPGame"
pytestmark = pytest.mark.postgres


class PgTable:
    """A submission on the fake Reddit, run by a bot whose store is on PostgreSQL."""

    def __init__(self, folder: Path, fake: FakeReddit, url: str) -> None:
        self.fake = fake
        fake.add_subreddit(SUB)
        self.thread = fake.add_submission(SUB, "gm_sam", "The Sunken Keep")
        campaign = folder / "campaign.toml"
        campaign.write_text(TEST_KEEP, encoding="utf-8")
        self.store = Store(url)
        self.store.upgrade()
        forum = RedditForum(
            praw.Reddit(**praw_settings(fake)), subreddits=[SUB], bot="pbp_bot", clock=fake.now
        )  # the bot's clock is the fake's
        self.bot = Bot(
            store=self.store,
            forum=forum,
            threads=[WatchedThread(key=self.thread, campaign=campaign)],
            options=BotOptions(username="pbp_bot", owner="w1"),
        )

    def comment(self, author: str, body: str) -> str:
        self.fake.advance(10)
        return self.fake.add_comment(author, f"t3_{self.thread}", body)

    def poll(self) -> PollReport:
        self.fake.advance(10)
        report = self.bot.poll_once(datetime.fromtimestamp(self.fake.now(), UTC))
        assert report.errors == [] and report.failed == []
        return report

    def replies_to(self, comment: str) -> list[str]:
        return [
            key_of(c.body) or ""
            for c in self.fake.comments_by("pbp_bot")
            if c.parent_id == f"t1_{comment}"
        ]


@pytest.fixture
def pg_table(tmp_path: Path, fake_reddit: FakeReddit, postgres_database: Any) -> Iterator[PgTable]:
    postgres_database.reset()
    table = PgTable(tmp_path, fake_reddit, postgres_database.url)
    try:
        yield table
    finally:
        table.store.dispose()


def test_three_hundred_comments_then_a_close_get_their_summary(pg_table: PgTable) -> None:
    table = pg_table
    table.comment("gm_sam", "!group Aria, Bram, Goblin")
    for i in range(300):
        author, body = [("alice", "Aria circles."), ("bob", f"Bram waits ({i}).")][i % 2]
        table.comment(author, body)
        if i % 60 == 59:
            table.poll()  # the cursor remembers every id seen: far more than 200 characters
    table.comment("alice", "[physical: attack Goblin]")
    close = table.comment("gm_sam", "!close")
    table.poll()
    assert table.replies_to(close) == ["summary-1"]
    keys = Counter((c.link_id, key_of(c.body)) for c in table.fake.comments_by("pbp_bot"))
    assert max(keys.values()) == 1


def test_a_comment_with_nul_and_a_lone_surrogate_is_answered(pg_table: PgTable) -> None:
    table = pg_table
    table.comment("gm_sam", "!group Aria, Bram, Goblin")
    table.poll()
    broken = table.comment("bob", "Bram\x00 swings. [phisical: attack Goblin] \ud800")
    table.poll()
    assert table.replies_to(broken) == [f"problems-{broken}"]
    close = table.comment("gm_sam", "!close")
    table.poll()
    assert table.replies_to(close) == ["summary-1"]  # and the thread goes on
