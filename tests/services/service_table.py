"""A table for the service tests: a campaign file, a SQLite store, the local forum and the bot.

Times are minutes after 2026-11-29 10:00 UTC. ``Table.restart()`` builds a new Bot on the same
database, as a restarted process would (nothing kept in memory).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sample_campaigns import TEST_KEEP

from pbp.forums.base import ForumPost
from pbp.forums.local import LocalForum
from pbp.services.bot import Bot, BotOptions, PollReport, WatchedThread
from pbp.services.export import thread_ledger
from pbp.services.seeds import round_seeds
from pbp.store.database import Store
from pbp.store.local_posts import SqlLocalStorage

START = datetime(2026, 11, 29, 10, 0, tzinfo=UTC)
BOT = "pbp_bot"
THREAD = "keep-1"

CAMPAIGN = TEST_KEEP

SETUP = "Goblins!\n!group Aria, Bram, Goblin"


def at(minute: float) -> datetime:
    """The time ``minute`` minutes into the test."""
    return START + timedelta(minutes=minute)


@dataclass
class Clock:
    now: datetime = START

    def __call__(self) -> datetime:
        return self.now


class Table:
    """A thread on the local forum and the bot that runs it."""

    def __init__(
        self,
        folder: Path,
        *,
        campaign: str = CAMPAIGN,
        ack: str = "errors",
        clock: Callable[[], datetime] | None = None,
        url: str | None = None,
    ) -> None:
        self.folder = folder
        self.campaign = folder / "campaign.toml"
        self.campaign.write_text(campaign, encoding="utf-8")
        self.store = Store(url or f"sqlite:///{folder / 'pbp.db'}")
        self.store.upgrade()
        self.clock = Clock()
        self.forum = LocalForum(SqlLocalStorage(self.store), bot=BOT, clock=clock or self.clock)
        self.ack = ack
        self.bot = self.restart()

    def restart(
        self,
        *,
        owner: str = "w1",
        forum: Any = None,
        owner_alive: Callable[[str], bool] | None = None,
    ) -> Bot:
        """A new bot on the same database (a restarted process); ``owner_alive``: what it
        knows of the other workers (by default, each one alive while its lease lasts)."""
        options = BotOptions(username=BOT, ack=self.ack, owner=owner)
        if owner_alive is not None:
            options = replace(options, owner_alive=owner_alive)
        self.bot = Bot(
            store=self.store,
            forum=forum or self.forum,
            threads=[WatchedThread(key=THREAD, campaign=self.campaign)],
            options=options,
            seed_maker=lambda _t, n: round_seeds("test")(n),
        )
        return self.bot

    def post(self, author: str, body: str, minute: float) -> str:
        self.clock.now = at(minute)
        return self.forum.post(thread=THREAD, author=author, body=body, at=at(minute)).id

    def edit(self, post_id: str, body: str, minute: float) -> None:
        self.clock.now = at(minute)
        self.forum.edit(post_id, body=body, at=at(minute))

    def delete(self, post_id: str, minute: float) -> None:
        self.clock.now = at(minute)
        self.forum.delete(post_id, at=at(minute))

    def poll(self, minute: float, bot: Bot | None = None) -> PollReport:
        self.clock.now = at(minute)
        report = (bot or self.bot).poll_once(at(minute))
        assert not report.errors, report.errors
        return report

    def replies(self) -> list[ForumPost]:
        """The bot's replies on the forum, in posting order."""
        return [p for p in self.forum.thread(THREAD) if p.author == BOT]

    def reply_to(self, post_id: str) -> list[ForumPost]:
        return [p for p in self.replies() if p.reply_to == post_id]

    def ledger(self, bot: Bot | None = None) -> dict[str, Any]:
        return thread_ledger(bot or self.bot, THREAD)

    def ledger_json(self, bot: Bot | None = None) -> str:
        return json.dumps(self.ledger(bot), sort_keys=True)
