"""Reddit's rate-limit answers pace the bot: real praw against the fake Reddit.

The forum's clock is a test's (``Seconds``); prawcore's own short paces are recorded, not slept
(``no_sleep``). A held call raises a temporary ``ForumError`` and sends nothing: the fake's
request log shows it.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import praw
import pytest
from fake_reddit import FakeReddit, SleepRecorder, praw_settings
from sample_campaigns import TEST_KEEP

from pbp.errors import ForumError
from pbp.forums.reddit import RedditForum
from pbp.forums.reddit_pacing import LONGEST_PACE
from pbp.services.bot import Bot, BotOptions, WatchedThread
from pbp.store.database import Store

SUB = "MyPbPGame"
BOT = "pbp_bot"


class Seconds:
    """A clock in seconds that moves only when told."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Seconds:
    return Seconds()


@pytest.fixture
def forum(reddit: praw.Reddit, fake_reddit: FakeReddit, clock: Seconds) -> RedditForum:
    fake_reddit.add_subreddit(SUB)
    return RedditForum(reddit, subreddits=[SUB], bot=BOT, clock=clock)


def _every_kind_of_call(forum: RedditForum, thread: str, post: str) -> None:
    """Each call a poll makes: each must be held (a temporary error, nothing asked)."""
    since = datetime(2026, 1, 1, tzinfo=UTC)
    calls = [
        lambda: forum.listing(cursor=None),
        lambda: forum.survey([thread]),
        lambda: forum.reread(thread, [post]),
        lambda: forum.backfill(thread),
        lambda: forum.reply(thread=thread, to=post, text="noted", key="k1"),
        lambda: forum.find_reply(thread=thread, key="k1", to=post, since=since),
        lambda: forum.send_private(thread=thread, to="gm_sam", subject="s", text="t", key="k"),
    ]
    for call in calls:
        with pytest.raises(ForumError) as held:
            call()
        assert held.value.temporary and "wait" in str(held.value)


def test_after_a_429_nothing_is_asked_before_its_retry_after_has_passed(
    forum: RedditForum,
    fake_reddit: FakeReddit,
    clock: Seconds,
    no_sleep: SleepRecorder,
) -> None:
    thread = fake_reddit.add_submission(SUB, "gm_sam", "Round one")
    post = fake_reddit.add_comment("alice", f"t3_{thread}", "[physical: attack Goblin]")
    fake_reddit.retry_after = 60  # longer than the window's own reset says
    fake_reddit.ratelimit_reset = 1
    fake_reddit.inject("GET", "/r/", "429")
    with pytest.raises(ForumError) as limited:
        forum.listing(cursor=None)
    assert limited.value.temporary
    fake_reddit.clear_log()

    for _ in range(5):  # a poll every 11 s for 55 s: every one of them asks nothing
        clock.now += 11
        _every_kind_of_call(forum, thread, post)
    assert fake_reddit.requests == []

    clock.now += 6  # 61 s after the 429
    listing = forum.listing(cursor=None)
    assert [p.id for p in listing.posts] == [post]
    assert fake_reddit.requests_to("/r/") == 1


def test_a_used_up_window_holds_the_bot_until_it_resets_instead_of_sleeping(
    forum: RedditForum,
    fake_reddit: FakeReddit,
    clock: Seconds,
    no_sleep: SleepRecorder,
) -> None:
    thread = fake_reddit.add_submission(SUB, "gm_sam", "Round one")
    post = fake_reddit.add_comment("alice", f"t3_{thread}", "hello")
    fake_reddit.ratelimit_remaining = 0  # every answer: the window is used up ...
    fake_reddit.ratelimit_reset = 300  # ... for five more minutes
    forum.listing(cursor=None)
    fake_reddit.clear_log()

    with pytest.raises(ForumError) as held:
        forum.reread(thread, [post])
    assert held.value.temporary
    clock.now += 299
    _every_kind_of_call(forum, thread, post)
    assert fake_reddit.requests == []
    assert all(pause <= LONGEST_PACE for pause in no_sleep.calls)  # no long sleep in a poll

    fake_reddit.ratelimit_remaining = 600.0  # a new window
    clock.now += 2
    (again,) = forum.reread(thread, [post])
    assert again.id == post and fake_reddit.requests_to("/api/info") == 1


