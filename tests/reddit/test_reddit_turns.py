"""Issue 29 on Reddit (real praw, the fake Reddit, the real store): a deadline with a grace,
reminders by mention and by private message at the campaign's times, each exactly once,
across a restart between the deadline and the end of the grace."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import praw
from fake_reddit import FakeReddit, praw_settings
from sample_campaigns import TEST_KEEP

from pbp.forums.reddit import RedditForum, key_of
from pbp.services.bot import Bot, BotOptions, PollReport, WatchedThread
from pbp.services.export import thread_ledger
from pbp.store.database import Store

SUB = "MyPbPGame"
SETUP = "Goblins!\n!group Aria, Bram, Goblin\n!deadline 4h grace 2h"


class Table:
    """A submission on the fake Reddit, and a bot that can be stopped and started again."""

    def __init__(self, folder: Path, fake: FakeReddit, extra: str) -> None:
        self.fake = fake
        fake.add_subreddit(SUB)
        self.thread = fake.add_submission(SUB, "gm_sam", "The Sunken Keep, scene 1")
        self.campaign = folder / "campaign.toml"
        text = TEST_KEEP.replace('visibility = "open"', f'visibility = "open"\n{extra}', 1)
        self.campaign.write_text(text, encoding="utf-8")
        self.store = Store(f"sqlite:///{folder / 'pbp.db'}")
        self.store.upgrade()
        self.start = datetime.fromtimestamp(fake.now(), UTC)
        self.bot = self.restart()

    def restart(self) -> Bot:
        """A new bot process: a new praw session over the same store."""
        forum = RedditForum(
            praw.Reddit(**praw_settings(self.fake)), subreddits=[SUB], bot="pbp_bot",
            clock=self.fake.now,
        )  # fmt: skip
        return Bot(
            store=self.store,
            forum=forum,
            threads=[WatchedThread(key=self.thread, campaign=self.campaign)],
            options=BotOptions(username="pbp_bot", owner="w1"),
        )

    def at_minute(self, minute: float) -> None:
        self.fake.set_time(self.start.timestamp() + minute * 60)

    def comment(self, minute: float, author: str, body: str) -> str:
        self.at_minute(minute)
        return self.fake.add_comment(author, f"t3_{self.thread}", body)

    def poll(self, minute: float) -> PollReport:
        self.at_minute(minute)
        report = self.bot.poll_once(datetime.fromtimestamp(self.fake.now(), UTC))
        assert report.errors == [], report.errors
        return report

    def keys(self, prefix: str) -> list[str]:
        found = (key_of(c.body) or "" for c in self.fake.comments_by("pbp_bot") if not c.gone)
        return [k for k in found if k.startswith(prefix)]

    def closed_by(self) -> object:
        return thread_ledger(self.bot, self.thread)["rounds"][0]["closed_by"]


def test_a_grace_on_reddit_nudges_by_mention_once_across_a_restart_and_closes_at_its_end(
    tmp_path: Path, fake_reddit: FakeReddit
) -> None:
    table = Table(tmp_path, fake_reddit, "")
    table.comment(0, "gm_sam", SETUP)
    table.comment(1, "alice", "[physical: attack Goblin]")
    table.poll(2)
    table.poll(125)  # half time: bob is reminded
    table.poll(241)  # the deadline: bob is nudged once more, the round waits for the grace
    assert table.keys("reminder") == ["reminder-1-1"] and table.keys("grace") == ["grace-1-1"]
    assert table.closed_by() is None
    table.bot = table.restart()  # stopped between the deadline and the end of the grace
    table.poll(250)
    table.poll(300)
    assert table.keys("reminder") == ["reminder-1-1"] and table.keys("grace") == ["grace-1-1"]
    table.poll(362)  # the grace is over
    assert table.closed_by() == "deadline"
    assert len(table.keys("summary-1")) == 1


def test_reminders_by_private_message_on_reddit_once_each_across_a_restart(
    tmp_path: Path, fake_reddit: FakeReddit
) -> None:
    table = Table(tmp_path, fake_reddit, 'remind = "private"\nremind_at = ["50%", "1h before"]')
    table.comment(0, "gm_sam", SETUP)
    table.comment(1, "alice", "[physical: attack Goblin]")
    table.poll(2)
    table.poll(125)
    table.bot = table.restart()
    table.poll(130)
    table.poll(185)  # an hour before the deadline
    table.poll(241)  # the deadline: the grace's nudge, privately too
    table.bot = table.restart()
    table.poll(250)
    to_bob = [m.body for m in fake_reddit.messages_to("bob")]
    assert len(to_bob) == 3, to_bob
    assert table.keys("reminder") == [] and table.keys("grace") == []  # nothing in the thread
    table.comment(260, "bob", "[pass]")  # the last to act, in the grace: the round closes
    table.poll(261)
    assert table.closed_by() == "all-acted"


def test_a_standing_order_on_reddit_acts_in_every_round_until_cancelled(
    tmp_path: Path, fake_reddit: FakeReddit
) -> None:
    table = Table(tmp_path, fake_reddit, "")
    table.comment(0, "gm_sam", "Goblins!\n!group Aria, Bram, Goblin")
    order = table.comment(1, "bob", "Off to the tavern.\n!standing [pass]")
    table.comment(2, "alice", "[physical: attack Goblin]")
    table.comment(3, "gm_sam", "!close")
    table.poll(4)
    table.bot = table.restart()
    table.comment(5, "gm_sam", "!close")  # round 2: Bram's order acts again, after a restart
    table.poll(6)
    table.comment(7, "bob", "!standing off")
    table.comment(8, "gm_sam", "!close")
    table.poll(9)
    rounds = thread_ledger(table.bot, table.thread)["rounds"]
    standing = [
        [a["actor"] for a in r["actions"] if str(a["post"]).startswith("standing:")]
        for r in rounds[:3]
    ]
    assert standing == [["Bram"], ["Bram"], []], standing
    assert f"standing:{order}:2" in [a["post"] for a in rounds[0]["actions"]]


def test_a_reclosed_round_on_reddit_sends_the_gm_one_short_note_not_a_second_copy(
    tmp_path: Path, fake_reddit: FakeReddit
) -> None:
    # Reddit cannot edit a private message (RedditForum.edits_private is False): the GM's copy
    # of an undone and re-closed round is one short note that it changed, sent once.
    table = Table(tmp_path, fake_reddit, "")
    text = table.campaign.read_text(encoding="utf-8")
    table.campaign.write_text(
        text.replace('visibility = "open"', 'visibility = "hide-npcs"', 1), encoding="utf-8"
    )
    table.bot = table.restart()
    table.comment(0, "gm_sam", "Goblins!\n!group Aria, Bram, Goblin")
    table.poll(0.5)  # watched from here: what closes now is told
    table.comment(1, "alice", "[physical: attack Goblin]")
    table.comment(2, "gm_sam", "!close")
    table.poll(3)
    (copy,) = fake_reddit.messages_to("gm_sam")
    assert "Goblin" in copy.body
    table.comment(4, "gm_sam", "!undo")
    table.poll(5)
    table.comment(6, "bob", "[pass]")
    table.comment(7, "gm_sam", "!close")
    table.poll(8)
    table.bot = table.restart()
    table.poll(9)
    table.poll(10)
    messages = fake_reddit.messages_to("gm_sam")
    assert len(messages) == 2, [m.body for m in messages]
    note = messages[1].body
    assert "undone and closed again" in note and "`!status`" in note
    assert "Goblin" not in note.split("\n", 1)[-1]  # a note, not the numbers again
    assert table.keys("summary-1") == ["summary-1", "summary-1~2"]  # the undone one, the new one
