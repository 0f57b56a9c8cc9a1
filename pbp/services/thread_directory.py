"""The threads of one forum the store holds, as this process has seen them: the config's
threads put in the store once, and the rows of threads seen (a thread's id, key and binding
never change once made, so a thread seen once is not asked for again)."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path

from pbp.errors import ConfigError
from pbp.services.campaign_files import CampaignFiles, LoadedCampaign
from pbp.services.polling import PollReport
from pbp.store.database import Store
from pbp.store.inbox import Inbox, StoredThread
from pbp.store.records import CampaignRecord
from pbp.store.repository import Repository

log = logging.getLogger(__name__)


class ThreadDirectory:
    """The store's threads of one forum, looked up once each."""

    def __init__(self, store: Store, *, forum: str, campaigns: CampaignFiles) -> None:
        self._store, self._forum, self._campaigns = store, forum, campaigns
        self._registered: set[str] = set()  # configured threads known to be in the store
        self._stored: dict[str, StoredThread] = {}  # threads seen in the store, by key
        # whether a thread may wait for the forum's survey: one this process put in the store,
        # or one the last ingest could not survey (another worker's are looked for at beats)
        self.unsurveyed = True

    def register(self, now: datetime, report: PollReport) -> None:
        """The configured threads, in the store once (a concurrent first poll included)."""
        configured = self._campaigns.configured
        missing = [key for key in configured if key not in self._registered]
        if not missing:
            return
        with self._store.session() as s:
            known = {t.key for t in Inbox(s).watched(self._forum, missing)}
        ready: dict[str, LoadedCampaign] = {}
        for key in missing:
            if key in known:
                self._registered.add(key)
                continue
            try:
                ready[key] = self._campaigns.load(configured[key])
            except ConfigError as exc:  # this thread waits until its campaign file loads
                report.errors.append(f"thread {key}: {exc}")
                log.info("thread %s: %s", key, exc)  # the poll's report says it (once)
        if not ready:
            return
        with self._store.session() as s:  # every new thread in one transaction
            repo = Repository(s)
            rows: dict[Path, CampaignRecord] = {}  # a campaign file's row, once per file
            for key, loaded in ready.items():
                path = configured[key]
                if path not in rows:
                    rows[path] = self._campaigns.register(repo, path, now=now)
                repo.add_thread(
                    forum=self._forum,
                    key=key,
                    campaign_id=rows[path].id,
                    campaign_hash=loaded.file_hash,
                    at=now,
                )
        self._registered.update(ready)
        self.unsurveyed = True

    def stored(self, inbox: Inbox, keys: Iterable[str]) -> list[StoredThread]:
        """The threads with these keys the store has, in the order they were added; only keys
        not seen yet are looked up."""
        wanted = list(dict.fromkeys(keys))
        missing = [key for key in wanted if key not in self._stored]
        if missing:
            self._stored.update((t.key, t) for t in inbox.watched(self._forum, missing))
        found = [self._stored[key] for key in wanted if key in self._stored]
        return sorted(found, key=lambda t: t.id)

    def knows(self, keys: Iterable[str]) -> bool:
        """Whether every thread with these keys was seen in the store already."""
        return all(key in self._stored for key in keys)
