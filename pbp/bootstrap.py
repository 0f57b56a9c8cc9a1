"""The one place that picks concrete implementations from the configuration.

The bot's parts (the store, the bot and what they load: SQLAlchemy, the engine, the rulesets,
the templates) are imported only by the functions that build them: `pbp poll --once` first
asks ``poll_is_idle``, which needs none of them.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from pbp.config import Config
from pbp.errors import ForumError, PbpError
from pbp.forums.base import Forum
from pbp.forums.local import LocalForum
from pbp.services.idle_poll import nothing_to_do
from pbp.store.idle import sqlite_file

if TYPE_CHECKING:
    from pbp.services.bot import Bot
    from pbp.store.database import Store

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    """The shell's clock (the only place pbp reads the time)."""
    return datetime.now(UTC)


def worker_name() -> str:
    """This process's name in the thread leases."""
    return f"{socket.gethostname()}:{os.getpid()}"


def worker_alive(owner: str) -> bool:
    """Whether the worker named ``owner`` may still be running: always, unless it ran on this
    host and its process is gone (a crashed `pbp run` must not block its threads for the whole
    lease)."""
    host, _, pid = owner.rpartition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return True
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def open_store(config: Config, *, migrate_empty: bool = True) -> Store:
    """The configured database, checked to hold the newest schema.

    A database with no pbp tables at all is set up on the spot (a first run needs no extra
    step); one at an older revision is refused with the command to run.
    """
    from pbp.store.database import Store

    store = Store(config.database.url, timeout=config.database.timeout_seconds)
    if migrate_empty and store.current() is None:
        try:
            store.upgrade()
        except Exception:
            if store.current() != store.head():
                raise
            # another pbp command set the same new database up at the same moment
        else:
            store.created = True
    store.check()
    return store


def make_forum(config: Config, store: Store, *, clock: Clock = utc_now) -> Forum:
    """The configured forum."""
    match config.forum.kind:
        case "local":
            return local_forum(config, store, clock=clock)
        case "reddit":
            from pbp.forums.reddit import RedditForum, open_reddit  # praw loads only for Reddit

            reddit = config.forum.reddit
            return RedditForum(
                open_reddit(site=reddit.site), subreddits=reddit.subreddits, bot=config.bot.username
            )
        case _:
            raise PbpError(f"unknown forum kind {config.forum.kind!r}")


def check_forum(config: Config) -> str | None:
    """What is wrong with the forum's own configuration (praw's, for Reddit), or None.

    Nothing is sent to the forum: for Reddit only praw's configuration is read."""
    if config.forum.kind != "reddit":
        return None
    from pbp.forums.reddit import open_reddit

    try:
        open_reddit(site=config.forum.reddit.site)
    except ForumError as exc:
        return str(exc)
    return None


def local_forum(config: Config, store: Store, *, clock: Clock = utc_now) -> LocalForum:
    """The local forum in the configured database."""
    from pbp.store.local_posts import SqlLocalStorage

    return LocalForum(SqlLocalStorage(store), bot=config.bot.username, clock=clock)


def poll_is_idle(config: Config, *, now: datetime) -> bool:
    """Whether a poll by this process at ``now`` would find nothing to do (read without
    building the bot; False whenever in doubt, and for any set-up but the local forum in an
    SQLite file)."""
    return nothing_to_do(
        sqlite_file(config.database.url),
        forum=config.forum.kind,
        threads=[t.id for t in config.threads],
        owner=worker_name(),
        now=now,
        timeout=config.database.timeout_seconds,
    )


def make_bot(config: Config, *, store: Store | None = None, clock: Clock = utc_now) -> Bot:
    """The bot as the configuration describes it."""
    from pbp.services.bot import Bot, BotOptions, WatchedThread

    store = store or open_store(config)
    poll = timedelta(seconds=config.bot.poll_seconds)
    return Bot(
        store=store,
        forum=make_forum(config, store, clock=clock),
        threads=[WatchedThread(key=t.id, campaign=t.campaign) for t in config.threads],
        options=BotOptions(
            username=config.bot.username,
            ack=config.bot.ack,
            owner=worker_name(),
            lease=max(timedelta(minutes=5), 5 * poll),
            reread_after=5 * poll,
            owner_alive=worker_alive,
        ),
        campaigns=config.campaign_files,
    )
