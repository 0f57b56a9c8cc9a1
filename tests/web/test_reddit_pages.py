"""The pages of a Reddit campaign, on SQLite and PostgreSQL: a round played by the bot on the
fake Reddit (real praw), then ``pbp serve``'s application over the same store with a bot of
its own that never polls. The open round's posts and the bot's replies under them come from
what the bot stored (its rounds and its outbox), never from Reddit: the pages make no request
to it. Nobody writes there (posts are written on Reddit); a GM signs in by a sign-in link."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import praw
import pytest
from conftest import BACKENDS, store_url
from fake_reddit import FakeReddit, praw_settings
from sample_campaigns import TEST_KEEP
from starlette.testclient import TestClient

from pbp.forums.reddit import RedditForum
from pbp.services.bot import Bot, BotOptions, WatchedThread
from pbp.store.accounts import Accounts
from pbp.store.database import Store
from pbp.web.app import Site, create_app
from pbp.web.reader import Reader
from pbp.web.security import Signer

SUB = "MyPbPGame"


class RedditSite:
    """A submission the bot runs on the fake Reddit, and the pages over its store."""

    def __init__(self, folder: Path, fake: FakeReddit, url: str) -> None:
        self.fake = fake
        fake.add_subreddit(SUB)
        self.thread = fake.add_submission(SUB, "gm_sam", "The Sunken Keep, scene 1")
        campaign = folder / "campaign.toml"
        campaign.write_text(TEST_KEEP, encoding="utf-8")
        self.store = Store(url)
        self.store.upgrade()
        self.bot = self._bot(campaign, owner="w1")
        web_bot = self._bot(campaign, owner="web")
        accounts = Accounts(self.store)
        now = datetime.fromtimestamp(fake.now(), UTC)
        self.site = Site(
            reader=Reader(web_bot),
            accounts=accounts,
            signer=Signer(accounts.signing_key(at=now)),
            clock=lambda: datetime.fromtimestamp(fake.now(), UTC),
        )
        self.app = create_app(self.site)

    def _bot(self, campaign: Path, *, owner: str) -> Bot:
        forum = RedditForum(
            praw.Reddit(**praw_settings(self.fake)),
            subreddits=[SUB],
            bot="pbp_bot",
            clock=self.fake.now,
        )
        return Bot(
            store=self.store,
            forum=forum,
            threads=[WatchedThread(key=self.thread, campaign=campaign)],
            options=BotOptions(username="pbp_bot", owner=owner, ack="errors"),
        )

    def comment(self, author: str, body: str) -> str:
        self.fake.advance(60)
        return self.fake.add_comment(author, f"t3_{self.thread}", body)

    def poll(self) -> None:
        self.fake.advance(60)
        self.bot.poll_once(datetime.fromtimestamp(self.fake.now(), UTC))

    def client(self) -> TestClient:
        return TestClient(self.app, follow_redirects=False)


@pytest.fixture(params=BACKENDS)
def reddit_site(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[RedditSite]:
    url = store_url(request, tmp_path)
    with FakeReddit() as fake:
        made = RedditSite(tmp_path, fake, url)
        try:
            yield made
        finally:
            made.store.dispose()
    assert not fake.internal_errors


def _csrf(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found, html
    return found.group(1)


def test_a_reddit_thread_shows_the_stored_round_and_replies_and_a_gm_link_signs_in(
    reddit_site: RedditSite,
) -> None:
    r = reddit_site
    r.comment("gm_sam", "Goblins!\n!group Aria, Bram, Goblin")
    r.comment("alice", "Aria swings. [physical: attack Goblin]")
    r.comment("bob", "[mental: attack Goblin]")
    r.poll()
    r.comment("gm_sam", "!close")
    r.poll()
    r.comment("alice", "Aria presses on. [physical: attack Goblin]")
    typo = r.comment("bob", "Bram thinks. [mentl: attack Goblin]")
    r.poll()
    r.fake.clear_log()

    c = r.client()
    index = c.get("/")
    assert index.status_code == 200 and f'href="/thread/{r.thread}"' in index.text
    assert "round 2 open" in index.text and "1 closed" in index.text
    page = c.get(f"/thread/{r.thread}").text
    assert "<h2>Round 2</h2>" in page and "Acted: Aria" in page and "Not acted yet: Bram" in page
    posts = re.findall(r'<article class="post" id="([^"]+)">', page)
    assert len(posts) == 2 and posts[1] == typo, posts
    bob = page.split(f'id="{posts[1]}"', 1)[1]
    assert "Bram thinks." in bob and "mentl" in bob
    assert "Did you mean <strong>mental</strong>?" in bob  # the stored reply, under its post
    assert "<code>[physical: attack Goblin]</code>" in page  # alice's tag as read
    assert "Write as" not in page and "Sign in</a> to write" not in page
    history = c.get(f"/thread/{r.thread}/rounds").text
    assert "<h2>Round 1</h2>" in history and "The seal matches the seed." in history
    assert "<table>" in history
    assert "Full status (GM)" not in page and "Preview of the close" not in page
    assert c.get(f"/thread/{r.thread}/private").status_code == 403
    csrf = _csrf(c.get("/login").text)
    refused = c.post("/post", data={"thread": r.thread, "body": "[pass]", "csrf": csrf})
    assert refused.status_code == 404 and "written on the forum itself" in refused.text

    gm = r.client()
    token = r.site.signer.link("gm_sam")
    form = gm.get("/link", params={"token": token})
    assert form.status_code == 200 and "Sign in as gm_sam" in form.text
    assert gm.post("/link", data={"token": token, "csrf": _csrf(form.text)}).status_code == 303
    seen = gm.get(f"/thread/{r.thread}").text
    assert "GM view" in seen and "Full status (GM)" in seen and "Preview of the close" in seen
    assert gm.get(f"/thread/{r.thread}/private").status_code == 200
    again = r.client()
    form = again.get("/link", params={"token": token})
    used = again.post("/link", data={"token": token, "csrf": _csrf(form.text)})
    assert used.status_code == 403 and "used already" in used.text
    assert r.fake.requests == []  # every page from the store: nothing asked of Reddit
