"""The bot on Reddit, end to end: real praw, the fake Reddit, the real store."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import praw
import pytest
from fake_reddit import FakeReddit, SleepRecorder, praw_settings
from sample_campaigns import TEST_KEEP
from sqlalchemy import select

from pbp.forums.reddit import RedditForum, key_of
from pbp.services.bot import Bot, BotOptions, PollReport, WatchedThread
from pbp.services.export import thread_ledger
from pbp.store.database import Store
from pbp.store.schema import ReplyRow

SUB = "MyPbPGame"
CAMPAIGN = TEST_KEEP


class RedditTable:
    """A submission on the fake Reddit run by a bot with its own SQLite store."""

    def __init__(self, folder: Path, fake: FakeReddit) -> None:
        self.fake = fake
        fake.add_subreddit(SUB)
        self.thread = fake.add_submission(SUB, "gm_sam", "The Sunken Keep, scene 1")
        campaign = folder / "campaign.toml"
        campaign.write_text(CAMPAIGN, encoding="utf-8")
        self.store = Store(f"sqlite:///{folder / 'pbp.db'}")
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

    def comment(self, author: str, body: str, parent: str | None = None) -> str:
        self.fake.advance(60)
        return self.fake.add_comment(author, parent or f"t3_{self.thread}", body)

    def poll(self) -> PollReport:
        self.fake.advance(60)
        return self.bot.poll_once(datetime.fromtimestamp(self.fake.now(), UTC))

    def replies(self) -> list[str]:
        """The keys of the bot's live comments, in posting order."""
        return [key_of(c.body) or "" for c in self.fake.comments_by("pbp_bot") if not c.gone]


@pytest.fixture
def table(tmp_path: Path, fake_reddit: FakeReddit) -> RedditTable:
    return RedditTable(tmp_path, fake_reddit)


def test_a_round_on_reddit_typo_reply_an_edit_before_the_close_and_nothing_twice(
    table: RedditTable,
) -> None:
    table.comment("gm_sam", "Goblins!\n!group Aria, Bram, Goblin")
    attack = table.comment("alice", "Aria swings. [physical: attack Goblin]")
    typo = table.comment("bob", "Bram thinks. [mentl: attack Goblin]")
    table.poll()
    [reply] = [c for c in table.fake.comments_by("pbp_bot") if c.parent_id == f"t1_{typo}"]
    assert "mentl" in reply.body
    table.fake.edit_comment(typo, "Bram thinks. [mental: attack Goblin]")  # fixed on Reddit
    close = table.comment("gm_sam", "!close")
    table.poll()
    ledger = thread_ledger(table.bot, table.thread)
    round_one = ledger["rounds"][0]
    assert round_one["closed_by"] == close
    assert [(a["post"], a["actor"]) for a in round_one["actions"]] == [
        (attack, "Aria"),
        (typo, "Bram"),
    ]
    assert ledger["rejected"] == []
    summaries = [c for c in table.fake.comments_by("pbp_bot") if c.parent_id == f"t1_{close}"]
    assert len(summaries) == 1 and "Round 1: results" in summaries[0].body
    before = table.replies()
    for _ in range(3):
        table.poll()
    assert table.replies() == before
    assert all(n == 1 for n in Counter(before).values())


def test_an_idle_poll_is_one_listing_request(table: RedditTable) -> None:
    table.comment("alice", "[pass]")
    table.poll()
    table.poll()
    table.fake.clear_log()
    table.poll()
    assert [r.path.split("?")[0] for r in table.fake.requests] == [f"/r/{SUB}/comments/"]


