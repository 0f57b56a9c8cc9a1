"""The campaign files a bot runs: read again only when their bytes change, with the last
version that loaded kept for a file that stops loading (the thread goes on with it)."""

from __future__ import annotations

import hashlib
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

    @property
    def configured(self) -> Mapping[str, Path]:
        """The config's threads (key -> campaign file)."""
        return self._configured

    def configures(self, key: str) -> bool:
        """Whether the config lists the thread (a bound one runs without)."""
        return key in self._configured

    def load(self, path: Path) -> LoadedCampaign:
        """The campaign file as it is now (parsed again only when its bytes change)."""
        data = path.read_bytes() if path.is_file() else b""
        digest = hashlib.sha256(data).hexdigest()
        cached = self._loaded.get(path)
        if cached is not None and cached.file_hash == digest:
            return cached
        loaded = LoadedCampaign(file_hash=digest, campaign=load_campaign(path))
        self._loaded[path] = loaded
        return loaded

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
