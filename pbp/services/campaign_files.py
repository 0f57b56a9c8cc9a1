"""The campaign files a bot runs: read again only when their bytes change, with the last
version that loaded kept for a file that stops loading (the thread goes on with it)."""

from __future__ import annotations

import hashlib
import os
import stat
import time
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path

from pbp.campaign.model import Campaign
from pbp.errors import ConfigError
from pbp.services.files import load_campaign
from pbp.store.records import CampaignRecord, ThreadRecord
from pbp.store.repository import Repository
from pbp.values import frozen_value


@frozen_value(kw_only=False)
class LoadedCampaign:
    """A campaign file as it loaded, and the hash of the bytes it loaded from."""

    file_hash: str
    campaign: Campaign


class CampaignFiles:
    """The config's threads and their campaign files, and the files a ``!campaign NAME``
    may bind a new thread to."""

    def __init__(self, configured: Mapping[str, Path], bindable: Sequence[Path]) -> None:
        self._configured = dict(configured)
        self.bindable = tuple(dict.fromkeys(bindable))
        self._loaded: dict[Path, LoadedCampaign] = {}
        # each file's look (``_look``) when the bytes of its entry in ``_loaded`` were read,
        # kept only for a file that had settled by then (``SETTLED_NS``)
        self._looks: dict[Path, tuple[int, ...]] = {}

    @property
    def configured(self) -> Mapping[str, Path]:
        """The config's threads (key -> campaign file)."""
        return self._configured

    def configures(self, key: str) -> bool:
        """Whether the config lists the thread (a bound one runs without)."""
        return key in self._configured

    def load(self, path: Path) -> LoadedCampaign:
        """The campaign file as it is now (parsed again only when its bytes change; read
        again only when its look changes, once it has settled: a thread's every poll asks)."""
        look = _look(path)
        cached = self._loaded.get(path)
        if cached is not None and look is not None and self._looks.get(path) == look:
            return cached
        data = path.read_bytes() if look is not None else b""
        digest = hashlib.sha256(data).hexdigest()
        if cached is None or cached.file_hash != digest:
            cached = LoadedCampaign(file_hash=digest, campaign=load_campaign(path))
            self._loaded[path] = cached
        if look is not None and time.time_ns() - max(look[2], look[3]) > SETTLED_NS:
            self._looks[path] = look
        else:  # changed just now: a change within its timestamps' grain would not show
            self._looks.pop(path, None)
        return cached

    def register(self, repo: Repository, path: Path, *, now: datetime) -> CampaignRecord:
        """The store's row of a campaign file (made, or brought up to date)."""
        loaded = self.load(path)
        return repo.save_campaign(
            path=str(path.resolve()), name=loaded.campaign.name, file_hash=loaded.file_hash, at=now
        )

    def bindable_named(self, name: str) -> Path | None:
        """The campaign file a ``!campaign NAME`` line names (its name or file name)."""
        wanted = name.strip().casefold()
        for path in self.bindable:
            try:
                loaded = self.load(path).campaign
            except ConfigError:
                continue
            if wanted in (loaded.name.casefold(), path.stem.casefold()):
                return path
        return None

    def campaign_at(self, key: str, stored: Path) -> Campaign | None:
        """The campaign thread ``key`` runs (the config's file, else ``stored``, the one it
        started with); None if it does not load and never did in this process."""
        path = self._configured.get(key, stored)
        try:
            return self.load(path).campaign
        except ConfigError:
            return self.last_good(path)

    def campaign_of(self, repo: Repository, thread: ThreadRecord) -> Campaign:
        """The campaign a stored thread runs (from the config, else the file it started with)."""
        path = self._configured.get(thread.key)
        if path is None:
            path = Path(repo.campaign_by_id(thread.campaign_id).path)
        try:
            return self.load(path).campaign
        except ConfigError:
            older = self.last_good(path)
            if older is None:
                raise
            return older

    def last_good(self, path: Path) -> Campaign | None:
        """The last version of a campaign file that loaded, if any did in this process."""
        loaded = self._loaded.get(path)
        return loaded.campaign if loaded is not None else None


# A file last changed this long before it was looked at has settled: any later change gives
# it later timestamps (their grain is far finer), so an unchanged look means unchanged bytes.
SETTLED_NS = 2_000_000_000


def _look(path: Path) -> tuple[int, ...] | None:
    """What a stat tells of a regular file (inode, size, modified and changed times in ns),
    None for anything else or nothing there."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISREG(found.st_mode):
        return None
    return (found.st_ino, found.st_size, found.st_mtime_ns, found.st_ctime_ns, found.st_dev)