@pytest.mark.parametrize("seed", [11, 12, 13, 14])
def test_under_chaos_every_reply_is_posted_once(
    table: RedditTable, no_sleep: SleepRecorder, seed: int
) -> None:
    table.comment("gm_sam", "!group Aria, Bram, Goblin")
    table.poll()
    table.fake.chaos(seed=seed, rates={"500": 0.2, "429": 0.05, "commit_then_502": 0.1})
    for round_number in range(4):
        table.comment("alice", "[physical: attack Goblin]")
        table.comment("bob", f"round {round_number} [mentl: attack Goblin]")
        table.comment("bob", "!status")
        table.comment("gm_sam", "!close")
        for _ in range(4):
            table.poll()
    faults = Counter(r.fault for r in table.fake.requests if r.fault)
    assert faults["commit_then_502"] and faults["500"] and faults["429"]  # chaos did strike
    table.fake.calm()
    for _ in range(3):
        table.poll()
    keys = table.replies()
    doubled = [k for k, n in Counter(keys).items() if n > 1]
    assert doubled == []
    assert sum(k.startswith("summary") for k in keys) == 4
    with table.store.session() as s:
        statuses = Counter(s.scalars(select(ReplyRow.status)).all())
    assert set(statuses) == {"posted"}
    assert len(keys) == statuses["posted"]


def test_a_summary_over_reddits_limit_goes_out_in_numbered_parts(
    tmp_path: Path, fake_reddit: FakeReddit
) -> None:
    templates = tmp_path / "tpl"
    templates.mkdir()
    (templates / "summary.md.j2").write_text(
        "{% for i in range(40000) %}x\n{% endfor %}",
        encoding="utf-8",
    )
    folder = tmp_path / "site"
    folder.mkdir()
    table = RedditTable(folder, fake_reddit)
    campaign = folder / "campaign.toml"
    campaign.write_text(
        CAMPAIGN.replace('visibility = "open"', f'visibility = "open"\ntemplates = "{templates}"')
    )
    table.comment("gm_sam", "!group Aria, Bram, Goblin")
    table.comment("alice", "[physical: attack Goblin]")
    table.poll()
    table.comment("gm_sam", "!close")
    report = table.poll()
    assert report.errors == []
    parts = [
        c
        for c in fake_reddit.comments_by("pbp_bot")
        if (key_of(c.body) or "").startswith("summary")
    ]
    assert len(parts) >= 8  # 80,000 characters
    assert all(len(c.body) <= 10_000 for c in parts), max(len(c.body) for c in parts)
    assert parts[0].body.startswith(f"*(part 1/{len(parts)})*")


def test_a_gm_binds_a_new_submission_with_a_campaign_comment(table: RedditTable) -> None:
    table.comment("alice", "[pass]")
    table.poll()
    fresh = table.fake.add_submission(SUB, "gm_sam", "The Sunken Keep, scene 2")
    table.fake.advance(60)
    bind = table.fake.add_comment("gm_sam", f"t3_{fresh}", "!campaign Test Keep")
    table.fake.advance(60)
    typo = table.fake.add_comment("bob", f"t3_{fresh}", "[phisical: attack Goblin]")
    report = table.poll()
    assert report.errors == []
    mine = [c for c in table.fake.comments_by("pbp_bot") if c.link_id == f"t3_{fresh}"]
    assert {key_of(c.body) for c in mine} == {"cheatsheet", f"done-{bind}", f"problems-{typo}"}
    said = next(c.body for c in mine if key_of(c.body) == f"done-{bind}")
    assert "This thread runs **Test Keep**: its characters came from thread" in said


