"""The values a poll is described by: the threads watched, the bot's options, what a poll did."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from pbp.values import frozen_value

if TYPE_CHECKING:  # the idle check of `pbp poll --once` reads this module without the outbox
    from pbp.services.outbox import Delivered

LISTING_SCOPE = "all"  # the cursor of a forum's one listing per poll


@frozen_value
class WatchedThread:
    """A thread the bot runs and its campaign file."""

    key: str
    campaign: Path


@frozen_value
class BotOptions:
    """How the bot behaves (from the config's ``[bot]``)."""

    username: str
    ack: str = "errors"
    owner: str = "pbp"  # this worker's name in the thread leases
    lease: timedelta = timedelta(minutes=10)  # a worker silent this long has died
    # how long after a post got an error reply it is read again, and again (a forum whose
    # listing shows no edits: the fix shows before the close)
    reread_after: timedelta = timedelta(minutes=5)
    # whether the worker holding a lease is alive; a dead one's threads are taken at once
    owner_alive: Callable[[str], bool] = lambda _owner: True
    # whether a template file edited while the bot runs is read again (a campaign's overrides);
    # a replay, over before anybody could edit one, does without the check
    reload_templates: bool = True


@dataclass(slots=True)
class PollReport:
    """What one poll did."""

    events: int = 0
    failed: list[str] = field(default_factory=list)  # "thread/post: why"
    errors: list[str] = field(default_factory=list)  # threads or forum calls that failed
    skipped: list[str] = field(default_factory=list)  # threads another worker holds
    waiting: list[str] = field(default_factory=list)  # replies a temporary failure held back
    delivered: dict[str, list[Delivered]] = field(default_factory=dict)

    def merge(self, other: PollReport) -> None:
        """Add what ``other`` (a part of the same poll) did."""
        self.events += other.events
        self.failed += other.failed
        self.errors += other.errors
        self.skipped += other.skipped
        self.waiting += other.waiting
        for key, sent in other.delivered.items():
            self.delivered.setdefault(key, []).extend(sent)


@dataclass(slots=True)
class Listed:
    """Where the last listing this process kept stopped (``known``: once one was kept, or the
    store's cursor read). Any worker may move the store's cursor; listing from an older one
    shows posts again, which the inbox and the cycles take as unchanged."""

    cursor: str | None = None
    known: bool = False
    saved: str | None = None  # the store's cursor as this process last read or kept it
