"""What the steps of a poll share (the ingest, each thread's cycle, the delivery): the store,
the forum, the settings and the bot's few pieces, each with one job. A value handed to each
step, so that no step calls back into the bot."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import field
from pathlib import Path

from pbp.campaign.model import Campaign
from pbp.forums.base import Forum
from pbp.render.environment import look_again, shared_environment
from pbp.render.replies import Replies
from pbp.services.campaign_files import CampaignFiles
from pbp.services.polling import BotOptions, Listed
from pbp.services.state_cache import StateCache
from pbp.services.thread_directory import ThreadDirectory
from pbp.services.work_claims import WorkClaims
from pbp.store.database import Store
from pbp.values import frozen_value


@frozen_value(kw_only=False)
class Renderers:
    """The renderer of a campaign's replies (its template overrides included); ``reload``:
    an edited template file is read again (off in a replay, which compiles each once)."""

    reload: bool = True

    def for_campaign(self, campaign: Campaign, seed_for: Callable[[int], str | None]) -> Replies:
        """The renderer of one thread's replies in one cycle (or of one page); reloading, the
        template files are looked at again once for it, not at each include."""
        templates = Path(campaign.templates) if campaign.templates else None
        if self.reload:
            look_again()
        return Replies(env=shared_environment(templates, reload=self.reload), seed_for=seed_for)


@frozen_value
class PollContext:
    """The bot's parts, as each step of a poll sees them."""

    store: Store
    forum: Forum
    options: BotOptions
    campaigns: CampaignFiles
    states: StateCache
    threads: ThreadDirectory
    claims: WorkClaims
    renderers: Renderers
    seed_maker: Callable[[str, int], str]  # a new round's seed (thread key, round number)
    stopping: Callable[[], bool]  # whether a stop was asked for: finish the post in hand
    looked_at: set[str] = field(default_factory=set)  # unwatched threads whose opening was read
    listed: Listed = field(default_factory=Listed)  # where this process's listing stopped
