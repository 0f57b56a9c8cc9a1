"""`pbp poll --once` on Reddit as a user runs it: a config, a praw.ini, the fake Reddit."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from fake_reddit import FakeReddit, write_praw_ini
from sqlalchemy import select

from pbp.forums.reddit import key_of
from pbp.store.database import Store
from pbp.store.schema import ReplyRow

pytestmark = pytest.mark.slow

SUB = "MyPbPGame"
HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
CONFIG = """
[bot]
username = "pbp_bot"
[database]
url = "sqlite:///pbp.db"
[forum]
kind = "reddit"
[forum.reddit]
site = "pbp-test"
subreddits = ["{sub}"]
[[threads]]
id = "{thread}"
campaign = "sunken-keep.toml"
"""


class Site:
    """A folder a GM runs pbp from, with a submission on the fake Reddit."""

    def __init__(self, folder: Path, fake: FakeReddit) -> None:
        self.folder, self.fake = folder, fake
        fake.add_subreddit(SUB)
        fake.ratelimit_reset = 1
        self.thread = fake.add_submission(SUB, "gm_sam", "The Sunken Keep")
        shutil.copy(REPO / "examples" / "sunken-keep.toml", folder / "sunken-keep.toml")
        (folder / "config.toml").write_text(CONFIG.format(sub=SUB, thread=self.thread))
        write_praw_ini(folder, fake, site="pbp-test")

    def comment(self, author: str, body: str) -> str:
        self.fake.advance(60)
        return self.fake.add_comment(author, f"t3_{self.thread}", body)

    def start_poll(self) -> subprocess.Popen[str]:
        self.fake.advance(60)
        env = {
            **os.environ,
            "PYTHONPATH": str(REPO),
            "XDG_CONFIG_HOME": str(self.folder),
            "PRAW_ALLOW_ENDPOINT_OVERRIDE": "1",
        }
        return subprocess.Popen(
            [sys.executable, str(HERE / "pbp_without_sleeps.py"), "poll", "--once"],
            cwd=self.folder,
            env=env,
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )

    def poll(self) -> subprocess.CompletedProcess[str]:
        proc = self.start_poll()
        out, err = proc.communicate(timeout=120)
        return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)

    def bot_comments(self) -> list[tuple[str, str]]:
        """(key, parent) of the bot's live comments."""
        return [
            (key_of(c.body) or "", c.parent_id)
            for c in self.fake.comments_by("pbp_bot")
            if not c.gone
        ]


@pytest.fixture
def site(tmp_path: Path, fake_reddit: FakeReddit) -> Site:
    return Site(tmp_path, fake_reddit)


def test_a_round_played_on_reddit_with_pbp_poll_once(site: Site) -> None:
    site.comment("gm_sam", "The goblins charge!\n!group Aria, Goblin, Ogre\n!group Bram, Cora")
    site.comment("alice", "Aria swings. [physical: attack Goblin]")
    typo = site.comment("bob", "Bram mutters. [mentl: attack Goblin]")
    first = site.poll()
    assert first.returncode == 0, first.stderr
    assert (f"problems-{typo}", f"t1_{typo}") in site.bot_comments()
    site.fake.edit_comment(typo, "Bram mutters. [mental: attack Goblin]")
    close = site.comment("gm_sam", "!close")
    second = site.poll()
    assert second.returncode == 0, second.stderr
    [summary] = [c for c in site.fake.comments_by("pbp_bot") if c.parent_id == f"t1_{close}"]
    assert "Round 1: results" in summary.body
    assert "Bram" in summary.body.split("**Did not act:**")[0]  # the edit counted
    before = site.bot_comments()
    third = site.poll()
    assert third.returncode == 0 and site.bot_comments() == before  # nothing twice