def test_a_window_running_low_is_paced_by_short_sleeps_between_requests(
    forum: RedditForum,
    fake_reddit: FakeReddit,
    no_sleep: SleepRecorder,
) -> None:
    thread = fake_reddit.add_submission(SUB, "gm_sam", "Round one")
    posts = [fake_reddit.add_comment("alice", f"t3_{thread}", f"post {n}") for n in range(3)]
    fake_reddit.ratelimit_remaining = 20
    fake_reddit.ratelimit_used = 580
    fake_reddit.ratelimit_reset = 200
    for post in posts:
        forum.reread(thread, [post])
    assert fake_reddit.requests_to("/api/info") == 3
    assert no_sleep.calls and all(0 < pause <= LONGEST_PACE for pause in no_sleep.calls)


def test_reddits_limit_on_posting_holds_the_writes_and_not_the_reads(
    forum: RedditForum,
    fake_reddit: FakeReddit,
    clock: Seconds,
    no_sleep: SleepRecorder,
) -> None:
    thread = fake_reddit.add_submission(SUB, "gm_sam", "Round one")
    post = fake_reddit.add_comment("alice", f"t3_{thread}", "[physical: attack Goblin]")
    fake_reddit.inject(
        "POST",
        "/api/comment",
        "ratelimit",
        times=3,
        message="you are doing that too much. try again in 5 minutes.",
    )
    with pytest.raises(ForumError):
        forum.reply(thread=thread, to=post, text="noted", key="k1")
    fake_reddit.clear_log()

    clock.now += 120
    with pytest.raises(ForumError) as held:
        forum.reply(thread=thread, to=post, text="noted", key="k1")
    assert "wait 180 s" in str(held.value)
    assert [p.id for p in forum.listing(cursor=None).posts] == [post]  # reads go on
    assert fake_reddit.requests_to("/api/comment") == 0

    fake_reddit.calm()
    clock.now += 181
    forum.reply(thread=thread, to=post, text="noted", key="k1")
    assert fake_reddit.requests_to("/api/comment") == 1


def test_a_polling_bot_asks_nothing_for_a_minute_after_a_429_that_says_so(
    tmp_path: Path,
    fake_reddit: FakeReddit,
    no_sleep: SleepRecorder,
) -> None:
    fake_reddit.add_subreddit(SUB)
    thread = fake_reddit.add_submission(SUB, "gm_sam", "The Sunken Keep")
    campaign = tmp_path / "campaign.toml"
    campaign.write_text(TEST_KEEP, encoding="utf-8")
    store = Store(f"sqlite:///{tmp_path / 'pbp.db'}")
    store.upgrade()
    forum = RedditForum(
        praw.Reddit(**praw_settings(fake_reddit)), subreddits=[SUB], bot=BOT, clock=fake_reddit.now
    )  # the bot's clock is the fake's
    bot = Bot(
        store=store,
        forum=forum,
        threads=[WatchedThread(key=thread, campaign=campaign)],
        options=BotOptions(username=BOT, owner="w1"),
    )
    fake_reddit.set_time(1_800_000_000.0)
    start = datetime.fromtimestamp(fake_reddit.now(), UTC)
    bot.poll_once(start)
    fake_reddit.add_comment("alice", f"t3_{thread}", "[physical: attack Goblin]")
    fake_reddit.retry_after = 60
    fake_reddit.ratelimit_reset = 1
    fake_reddit.inject(None, "/", "429")
    fake_reddit.set_time(1_800_000_005.0)
    first = bot.poll_once(start + timedelta(seconds=5))
    assert first.errors  # the listing was refused
    fake_reddit.clear_log()

    for seconds in (10, 15, 20, 40, 60, 64):  # a poll every 4 to 20 s
        fake_reddit.set_time(1_800_000_000.0 + seconds)
        report = bot.poll_once(start + timedelta(seconds=seconds))
        assert report.errors and "wait" in report.errors[0]
    assert fake_reddit.requests == []

    fake_reddit.set_time(1_800_000_000.0 + 70)
    assert bot.poll_once(start + timedelta(seconds=70)).errors == []
    assert fake_reddit.requests_to(f"/r/{SUB}/comments") == 1