@pytest.mark.slow
def test_an_idle_poll_with_three_hundred_threads_is_one_listing_request(
    tmp_path: Path, fake_reddit: FakeReddit
) -> None:
    fake_reddit.add_subreddit(SUB)
    campaign = tmp_path / "campaign.toml"
    campaign.write_text(CAMPAIGN, encoding="utf-8")
    threads = [fake_reddit.add_submission(SUB, "gm_sam", f"scene {i}") for i in range(300)]
    for thread in threads[:5]:
        fake_reddit.add_comment("alice", f"t3_{thread}", "[physical: attack Goblin]")
    store = Store(f"sqlite:///{tmp_path / 'pbp.db'}")
    store.upgrade()
    forum = RedditForum(praw.Reddit(**praw_settings(fake_reddit)), subreddits=[SUB], bot="pbp_bot")
    bot = Bot(
        store=store,
        forum=forum,
        threads=[WatchedThread(key=t, campaign=campaign) for t in threads],
        options=BotOptions(username="pbp_bot", owner="w1"),
    )
    first = bot.poll_once(datetime.now(UTC))  # the first poll reads every thread once
    assert first.errors == []
    bot.poll_once(datetime.now(UTC))  # pages back through the 300 cheat sheets it posted
    fake_reddit.clear_log()
    for _ in range(3):
        bot.poll_once(datetime.now(UTC))
    assert [r.path.split("?")[0] for r in fake_reddit.requests] == [f"/r/{SUB}/comments/"] * 3


def test_a_gm_binds_a_submission_whose_text_says_campaign(table: RedditTable) -> None:
    table.comment("alice", "[pass]")
    table.poll()
    fresh = table.fake.add_submission(SUB, "gm_sam", "Scene 2", "Onward!\n\n!campaign test keep")
    table.fake.advance(60)
    table.fake.add_comment("alice", f"t3_{fresh}", "[mental: attack Goblin]")
    report = table.poll()
    assert report.errors == []
    mine = [c for c in table.fake.comments_by("pbp_bot") if c.link_id == f"t3_{fresh}"]
    # the `!campaign` in the submission's text is answered; alice's tag is good
    keys = [key_of(c.body) for c in mine]
    assert keys[0] == "cheatsheet" and len(keys) == 2 and keys[1].startswith("done-"), keys
    table.fake.clear_log()
    table.poll()
    assert table.fake.requests_to("/api/info") == 0  # the opening post is read once


def test_a_fixed_typo_is_confirmed_before_the_close_by_the_periodic_reread(
    table: RedditTable,
) -> None:
    table.comment("gm_sam", "!group Aria, Bram, Goblin")
    typo = table.comment("bob", "[phisical: attack Goblin]")
    table.poll()
    table.fake.edit_comment(typo, "[physical: attack Goblin]")  # a listing never shows edits
    for _ in range(15):  # within a quarter of an hour the post is read again
        table.poll()
    [reply] = [c for c in table.fake.comments_by("pbp_bot") if c.parent_id == f"t1_{typo}"]
    assert "phisical" not in reply.body and reply.edited


def test_a_database_set_up_anew_edits_the_replies_reddit_holds_and_posts_none_twice(
    tmp_path: Path, fake_reddit: FakeReddit
) -> None:
    (tmp_path / "old").mkdir()
    table = RedditTable(tmp_path / "old", fake_reddit)
    table.comment("gm_sam", "!group Aria, Bram, Goblin")
    table.comment("alice", "[physical: attack Goblin]")
    table.comment("gm_sam", "!close")
    table.poll()
    typo = table.comment("bob", "[phisical: attack Goblin]")
    table.poll()
    before = table.replies()
    (tmp_path / "new").mkdir()  # the database is lost: the bot starts on an empty one
    store = Store(f"sqlite:///{tmp_path / 'new' / 'pbp.db'}")
    store.upgrade()
    forum = RedditForum(praw.Reddit(**praw_settings(fake_reddit)), subreddits=[SUB], bot="pbp_bot")
    fresh = Bot(
        store=store,
        forum=forum,
        threads=[WatchedThread(key=table.thread, campaign=tmp_path / "old" / "campaign.toml")],
        options=BotOptions(username="pbp_bot", owner="w9"),
    )
    fake_reddit.advance(60)
    report = fresh.poll_once(datetime.fromtimestamp(fake_reddit.now(), UTC))
    assert report.errors == []
    assert table.replies() == before  # the open round's replies found and made its own
    assert f"problems-{typo}" in before
    with store.session() as s:
        rows = s.scalars(select(ReplyRow)).all()
        assert rows and {r.status for r in rows} == {"posted"}