def test_killed_mid_poll_again_and_again_under_chaos_then_a_clean_poll(site: Site) -> None:
    site.comment("gm_sam", "!group Aria, Goblin, Ogre\n!group Bram, Cora")
    assert site.poll().returncode == 0
    site.fake.chaos(seed=5, rates={"500": 0.2, "429": 0.05, "commit_then_502": 0.1})
    rng = random.Random(5)
    kills = 0
    for round_number in range(4):
        site.comment("alice", "[physical: attack Goblin]")
        site.comment("bob", f"round {round_number} [mentl: attack Ogre]")
        site.comment("gm_sam", "!close")
        for _ in range(3):
            # killed once Reddit has answered this many of its requests: mid-poll, right
            # after a write whose answer it never reads, however fast the machine
            answered, after = len(site.fake.requests), rng.randint(1, 8)
            proc = site.start_poll()
            give_up = time.monotonic() + 60
            while proc.poll() is None and time.monotonic() < give_up:
                if len(site.fake.requests) - answered >= after:
                    proc.send_signal(signal.SIGKILL)
                    kills += 1
                    break
                time.sleep(0.002)
            proc.communicate()
    assert kills > 0
    site.fake.calm()
    for _ in range(2):
        clean = site.poll()
        assert clean.returncode == 0, clean.stderr
    keys = [key for key, _parent in site.bot_comments()]
    assert [k for k, n in Counter(keys).items() if n > 1] == []  # none doubled
    assert sum(k.startswith("summary") for k in keys) == 4
    store = Store(f"sqlite:///{site.folder / 'pbp.db'}")
    with store.session() as s:
        rows = s.scalars(select(ReplyRow)).all()
        assert {r.status for r in rows} == {"posted"}  # none lost
        assert len([r for r in rows if r.to_user is None]) == len(keys)
        private = sorted(r.key for r in rows if r.to_user == "gm_sam")
    # the GM's private copy of each summary (hide-npcs): sent once each, none lost
    messages = site.fake.messages_to("gm_sam")
    sent = sorted((key_of(m.body) or "").split("/", 1)[1] for m in messages)
    assert sent == private and len(sent) == 4


def test_pbp_check_reads_praws_configuration_for_a_reddit_config(site: Site) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO), "XDG_CONFIG_HOME": str(site.folder)}
    good = subprocess.run(
        [sys.executable, "-m", "pbp", "check", "--config", "config.toml"],
        cwd=site.folder,
        env=env,
        capture_output=True,
        text=True,
    )
    assert good.returncode == 0 and "ok: config.toml (1 thread, forum reddit)" in good.stdout
    (site.folder / "praw.ini").unlink()
    bad = subprocess.run(
        [sys.executable, "-m", "pbp", "check", "--config", "config.toml"],
        cwd=site.folder,
        env=env,
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 1
    assert "error: config.toml: forum reddit: praw could not be configured" in bad.stdout
    assert site.fake.requests == []  # checking sends nothing to Reddit


def test_an_idle_pbp_poll_once_of_200_threads_is_a_token_and_one_listing(
    tmp_path: Path, fake_reddit: FakeReddit
) -> None:
    site = Site(tmp_path, fake_reddit)
    more = [fake_reddit.add_submission(SUB, "gm_sam", f"scene {i}") for i in range(199)]
    config = site.folder / "config.toml"
    config.write_text(
        config.read_text()
        + "".join(f'[[threads]]\nid = "{t}"\ncampaign = "sunken-keep.toml"\n' for t in more)
    )
    site.comment("alice", "[physical: attack Goblin]")
    for _ in range(2):  # every thread read once; then the 200 cheat sheets go by
        first = site.poll()
        assert first.returncode == 0, first.stderr
    fake_reddit.clear_log()
    idle = site.poll()
    assert idle.returncode == 0, idle.stderr
    assert idle.stdout.strip() == "read 0 new post versions; posted or edited 0 replies"
    paths = [r.path.split("?")[0].rstrip("/") for r in fake_reddit.requests]
    assert paths == ["/api/v1/access_token", f"/r/{SUB}/comments"]
