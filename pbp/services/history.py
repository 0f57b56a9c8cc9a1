"""A thread's engine state: kept in memory between polls, snapshotted in the store, and
rebuilt from the snapshot plus the events logged after it.

The event log is the truth; the snapshot only saves replaying it from the start. A snapshot is
written every ``SNAPSHOT_EVERY`` events, and always right after an event the log cannot replay
by itself: a delete (the post's text is purged with it) and a campaign reload (the file may
change again). If a snapshot cannot be read (written by an incompatible pbp), the state is
rebuilt from the whole log; texts purged before then replay as empty posts.
"""

from __future__ import annotations

import logging
import pickle
import zlib
from collections.abc import Callable
from dataclasses import dataclass

from pbp.engine.effects import SummaryContent
from pbp.engine.events import (
    CampaignMoved,
    Event,
    PostArrived,
    PostDeleted,
    PostEdited,
    SheetPosted,
    Tick,
)
from pbp.engine.state import EngineState
from pbp.engine.step import DiceForRound, step
from pbp.store.records import ThreadChanges, ThreadRecord
from pbp.store.repository import LoggedEvent, Repository

log = logging.getLogger(__name__)

SNAPSHOT_FORMAT = 16  # bump when EngineState changes shape: old snapshots are then rebuilt
SNAPSHOT_EVERY = 100


@dataclass(slots=True)
class Cached:
    """A state in memory and the event number it is current at."""

    seq: int
    state: EngineState


def encode(state: EngineState) -> bytes:
    """A snapshot's bytes."""
    return zlib.compress(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL), 1)


def decode(blob: bytes) -> EngineState:
    """A snapshot's state (the blob was written by ``encode`` into our own database)."""
    state = pickle.loads(zlib.decompress(blob))
    if not isinstance(state, EngineState):
        raise TypeError(f"a snapshot holds {type(state).__name__}, not an engine state")
    return state


def to_event(logged: LoggedEvent) -> Event:
    """The engine event a log entry stands for."""
    body = logged.body if logged.body is not None else ""
    match logged.kind:
        case "post":
            assert logged.post_id is not None and logged.author is not None
            return PostArrived(
                post_id=logged.post_id, author=logged.author, at=logged.at, body=body
            )
        case "edit":
            assert logged.post_id is not None
            return PostEdited(post_id=logged.post_id, at=logged.at, body=body)
        case "delete":
            assert logged.post_id is not None
            return PostDeleted(post_id=logged.post_id, at=logged.at)
        case "moved":  # post_id holds the thread the campaign moved to
            assert logged.post_id is not None
            return CampaignMoved(at=logged.at, to=logged.post_id)
        case "sheet":  # version holds the round the cheat sheet was posted for
            assert logged.version is not None
            return SheetPosted(at=logged.at, round_number=logged.version)
        case _:
            return Tick(at=logged.at)


def load_state(
    repo: Repository,
    thread: ThreadRecord,
    *,
    cached: Cached | None,
    fresh: Callable[[], EngineState],
    dice: DiceForRound,
    closed: list[SummaryContent] | None = None,
) -> EngineState:
    """The thread's state after its last logged event.

    ``fresh`` gives the state of a thread before its first post (asked for only when nothing
    better is stored). Replayed events post nothing: their replies are in the outbox already;
    the rounds they close are added to ``closed``, so the store's rows of them can be written
    again (a row written by an older pbp may lack their rejected tags and posts).
    """
    if cached is not None and cached.seq == thread.last_seq:
        return cached.state
    start: tuple[EngineState, int] | None = None
    if thread.snapshot is not None and thread.snapshot_format == SNAPSHOT_FORMAT:
        try:
            start = decode(thread.snapshot), thread.snapshot_seq
        except Exception:  # an unreadable snapshot is rebuilt, never fatal
            log.warning("thread %s: snapshot unreadable, rebuilding from its log", thread.key)
    state, seq = start if start is not None else (fresh(), 0)
    for logged in repo.events_after(thread.id, seq):
        state, effects = step(state, to_event(logged), dice=dice, now=logged.at)
        if closed is not None:
            closed += [e.content for e in effects if isinstance(e.content, SummaryContent)]
    return state


def save_snapshot(changes: ThreadChanges, state: EngineState) -> None:
    """Make the state the thread's snapshot, current at its last event (kept with the
    thread's other changes)."""
    changes.snapshot = encode(state)
    changes.snapshot_seq = changes.last_seq
    changes.snapshot_format = SNAPSHOT_FORMAT


def save_start(repo: Repository, thread: ThreadRecord, state: EngineState) -> None:
    """Store the state a new thread starts from (the characters carried over) as its
    snapshot, current at its last event."""
    repo.save_snapshot(thread.id, blob=encode(state), seq=thread.last_seq, fmt=SNAPSHOT_FORMAT)
