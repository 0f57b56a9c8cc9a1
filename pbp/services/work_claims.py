"""Which worker runs which thread: the leases a worker holds, its fair share of the threads
among the live workers, and the heartbeat that keeps its leases (SPEC §9)."""

from __future__ import annotations

import math
from datetime import datetime

from pbp.services.campaign_files import CampaignFiles
from pbp.services.polling import BotOptions, PollReport
from pbp.store.database import Store, StoreGone
from pbp.store.leases import Leases, ThreadWork


class WorkClaims:
    """One worker's claims on the threads of one forum."""

    def __init__(
        self, store: Store, *, forum: str, options: BotOptions, campaigns: CampaignFiles
    ) -> None:
        self._store, self._forum, self._options = store, forum, options
        self._campaigns = campaigns

    def beat(self, leases: Leases, *, now: datetime) -> None:
        """This worker is alive: its leases last another ``lease`` (the ingest's first step)."""
        leases.beat(
            name=self._options.owner, forum=self._forum, now=now, until=now + self._options.lease
        )

    def claim(self, now: datetime, report: PollReport) -> tuple[int, int, list[ThreadWork]]:
        """This worker's share of the threads, how many it holds, and the threads with work it
        holds now (taking free ones, expired ones and dead workers' ones under its share)."""
        me, alive = self._options.owner, self._options.owner_alive
        with self._store.session() as s:
            leases = Leases(s)
            work = leases.with_work(self._forum, now=now)
            live = [
                w
                for w in leases.workers(self._forum, seen_since=now - self._options.lease)
                if w == me or alive(w)
            ]
            total, held = leases.counts(self._forum, owner=me)
        share = math.ceil(total / max(1, len(live)))
        mine: list[ThreadWork] = []
        for item in work:
            if not (item.bound or self._campaigns.configures(item.key)):
                continue  # taken out of the config: left alone
            if item.owner == me:
                mine.append(item)
                continue
            dead = item.owner is not None and (item.owner not in live or not alive(item.owner))
            expired = item.expires is not None and item.expires < now
            if item.owner is not None and not dead and not expired:
                report.skipped.append(f"{item.key} (run by {item.owner})")
                continue
            if held >= share:
                continue  # a worker with room takes it
            with self._store.session() as s:
                taken = Leases(s).claim(
                    item.id,
                    owner=me,
                    now=now,
                    until=now + self._options.lease,
                    dead=[item.owner] if dead and item.owner else [],
                )
            if taken:
                held += 1
                mine.append(item)
        return share, held, mine

    def shed(self, share: int, *, keep: set[int]) -> None:
        """Hold no more than the share: give up idle threads first (a new worker takes them)."""
        with self._store.session() as s:
            leases = Leases(s)
            held = leases.held(self._forum, owner=self._options.owner)
            extra = len(held) - share
            if extra > 0:
                idle = [t for t in held if t not in keep]
                busy = [t for t in held if t in keep]
                leases.release((idle + busy)[:extra], owner=self._options.owner)

    def release(self) -> None:
        """Give up this worker's threads and leave the workers' list (on a clean stop)."""
        try:
            self._store.check_present()
        except StoreGone:
            return  # nothing to give up in a database that is gone (and none to make anew)
        with self._store.session() as s:
            Leases(s).leave(name=self._options.owner)
