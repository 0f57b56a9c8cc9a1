"""The readable tables written after each poll: the scene, each closed round's ledger entry and
the characters, and when the thread next falls due (for the scheduler)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from pbp.engine.report import RoundReport
from pbp.engine.state import EngineState
from pbp.render.replies import Replies
from pbp.services.ledger import LedgerBuilder
from pbp.store.repository import CharacterState, Repository
from pbp.store.schema import ThreadRow


def next_due(state: EngineState, *, now: datetime) -> datetime | None:
    """When time alone next changes the thread: its half-time reminder or its deadline."""
    rnd = state.round
    if rnd is None or rnd.deadline is None:
        return None
    half = rnd.opened_at + (rnd.deadline - rnd.opened_at) / 2
    due = rnd.deadline if rnd.reminded else half
    return due if due > now else None  # a deadline passed with no action waits for the GM


def ledger_of(repo: Repository, thread_id: int, state: EngineState,
              replies: Replies) -> dict[str, Any]:
    """The thread's ledger (SPEC §5) with the summaries as posted."""
    return LedgerBuilder(replies=replies, summaries=repo.summaries(thread_id)).build(state)


def save_projections(repo: Repository, thread: ThreadRow, state: EngineState, replies: Replies,
                     *, closed: Iterable[RoundReport], now: datetime) -> None:
    """Write the scene row and the due time; for each round ``closed`` in this poll, its
    ledger entry, and then the characters as they stand."""
    rnd = state.round
    repo.save_scene(thread.id, kind=state.scene_kind.value,
                    round_number=rnd.number if rnd else None,
                    deadline=rnd.deadline if rnd else None)
    thread.next_due_at = next_due(state, now=now)
    reports = list(closed)
    if not reports:
        return
    texts = repo.summaries(thread.id, numbers=[r.number for r in reports])
    builder = LedgerBuilder(replies=replies, summaries=texts)
    for report in reports:
        repo.save_round_ledger(thread.id, report.number,
                               json.dumps(builder.closed_round(report), ensure_ascii=False))
    repo.save_characters(thread.id, (
        CharacterState(name=name, side=c["side"], group=c["group"], status=c["status"],
                       data=json.dumps(c, ensure_ascii=False))
        for name, c in builder.characters(state).items()
    ))
