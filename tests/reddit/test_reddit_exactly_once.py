"""Exactly once however busy the bot is: a reply whose send reached Reddit but whose answer was
lost is found again on the retry, wherever it is, after hundreds of other bot comments.

Real praw against the fake Reddit, the real store and the whole bot. The first send of the
reply commits on Reddit and then its answer never comes (``commit_then_timeout``): the bot
cannot tell whether Reddit took it. Before the retry, the bot's account posts hundreds of other
comments (in the same thread and in another, as a second client of the account or a busy bot
does), then the bot polls again. A search among the account's newest 100 comments would miss
the first copy and post it twice; the search where the reply would be finds it.
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import praw
import pytest
from fake_reddit import FakeReddit, praw_settings

from pbp.forums.reddit import RedditForum, key_of
from pbp.services.bot import Bot, BotOptions, PollReport, WatchedThread
from pbp.store.database import Store

SUB = "MyPbPGame"
BOT = "pbp_bot"
CAMPAIGN = """
[campaign]
name = "Busy Keep"
gms = ["gm_sam"]
visibility = "hide-npcs"

[[characters]]
name = "Aria"
player = "alice"
body = 5
mind = 3

[[characters]]
name = "Bram"
player = "bob"
body = 3
mind = 4

[[characters]]
name = "Goblin"
body = 3
mind = 1
"""


class BusyTable:
    """Two submissions, A and B, run by one bot; the account also comments from elsewhere."""

    def __init__(self, folder: Path, fake: FakeReddit) -> None:
        self.fake = fake
        fake.add_subreddit(SUB)
        self.a = fake.add_submission(SUB, "gm_sam", "The Busy Keep, scene A")
        self.b = fake.add_submission(SUB, "gm_sam", "The Busy Keep, scene B")
        self.elsewhere = fake.add_submission("OtherTable", "gm_kim", "Another bot's table")
        campaign = folder / "busy.toml"
        campaign.write_text(CAMPAIGN, encoding="utf-8")
        self.store = Store(f"sqlite:///{folder / 'pbp.db'}")
        self.store.upgrade()
        forum = RedditForum(
            praw.Reddit(**praw_settings(fake)), subreddits=[SUB], bot=BOT, clock=fake.now
        )  # the bot's clock is the fake's
        self.bot = Bot(
            store=self.store,
            forum=forum,
            threads=[WatchedThread(key=t, campaign=campaign) for t in (self.a, self.b)],
            options=BotOptions(username=BOT, owner="w1"),
        )

    def comment(self, author: str, thread: str, body: str) -> str:
        self.fake.advance(30)
        return self.fake.add_comment(author, f"t3_{thread}", body)

    def poll(self) -> PollReport:
        self.fake.advance(60)
        return self.bot.poll_once(datetime.fromtimestamp(self.fake.now(), UTC))

    def opened(self) -> None:
        """Both threads read once (their cheat sheets posted)."""
        for thread in (self.a, self.b):
            self.comment("gm_sam", thread, "Goblins!\n!group Aria, Bram, Goblin")
        assert self.poll().errors == []

    def busy(self, comments: int, *, threads: tuple[str, ...] = ()) -> None:
        """The account comments ``comments`` times in ``threads`` (by turns; A and B by
        default), from another client: every one newer than the lost reply."""
        threads = threads or (self.a, self.b)
        for n in range(comments):
            thread = threads[n % len(threads)]
            self.fake.advance(1)
            self.fake.add_comment(BOT, f"t3_{thread}", f"Elsewhere, note {n}.\n\n[](#pbp:note-{n})")

    def keys_in(self, thread: str) -> Counter[str]:
        return Counter(
            key_of(c.body) or ""
            for c in self.fake.comments_in(thread)
            if c.author == BOT and not c.gone
        )


@pytest.fixture
def busy(tmp_path: Path, fake_reddit: FakeReddit) -> BusyTable:
    return BusyTable(tmp_path, fake_reddit)


def _lost_then_retried(
    busy: BusyTable, path: str, *, others: int, threads: tuple[str, ...] = ()
) -> PollReport:
    """The next send to ``path`` commits and loses its answer; ``others`` bot comments later,
    the retry."""
    busy.fake.inject("POST", path, "commit_then_timeout")
    failed = busy.poll()
    assert failed.waiting, "the lost answer should leave the reply waiting"
    busy.busy(others, threads=threads)
    busy.fake.clear_log()
    return busy.poll()


def test_a_reply_to_a_post_whose_answer_was_lost_is_posted_once_after_300_bot_comments(
    busy: BusyTable,
    short_timeout: float,
) -> None:
    busy.opened()
    typo = busy.comment("bob", busy.a, "Bram mutters. [mentl: attack Goblin]")

    retried = _lost_then_retried(busy, "/api/comment", others=300)

    assert retried.errors == [] and retried.waiting == []
    answers = [
        c
        for c in busy.fake.comments_in(busy.a)
        if c.author == BOT and c.parent_id == f"t1_{typo}" and not c.gone
    ]
    assert [key_of(c.body) for c in answers] == [f"problems-{typo}"]


def test_a_summary_whose_answer_was_lost_is_posted_once_after_300_bot_comments(
    busy: BusyTable,
    short_timeout: float,
) -> None:
    busy.opened()
    busy.comment("alice", busy.a, "Aria swings. [physical: attack Goblin]")
    busy.comment("gm_sam", busy.a, "!close")

    retried = _lost_then_retried(busy, "/api/comment", others=300)

    assert retried.errors == [] and retried.waiting == []
    assert busy.keys_in(busy.a)["summary-1"] == 1


def test_a_summary_lost_before_more_bot_comments_than_reddit_lists_is_still_posted_once(
    busy: BusyTable,
    short_timeout: float,
) -> None:
    busy.opened()
    busy.comment("alice", busy.a, "Aria swings. [physical: attack Goblin]")
    busy.comment("gm_sam", busy.a, "!close")

    # Reddit lists no more than 1,000 of the account's comments: the search goes on in the
    # thread itself, among its newest top-level comments (the other comments are in another
    # subreddit: the bot's own listing has no gap that would make it read the thread whole)
    retried = _lost_then_retried(busy, "/api/comment", others=1_200, threads=(busy.elsewhere,))

    assert retried.errors == [] and retried.waiting == []
    assert busy.keys_in(busy.a)["summary-1"] == 1
    assert busy.fake.requests_to(f"/comments/{busy.a}") == 1  # the thread's newest comments


def test_a_private_message_whose_answer_was_lost_is_sent_once_after_300_other_messages(
    busy: BusyTable,
    short_timeout: float,
) -> None:
    busy.opened()
    busy.comment("alice", busy.a, "Aria swings. [physical: attack Goblin]")
    busy.comment("gm_sam", busy.a, "!close")  # hide-npcs: the GM gets the summary in full
    busy.fake.inject("POST", "/api/compose", "commit_then_timeout")
    failed = busy.poll()
    assert failed.waiting, "the lost answer should leave the message waiting"
    for n in range(300):  # the account's other messages, every one newer
        busy.fake.advance(1)
        busy.fake.add_message(
            BOT, f"player{n % 7}", "Your sheet", f"Aria\n\n[](#pbp:{busy.b}/private-x-{n})"
        )

    retried = busy.poll()

    assert retried.errors == [] and retried.waiting == []
    copies = [m for m in busy.fake.messages_to("gm_sam") if "summary-1" in (key_of(m.body) or "")]
    assert len(copies) == 1
    assert busy.keys_in(busy.a)["summary-1"] == 1
