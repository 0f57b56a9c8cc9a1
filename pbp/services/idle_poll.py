"""Whether a poll now would find nothing to do, told without loading the bot.

`pbp poll --once` asks this first: an idle run (a cron set-up's nearly every run) then costs
a few reads of the database instead of loading SQLAlchemy, the engine, the rulesets and the
templates. Only the local forum in an SQLite file is told so (``pbp.store.idle``); for any
other forum or database the answer is "not idle", and the full poll runs: Reddit must be
asked for its listing, and PostgreSQL needs its driver and SQLAlchemy anyway.
"""

from __future__ import annotations

import logging
from collections.abc import Collection
from datetime import datetime
from pathlib import Path

from pbp.forums.local import LocalForum
from pbp.services.polling import LISTING_SCOPE
from pbp.store.idle import local_forum_idle

log = logging.getLogger(__name__)


def nothing_to_do(
    database: Path | None,
    *,
    forum: str,
    threads: Collection[str],
    owner: str,
    now: datetime,
    timeout: float,
) -> bool:
    """Whether a poll at ``now`` by worker ``owner`` of forum kind ``forum``, running the
    configured ``threads``, would change nothing and post nothing (``database``: the SQLite
    file, None for any other database). False whenever in doubt."""
    if database is None or forum != LocalForum.kind:
        return False
    idle = local_forum_idle(
        database,
        forum=forum,
        threads=threads,
        owner=owner,
        scope=LISTING_SCOPE,
        now=now,
        timeout=timeout,
    )
    if idle:
        log.info("poll at %s: nothing to do", now.isoformat(timespec="seconds"))
    return idle
