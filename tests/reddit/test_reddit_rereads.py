"""Re-reads batched across threads: real praw, the fake Reddit on its own clock, the whole bot.

Reddit's listing shows no edits, so the open rounds' posts are read again through
``/api/info`` before a close and, now and then, when they got an error reply. However many
threads need it in one poll, their posts go in the same requests, 100 a request.
"""

from __future__ import annotations

import itertools
from datetime import UTC, datetime
from pathlib import Path

import praw
import pytest
from fake_reddit import FakeReddit, SleepRecorder, praw_settings
from sample_campaigns import TEST_KEEP

from pbp.forums.reddit import RedditForum, key_of
from pbp.services.bot import Bot, BotOptions, PollReport, WatchedThread
from pbp.store.database import Store

pytestmark = pytest.mark.slow

SUB = "MyPbPGame"
BOT = "pbp_bot"


class Tables:
    """Many submissions of one campaign, run by one bot; the fake's clock is the bot's."""

    def __init__(self, folder: Path, fake: FakeReddit, threads: int, ack: str = "errors") -> None:
        self.fake = fake
        fake.add_subreddit(SUB)
        fake.set_time(1_800_000_000.0)
        self.threads = [fake.add_submission(SUB, "gm_sam", f"scene {n}") for n in range(threads)]
        campaign = folder / "campaign.toml"
        campaign.write_text(TEST_KEEP, encoding="utf-8")
        store = Store(f"sqlite:///{folder / 'pbp.db'}")
        store.upgrade()
        forum = RedditForum(
            praw.Reddit(**praw_settings(fake)), subreddits=[SUB], bot=BOT, clock=fake.now
        )
        self.bot = Bot(
            store=store,
            forum=forum,
            threads=[WatchedThread(key=t, campaign=campaign) for t in self.threads],
            options=BotOptions(username=BOT, owner="w1", ack=ack),
        )

    def everywhere(self, author: str, body: str) -> list[str]:
        """``author`` comments ``body`` in every thread; the comments' ids, thread by thread."""
        self.fake.advance(5)
        return [self.fake.add_comment(author, f"t3_{t}", body) for t in self.threads]

    def poll(self) -> PollReport:
        self.fake.advance(60)
        self.fake.clear_log()
        report = self.bot.poll_once(datetime.fromtimestamp(self.fake.now(), UTC))
        assert report.errors == [] and report.failed == []
        return report

    def rereads(self) -> int:
        return self.fake.requests_to("/api/info")


@pytest.fixture
def tables(tmp_path: Path, fake_reddit: FakeReddit) -> Tables:
    return Tables(tmp_path, fake_reddit, threads=150)


def test_rounds_closing_in_150_threads_at_once_are_read_again_in_two_requests(
    tables: Tables,
    no_sleep: SleepRecorder,
) -> None:
    attacks = tables.everywhere("alice", "Aria hesitates. [mental: attack Bram]")
    tables.poll()
    tables.poll()  # the cheat sheets are behind
    for attack in attacks:  # changed her mind in every thread; no listing shows it
        tables.fake.edit_comment(attack, "Aria glares. [mental: attack Goblin]")
    tables.everywhere("gm_sam", "!close")

    tables.poll()

    # each thread's open round: its opening post and Aria's (the `!close` is in the
    # listing): 300 posts, 100 a request
    assert tables.rereads() == 3
    summaries = [
        c.body for c in tables.fake.comments_by(BOT) if not c.gone and key_of(c.body) == "summary-1"
    ]
    assert len(summaries) == 150
    assert all("mental attack → Goblin" in s and "→ Bram" not in s for s in summaries)


def test_typos_fixed_in_150_threads_are_read_again_together_and_confirmed(
    tables: Tables,
    no_sleep: SleepRecorder,
) -> None:
    tables.everywhere("gm_sam", "!group Aria, Bram, Goblin")
    typos = tables.everywhere("bob", "Bram thinks. [mentl: attack Goblin]")
    tables.poll()
    tables.poll()
    for typo in typos:
        tables.fake.edit_comment(typo, "Bram thinks. [mental: attack Goblin]")

    asked = []
    for _ in range(16):  # a quarter of an hour of polls
        tables.poll()
        asked.append(tables.rereads())

    # every thread's post read again in the same two requests, after five minutes and ten
    # (a reply saying "fixed" is one an edit could make untrue again)
    assert [n for n in asked if n] == [2, 2]
    answers = [
        c for c in tables.fake.comments_by(BOT) if (key_of(c.body) or "").startswith("problems-")
    ]
    assert len(answers) == 150 and all("mentl" not in c.body for c in answers)


def test_a_quiet_table_with_a_typo_is_read_again_less_and_less_often(
    tmp_path: Path,
    fake_reddit: FakeReddit,
    no_sleep: SleepRecorder,
) -> None:
    one = Tables(tmp_path, fake_reddit, threads=1)
    one.everywhere("bob", "Bram thinks. [mentl: attack Goblin]")
    one.poll()
    reads = []
    for _minute in range(8 * 60):  # eight hours, nobody fixes it
        one.poll()
        if one.rereads():
            reads.append(_minute)
    gaps = [b - a for a, b in itertools.pairwise(reads)]
    assert 6 <= len(reads) <= 10  # not every five minutes (that would be 96)
    assert gaps == sorted(gaps) and gaps[-1] <= 4 * 60 + 10  # backing off, to four hours


def test_a_close_whose_batched_reread_failed_is_read_again_by_its_own_thread(
    tmp_path: Path,
    fake_reddit: FakeReddit,
    no_sleep: SleepRecorder,
) -> None:
    two = Tables(tmp_path, fake_reddit, threads=2)
    attacks = two.everywhere("alice", "Aria hesitates. [mental: attack Bram]")
    two.poll()
    two.poll()
    for attack in attacks:
        fake_reddit.edit_comment(attack, "Aria glares. [mental: attack Goblin]")
    two.everywhere("gm_sam", "!close")
    fake_reddit.inject("GET", "/api/info", "500", times=3)  # the batch fails, retries and all

    fake_reddit.advance(60)
    report = two.bot.poll_once(datetime.fromtimestamp(fake_reddit.now(), UTC))

    assert any("could not read" in e for e in report.errors)
    summaries = [c.body for c in fake_reddit.comments_by(BOT) if key_of(c.body) == "summary-1"]
    assert len(summaries) == 2
    assert all("mental attack → Goblin" in s for s in summaries)


def test_a_confirmation_an_edit_made_false_on_reddit_is_edited_into_the_error_before_the_close(
    tmp_path: Path,
    fake_reddit: FakeReddit,
    no_sleep: SleepRecorder,
) -> None:
    one = Tables(tmp_path, fake_reddit, threads=1, ack="all")
    [post] = one.everywhere("alice", "Aria glares. [mental: attack Goblin]")
    one.poll()
    [confirmed] = [c for c in fake_reddit.comments_by(BOT) if c.parent_id == f"t1_{post}"]
    fake_reddit.edit_comment(post, "Aria glares. [mentl: attack Goblin]")  # no listing shows it

    for _ in range(15):  # within a quarter of an hour the post is read again
        one.poll()

    [reply] = [c for c in fake_reddit.comments_by(BOT) if c.parent_id == f"t1_{post}"]
    assert reply.id == confirmed.id and "mentl" in reply.body  # the one reply, now the error
