"""Which threads of the local forum the bot runs: those under the config's ``[[threads]]``
and those a GM bound with ``!campaign NAME`` (kept in the store). `pbp post` refuses to start a
thread the bot would never read; `pbp thread list` marks the ones it runs."""

from __future__ import annotations

import re
from collections.abc import Iterable

from pbp.store.database import Store
from pbp.store.repository import Repository

LOCAL = "local"
_CAMPAIGN_LINE = re.compile(r"^\s*!campaign\s+\S", re.IGNORECASE | re.MULTILINE)


def bound_threads(store: Store) -> dict[str, str | None]:
    """The threads of the local forum in the store, each with the GM whose ``!campaign``
    bound it (None: a thread of the config)."""
    with store.session() as s:
        return {t.key: t.bound_by for t in Repository(s).threads() if t.forum == LOCAL}


def moved_threads(store: Store) -> dict[str, str]:
    """The threads of the local forum whose campaign moved on, each with the thread it moved
    to (SPEC §1: a campaign runs in one thread at a time)."""
    with store.session() as s:
        return {
            t.key: t.moved_to
            for t in Repository(s).threads()
            if t.forum == LOCAL and t.moved_to is not None
        }


def binds_a_thread(body: str) -> bool:
    """Whether a post holds a ``!campaign NAME`` line (it may bind a new thread)."""
    return _CAMPAIGN_LINE.search(body) is not None


def run_by_the_bot(thread: str, *, configured: Iterable[str], store: Store) -> bool:
    """Whether the bot reads ``thread``: it is configured, or bound by a GM."""
    return thread in set(configured) or thread in bound_threads(store)
