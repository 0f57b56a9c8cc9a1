"""`pbp replay` and `pbp demo`: a whole thread played through the bot's own services, on the
local forum, in a throw-away SQLite database (a file in a temporary folder: it lives only as
long as the run). What it prints is what the bot would post."""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from pbp.engine.events import Event, PostArrived, PostDeleted, PostEdited, Tick
from pbp.forums.local import LocalForum
from pbp.services import freed_memory
from pbp.services.bot import Bot, BotOptions, WatchedThread
from pbp.services.export import thread_ledger, write_ledger
from pbp.services.files import load_campaign
from pbp.services.outbox import Delivered, forum_key
from pbp.services.seeds import round_seeds
from pbp.store.database import Store
from pbp.store.local_posts import SqlLocalStorage
from pbp.store.repository import Repository

THREAD = "replay"
GIVE_BACK_EVERY = 1000  # events between two returns of freed memory (a few ms each)
BOT = "pbp_bot"


@dataclass(slots=True)
class _Clock:
    now: datetime | None = None

    def __call__(self) -> datetime:
        assert self.now is not None
        return self.now


@dataclass(slots=True)
class ReplayRun:
    """A thread being replayed: the bot, its forum, and what each event made it post."""

    bot: Bot
    forum: LocalForum
    clock: _Clock
    log: list[tuple[Event, list[Delivered]]] = field(default_factory=list)
    keep_log: bool = True  # False: ``log`` stays empty (`pbp replay` reads the store instead)
    polls: int = 0
    storage: SqlLocalStorage | None = None  # given: the puts between two polls in one go
    _batch: ExitStack | None = None

    def feed(self, event: Event) -> list[Delivered]:
        """Put one event on the forum, then poll as the bot would at that moment."""
        self.put(event)
        return self.poll(event)

    def put(self, event: Event) -> None:
        """Put one event on the forum without polling (it is there for the next poll)."""
        self.clock.now = event.at
        if self.storage is not None and self._batch is None:
            self._batch = ExitStack()
            self._batch.enter_context(self.storage.batch())
        try:
            self._put(event)
        except BaseException:
            self.settle(failed=True)
            raise

    def settle(self, *, failed: bool = False) -> None:
        """Commit the events put since the last poll (``failed``: drop them)."""
        batch, self._batch = self._batch, None
        if batch is None:
            return
        if failed:  # nothing half put stays
            batch.__exit__(RuntimeError, RuntimeError("a put failed"), None)
        else:
            batch.close()

    def _put(self, event: Event) -> None:
        match event:
            case PostArrived():
                self.forum.post(
                    thread=THREAD,
                    author=event.author,
                    body=event.body,
                    at=event.at,
                    post_id=event.post_id,
                )
            case PostEdited():
                self.forum.edit(event.post_id, body=event.body, at=event.at)
            case PostDeleted():
                self.forum.delete(event.post_id, at=event.at)
            case Tick():
                pass

    def poll(self, event: Event) -> list[Delivered]:
        """Poll at the time of ``event`` (the last one put on the forum)."""
        self.settle()
        self.clock.now = event.at
        report = self.bot.poll_once(event.at)
        done = report.delivered.get(THREAD, [])
        self.polls += 1
        if self.keep_log:
            self.log.append((event, done))
        return done

    def ledger(self) -> dict[str, Any]:
        """The ledger of SPEC §5."""
        return thread_ledger(self.bot, THREAD)

    def write_ledger(self, write: Callable[[str], object]) -> None:
        """The ledger of SPEC §5 written as JSON, a round at a time (``export.write_ledger``)."""
        write_ledger(self.bot, THREAD, write)

    def transcript(self) -> str:
        """Every reply the bot posted, in order, each under a line saying what it answers."""
        with self.bot.store.session() as s:
            rows = [
                r
                for r in Repository(s).replies(_thread_id(s))
                if r.status == "posted" and r.to_user is None
            ]  # in the thread only
            blocks = []
            for row in rows:
                where = f"reply to {row.to_post}" if row.to_post else "in the thread"
                edited = f" (edited {row.edits}x)" if row.edits else ""
                blocks.append(f"--- pbp, {where}{edited} [{forum_key(row)}]\n{row.text.rstrip()}\n")
        return "\n".join(blocks)


def _thread_id(session: Any) -> int:
    row = Repository(session).thread("local", THREAD)
    assert row is not None
    return row.id


@contextmanager
def replay_run(
    campaign: Path, *, seed: str, bot: str = BOT, ack: str = "errors", keep_log: bool = True
) -> Iterator[ReplayRun]:
    """A replay in a throw-away database, gone when the block ends. A campaign file that
    does not load is its ``ConfigError`` at once (the bot would only report it each poll).
    ``keep_log=False``: what each poll posted is not kept in memory (a long thread's)."""
    load_campaign(campaign)
    # a database file in a folder of its own, its tables made from the models at once (a
    # test holds them equal to the migrations): nothing of it outlives the run. A file, not
    # memory: the thread's rows stay in the system's file cache, out of the process, so a
    # long replay's memory does not grow with every post it stores
    folder = tempfile.TemporaryDirectory(prefix="pbp-replay-")
    store = Store(f"sqlite:///{Path(folder.name) / 'replay.db'}", durable=False)
    store.create_schema()
    clock = _Clock()
    storage = SqlLocalStorage(store)
    forum = LocalForum(storage, bot=bot, clock=clock)
    seeds = round_seeds(seed)
    runner = Bot(
        store=store,
        forum=forum,
        threads=[WatchedThread(key=THREAD, campaign=campaign)],
        options=BotOptions(username=bot, ack=ack, owner="replay", reload_templates=False),
        seed_maker=lambda _thread, number: seeds(number),
    )
    run = ReplayRun(bot=runner, forum=forum, clock=clock, keep_log=keep_log, storage=storage)
    try:
        yield run
        run.settle()
    finally:
        run.settle(failed=True)  # what a failed block left half put
        store.dispose()
        folder.cleanup()


def feed_all(run: ReplayRun, events: Iterable[Event]) -> ReplayRun:
    """Feed every event in order, polling as a bot would that watched the thread from its
    start and polls often: right after the first event, before a post that was put on the
    forum since the last poll is edited or deleted (so each version is read), and at every
    tick."""
    pending: set[str] = set()
    last: Event | None = None
    for number, event in enumerate(events):
        if number % GIVE_BACK_EVERY == GIVE_BACK_EVERY - 1:
            freed_memory.give_back()  # what the last events' posts and replies left free
        if number == 1 and last is not None and pending:
            run.poll(last)  # the bot watched from the first post: no round closes unseen
            pending.clear()
        if isinstance(event, PostEdited | PostDeleted) and event.post_id in pending:
            assert last is not None
            run.poll(last)
            pending.clear()
        run.put(event)
        last = event
        if isinstance(event, Tick):
            run.poll(event)
            pending.clear()
        elif isinstance(event, PostArrived | PostEdited):
            pending.add(event.post_id)
    if pending and last is not None:
        run.poll(last)
    run.settle()
    freed_memory.give_back()
    return run
