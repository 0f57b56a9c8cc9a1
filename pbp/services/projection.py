"""The readable tables written after each poll: each closed round's ledger entry (with its
rejected tags and its posts) and the characters; and what the thread's row holds of the scene
and when the thread next falls due (for the scheduler).

The closed rounds live here, not in the engine state: the ledger and the transcript of a thread
read them back from the store."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from datetime import datetime
from typing import Any

from pbp.engine import turns
from pbp.engine.effects import SummaryContent
from pbp.engine.state import EngineState, PostRecord
from pbp.render.replies import Replies
from pbp.services.ledger import ClosedEntry, LedgerBuilder
from pbp.store.repository import CharacterState, Repository
from pbp.values import frozen_value


def next_due(state: EngineState, *, now: datetime) -> datetime | None:
    """When time alone next changes the thread: a reminder, its deadline or the end of its
    grace (``engine.turns``)."""
    if state.moved_to is not None:
        return None  # a thread its campaign left has no deadline of its own
    return turns.next_due(state, now=now)


def post_entry(post: PostRecord) -> dict[str, Any]:
    """A post as the transcript shows it (deleted posts have no text)."""
    return {
        "post": post.post_id,
        "author": post.author,
        "at": post.at.isoformat(),
        "edited": post.edited,
        "deleted": post.deleted,
        "body": post.body,
        "commands": [c.source.text for c in post.commands],  # as read: the first version
        **({"standing": post.standing} if post.standing is not None else {}),
    }


@frozen_value(kw_only=False)
class StoredRound:
    """A closed round as the store keeps it: its ledger entries and its posts."""

    entry: ClosedEntry
    posts: list[dict[str, Any]]


def stored_rounds(repo: Repository, thread_id: int, state: EngineState) -> Iterator[StoredRound]:
    """The thread's closed rounds, in order: those before its open round (a round re-opened by
    ``!undo`` keeps its old row until it closes again), read from the store a page at a time as
    they are taken (inside the unit of work of ``repo``), each made a round only when its turn
    comes."""
    before = state.round.number if state.round is not None else 1
    return map(_stored_round, repo.round_ledgers(thread_id, before=before))


def _stored_round(data: str) -> StoredRound:
    entry = json.loads(data)
    rejected, posts = entry.pop("rejected", []), entry.pop("posts", [])
    return StoredRound(entry=ClosedEntry(round=entry, rejected=rejected), posts=posts)


SceneValues = tuple[str, int | None, datetime | None]  # the scene: kind, round, deadline
Characters = Mapping[str, CharacterState]  # the character rows, by name


def scene_values(state: EngineState) -> SceneValues:
    """What the thread's row holds of the scene of ``state`` (``scene_kind``,
    ``scene_round``, ``scene_deadline``)."""
    rnd = state.round
    return (state.scene_kind.value, rnd.number if rnd else None, rnd.deadline if rnd else None)


def save_projections(
    repo: Repository,
    thread_id: int,
    state: EngineState,
    replies: Replies,
    *,
    closed: Iterable[SummaryContent],
    summaries: Mapping[int, str] | None = None,
    characters_stored: Characters | None = None,
) -> Characters | None:
    """For each round ``closed`` in this poll, write its ledger entry with its rejected tags
    and posts, and then the characters that changed (``summaries``: the texts of those
    rounds, when the caller has them; else they are read; ``characters_stored``: what the
    character rows hold, when the caller knows it; else they are read). What the character
    rows hold now, if known. (The scene is the thread row's: ``scene_values``.)"""
    contents = list(closed)
    if not contents:
        return characters_stored
    numbers = [c.report.number for c in contents]
    texts = (
        dict(summaries)
        if summaries is not None and all(n in summaries for n in numbers)
        else repo.summaries(thread_id, numbers=numbers)
    )
    builder = LedgerBuilder(replies=replies, summaries=texts)
    for content in contents:
        entry = builder.closed_entry(content.report)
        stored = {
            **entry.round,
            "rejected": entry.rejected,
            "posts": [post_entry(p) for p in content.posts],
        }
        repo.save_round_ledger(
            thread_id, content.report.number, json.dumps(stored, ensure_ascii=False)
        )
    characters = {
        name: CharacterState(
            name=name,
            side=c["side"],
            group=c["group"],
            status=c["status"],
            data=json.dumps(c, ensure_ascii=False),
        )
        for name, c in builder.characters(state).items()
    }
    repo.save_characters(thread_id, characters.values(), stored=characters_stored)
    return characters
