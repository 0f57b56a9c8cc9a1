"""Helpers for the round-engine tests: a small campaign and ways to feed a thread.

Events are written as ``(kind, id, author, minute, body)`` tuples: ``kind`` is ``post``,
``edit``, ``delete`` or ``tick``; ``minute`` counts from 2026-11-29 10:00 UTC; ``body`` may
be left off (deletes, ticks).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from pbp.campaign.loader import parse_campaign
from pbp.campaign.model import Campaign
from pbp.engine.effects import Content, Effect, SummaryContent, UndoneContent
from pbp.engine.events import Event, PostArrived, PostDeleted, PostEdited, Tick
from pbp.engine.post_contents import DoneContent, ProblemsContent
from pbp.engine.state import EngineState
from pbp.engine.step import initial_state, step
from pbp.errors import Problem
from pbp.rules.dice.seeded import SeededDice
from pbp.rules.dice.source import Dice

START = datetime(2026, 11, 29, 10, 0, tzinfo=UTC)
BOT = "pbp_bot"

Row = tuple[Any, ...]  # (kind, id, author, minute, body); body may be left off

CAMPAIGN_TOML = """
[campaign]
name = "Test Keep"
gms = ["gm_sam"]
ruleset = "distat"
visibility = "{visibility}"

[[characters]]
name = "Aria"
player = "alice"
side = "party"
body = 5
mind = 3
bonus_pool = 2

[[characters]]
name = "Bram"
player = "bob"
side = "party"
body = 3
mind = 4

[[characters]]
name = "Cora"
player = "cara"
side = "party"
body = 4
mind = 2

[[characters]]
name = "Dax"
player = "cara"
side = "party"
body = 2
mind = 4

[[characters]]
name = "Goblin"
side = "foes"
body = 3
mind = 1

[[characters]]
name = "Ogre"
side = "foes"
body = 6
mind = 2
"""


def make_campaign(visibility: str = "hide-npcs") -> Campaign:
    """The test campaign: GM gm_sam; Aria, Bram, Cora and Dax (both cara's); Goblin and Ogre."""
    return parse_campaign(CAMPAIGN_TOML.format(visibility=visibility), path="t.toml")


def at(minute: float) -> datetime:
    """The time ``minute`` minutes after the thread starts."""
    return START + timedelta(minutes=minute)


def event_of(row: Row) -> Event:
    """One event from its tuple form."""
    kind, post_id, author, minute, body = (*row, None)[:5]
    match kind:
        case "post":
            assert post_id is not None and author is not None and body is not None
            return PostArrived(post_id=post_id, author=author, at=at(minute), body=body)
        case "edit":
            assert post_id is not None and body is not None
            return PostEdited(post_id=post_id, at=at(minute), body=body)
        case "delete":
            assert post_id is not None
            return PostDeleted(post_id=post_id, at=at(minute))
        case "tick":
            return Tick(at=at(minute))
    raise ValueError(f"unknown event kind {kind!r}")


def problems_in(content: Content) -> tuple[Problem, ...]:
    """The problems a reply says: an error reply's, or a GM post's reply's (the closing
    commands it refused, then its tags' problems)."""
    if isinstance(content, ProblemsContent):
        return content.problems
    if isinstance(content, DoneContent):
        return (*content.refused, *(problems_in(content.then) if content.then else ()))
    return ()


def _dice(number: int) -> Dice:
    return SeededDice(f"test-seed-{number}")


@dataclass
class EngineRun:
    """A thread fed straight through ``step``: the state and every effect, in order."""

    state: EngineState
    effects: list[Effect] = field(default_factory=list)
    per_event: list[tuple[Effect, ...]] = field(default_factory=list)
    reports: dict[int, Any] = field(default_factory=dict)

    def feed(self, rows: Iterable[Row]) -> EngineRun:
        """Feed more events."""
        for row in rows:
            event = event_of(row)
            self.state, done = step(self.state, event, dice=_dice, now=event.at)
            self.effects += done
            self.per_event.append(done)
            for effect in done:  # each closed round's report, as its summary gave it
                if isinstance(effect.content, SummaryContent):
                    self.reports[effect.content.report.number] = effect.content.report
                elif isinstance(effect.content, UndoneContent):
                    self.reports.pop(effect.content.report.number, None)
        return self

    def closed(self, number: int) -> Any:
        """The report of closed round ``number``."""
        return self.reports[number]

    def contents(self, kind: type) -> list[Any]:
        """The contents of every effect of that type."""
        return [e.content for e in self.effects if isinstance(e.content, kind)]

    def problems_said(self, post_id: str) -> tuple[Problem, ...]:
        """The problems the last reply (or edit) under ``post_id`` says."""
        said = [
            e.content
            for e in self.effects
            if isinstance(e.content, ProblemsContent | DoneContent) and e.content.post_id == post_id
        ]
        return problems_in(said[-1]) if said else ()


def play(
    rows: Iterable[Row], *, campaign: Campaign | None = None, ack: str = "errors"
) -> EngineRun:
    """Feed ``rows`` to a fresh thread of the test campaign through the engine alone."""
    state = initial_state(campaign or make_campaign(), bot=BOT, ack=ack)
    return EngineRun(state=state).feed(rows)


def thread(
    rows: Iterable[Row], *, campaign: Campaign | None = None, ack: str = "errors", seed: str = "1"
) -> Any:
    """Feed ``rows`` to a fresh thread with rendering (a ``ThreadRun``)."""
    from thread_run import new_run

    from pbp.services.seeds import round_seeds

    run = new_run(campaign or make_campaign(), seed_for=round_seeds(seed), bot=BOT, ack=ack)
    for row in rows:
        run.feed(event_of(row))
    return run


def ledger(run: Any) -> dict[str, Any]:
    """The JSON ledger of a ``ThreadRun``."""
    from thread_run import engine_ledger

    result: dict[str, Any] = engine_ledger(
        run.state, run.reports, replies=run.replies, summaries=run.summaries
    )
    return result
