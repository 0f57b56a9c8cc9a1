"""Which worker runs which thread: the leases a worker holds, its fair share of the threads
among the live workers, and the heartbeat that keeps its leases (SPEC §9)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime

from pbp.services.campaign_files import CampaignFiles
from pbp.services.polling import BotOptions, PollReport
from pbp.store.database import Store, StoreGone
from pbp.store.leases import Leases, Seen, ThreadWork


class WorkClaims:
    """One worker's claims on the threads of one forum."""

    def __init__(
        self, store: Store, *, forum: str, options: BotOptions, campaigns: CampaignFiles
    ) -> None:
        self._store, self._forum, self._options = store, forum, options
        self._campaigns = campaigns
        self._beaten: datetime | None = None  # this process's last beat, committed
        # the threads this worker took or was last seen to hold (a guess: ``seen`` checks it)
        self.mine: set[int] = set()

    def beat_due(self, now: datetime) -> bool:
        """Whether this worker's beat is due: half its lease has passed since the last one
        this process committed (its leases last at least that long still), or none was."""
        last = self._beaten
        return last is None or not last <= now < last + self._options.lease / 2

    def beat(self, leases: Leases, *, now: datetime) -> None:
        """This worker is alive: its leases last another ``lease`` (the ingest's first step;
        ``beaten`` once it commits)."""
        leases.beat(
            name=self._options.owner, forum=self._forum, now=now, until=now + self._options.lease
        )

    def beaten(self, now: datetime) -> None:
        """The beat of ``now`` is committed."""
        self._beaten = now

    def seen(
        self,
        leases: Leases,
        *,
        now: datetime,
        mine: Sequence[int] = (),
        posts: Sequence[str] = (),
    ) -> Seen:
        """What ``claim`` decides from, read in the unit of work of ``leases`` (the threads with
        work, the live workers, the thread counts), with the rows of the threads ``mine``
        this worker holds and the versions known of ``posts`` in them (``Leases.seen``)."""
        return leases.seen(
            self._forum,
            owner=self._options.owner,
            now=now,
            seen_since=now - self._options.lease,
            mine=mine,
            posts=posts,
        )

    def claim(
        self, now: datetime, report: PollReport, seen: Seen | None = None
    ) -> tuple[int, int, list[ThreadWork]]:
        """This worker's share of the threads, how many it holds, and the threads with work it
        holds now (taking free ones, expired ones and dead workers' ones under its share).
        ``seen``: what a unit of work of this poll read (else it is read now)."""
        me, alive = self._options.owner, self._options.owner_alive
        if seen is None:
            with self._store.session() as s:
                seen = self.seen(Leases(s), now=now)
        live = [w for w in seen.live if w == me or alive(w)]
        total, held, work = seen.total, seen.held, seen.work
        share = math.ceil(total / max(1, len(live)))
        mine: list[ThreadWork] = []
        for item in work:
            if not (item.bound or self._campaigns.configures(item.key)):
                continue  # taken out of the config: left alone
            if item.owner == me:
                mine.append(item)
                self.mine.add(item.id)
                continue
            self.mine.discard(item.id)
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
                self.mine.add(item.id)
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
                given_up = (idle + busy)[:extra]
                leases.release(given_up, owner=self._options.owner)
                self.mine.difference_update(given_up)

    def release(self) -> None:
        """Give up this worker's threads and leave the workers' list (on a clean stop)."""
        try:
            self._store.check_present()
        except StoreGone:
            return  # nothing to give up in a database that is gone (and none to make anew)
        with self._store.session() as s:
            Leases(s).leave(name=self._options.owner)
        self.mine.clear()
