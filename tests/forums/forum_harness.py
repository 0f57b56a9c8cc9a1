"""Forums under test, each behind a small harness that acts as the forum's users.

The contract suite asks a ``ForumHarness`` for everything users do (start a thread, post, edit,
delete) and talks to ``harness.forum`` only through the ``Forum`` protocol, as the services do.
Each entry of ``IMPLEMENTATIONS`` builds one forum (with whatever it stands on) and tears it
down; adding a forum to the suite is adding one entry.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

import praw
from fake_reddit import FakeReddit, praw_settings
from fakes import FlakyForum, ManualClock, MemoryLocalStorage

from pbp.forums.base import Forum
from pbp.forums.local import LocalForum, LocalStorage
from pbp.forums.reddit import RedditForum, unmarked
from pbp.store.database import Store
from pbp.store.local_posts import SqlLocalStorage

START = datetime(2026, 11, 29, 10, 0, tzinfo=UTC)
BOT = "pbp_bot"


class ForumHarness(Protocol):
    """A forum under test and the means to act as its users."""

    @property
    def forum(self) -> Forum:
        """The forum, used only through the ``Forum`` protocol."""
        ...

    @property
    def bot(self) -> str:
        """The account the forum posts the bot's replies under."""
        ...

    @property
    def kind(self) -> str:
        """The ``kind`` the forum must report."""
        ...

    def new_thread(self, name: str) -> str:
        """Make a thread (without posts the listing would show); return its key."""
        ...

    def post(self, *, thread: str, author: str, body: str) -> str:
        """A user posts, a little later than anything before; return the post's id."""
        ...

    def edit(self, post_id: str, *, body: str) -> None:
        """The post's author replaces its text, a little later."""
        ...

    def delete(self, post_id: str) -> None:
        """The post is deleted, a little later."""
        ...

    def inbox(self, user: str) -> list[tuple[str, str]]:
        """The private messages ``user`` received, oldest first, as (subject, text)."""
        ...


# -- the local forum --------------------------------------------------------------------------


@dataclass
class LocalHarness:
    """The local forum on some storage; a manual clock moves a minute before each action."""

    local: LocalForum
    storage: LocalStorage
    clock: ManualClock
    bot: str = BOT
    kind: str = "local"

    @property
    def forum(self) -> Forum:
        return self.local

    def new_thread(self, name: str) -> str:
        return name  # a local thread starts with its first post

    def post(self, *, thread: str, author: str, body: str) -> str:
        at = self.clock.advance(minutes=1)
        return self.local.post(thread=thread, author=author, body=body, at=at).id

    def edit(self, post_id: str, *, body: str) -> None:
        self.local.edit(post_id, body=body, at=self.clock.advance(minutes=1))

    def delete(self, post_id: str) -> None:
        self.local.delete(post_id, at=self.clock.advance(minutes=1))

    def inbox(self, user: str) -> list[tuple[str, str]]:
        return [(m.subject, m.body) for m in self.local.inbox(user)]


@dataclass
class FlakyLocalHarness(LocalHarness):
    """The local forum seen through a ``FlakyForum`` (users still post on the local forum)."""

    flaky: FlakyForum = field(init=False)

    def __post_init__(self) -> None:
        self.flaky = FlakyForum(self.local)

    @property
    def forum(self) -> Forum:
        return self.flaky


def local_harness(storage: LocalStorage) -> LocalHarness:
    """The local forum on ``storage``, its clock at ``START``."""
    clock = ManualClock(START)
    return LocalHarness(
        local=LocalForum(storage, bot=BOT, clock=clock), storage=storage, clock=clock
    )


def flaky_harness() -> FlakyLocalHarness:
    """A ``FlakyForum`` over the local forum in memory, no failures asked for yet."""
    clock = ManualClock(START)
    storage = MemoryLocalStorage()
    return FlakyLocalHarness(
        local=LocalForum(storage, bot=BOT, clock=clock), storage=storage, clock=clock
    )


@contextmanager
def sql_storage(folder: Path) -> Iterator[LocalStorage]:
    """``SqlLocalStorage`` on a SQLite file migrated as ``pbp db upgrade`` would."""
    store = Store(f"sqlite:///{folder / 'forum.db'}", durable=False)
    store.upgrade()
    try:
        yield SqlLocalStorage(store)
    finally:
        store.dispose()


@contextmanager
def memory_storage(folder: Path) -> Iterator[LocalStorage]:
    """The in-memory fake of the same storage."""
    del folder
    yield MemoryLocalStorage()


StorageMaker = Callable[[Path], AbstractContextManager[LocalStorage]]
STORAGES: dict[str, StorageMaker] = {"sql": sql_storage, "memory": memory_storage}


def local_on(name: str) -> Callable[[Path], AbstractContextManager[ForumHarness]]:
    """A harness maker for the local forum on one of ``STORAGES``."""

    @contextmanager
    def make(folder: Path) -> Iterator[ForumHarness]:
        with STORAGES[name](folder) as storage:
            yield local_harness(storage)

    return make


# -- the Reddit forum, through real praw, on the fake Reddit -----------------------------------

SUBREDDIT = "MyPbPGame"


@dataclass
class RedditHarness:
    """The Reddit forum; users act on the fake Reddit directly, a minute apart."""

    fake: FakeReddit
    reddit: RedditForum
    bot: str = BOT
    kind: str = "reddit"

    @property
    def forum(self) -> Forum:
        return self.reddit

    def new_thread(self, name: str) -> str:
        return self.fake.add_submission(SUBREDDIT, "gm_sam", name)

    def post(self, *, thread: str, author: str, body: str) -> str:
        self.fake.advance(60)
        return self.fake.add_comment(author, f"t3_{thread}", body)

    def edit(self, post_id: str, *, body: str) -> None:
        self.fake.advance(60)
        self.fake.edit_comment(post_id, body)

    def delete(self, post_id: str) -> None:
        self.fake.advance(60)
        self.fake.delete_comment(post_id)

    def inbox(self, user: str) -> list[tuple[str, str]]:
        return [(m.subject, unmarked(m.body)) for m in self.fake.messages_to(user)]


@contextmanager
def reddit_harness(folder: Path) -> Iterator[ForumHarness]:
    """The Reddit forum on a fake Reddit started for the test."""
    del folder
    with FakeReddit() as fake:
        fake.add_subreddit(SUBREDDIT)
        reddit = praw.Reddit(**praw_settings(fake))
        yield RedditHarness(fake=fake, reddit=RedditForum(reddit, subreddits=[SUBREDDIT], bot=BOT))
    assert not fake.internal_errors, "the fake Reddit failed inside"


# -- the implementations the contract suite runs on -------------------------------------------

IMPLEMENTATIONS: dict[str, Callable[[Path], AbstractContextManager[ForumHarness]]] = {
    "local-sqlite": local_on("sql"),
    "local-memory": local_on("memory"),
    "flaky-over-local": lambda folder: nullcontext(flaky_harness()),  # passes everything on
    "reddit": reddit_harness,
}
