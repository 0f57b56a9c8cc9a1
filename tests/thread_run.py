"""A thread run through the pure engine and the renderer, in memory, with no store or forum:
the fast harness of the engine and golden tests (the bot itself runs ``pbp.services.bot``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from pbp.campaign.loader import parse_campaign
from pbp.campaign.model import Campaign
from pbp.engine.effects import (
    EditReply,
    Effect,
    PrivateReply,
    Reply,
    SummaryContent,
    UndoneContent,
)
from pbp.engine.events import Event, PostArrived
from pbp.engine.report import RoundReport
from pbp.engine.state import EngineState
from pbp.engine.step import initial_state, step
from pbp.render.environment import make_environment
from pbp.render.replies import Replies
from pbp.rules.dice.seeded import SeededDice
from pbp.rules.dice.source import Dice
from pbp.rulesets.distat.engine.model import ActionEntry, DistatRound, RosterReport
from pbp.rulesets.distat.rules import CharacterView
from pbp.services.ledger import LedgerBuilder, materialized
from pbp.services.seeds import round_seeds


class ClosedReports(dict[int, RoundReport]):
    """Each closed round's report, by number, from the summaries the engine sent (an undone
    round's is taken back): the engine state keeps only the rounds ``!undo`` can re-open, the
    bot keeps the rest in its store."""

    def see(self, effects: Iterable[Effect]) -> None:
        """Take in the summaries among ``effects``."""
        for effect in effects:
            content = effect.content
            if isinstance(content, SummaryContent):
                self[content.report.number] = content.report
            elif isinstance(content, UndoneContent):
                self.pop(content.report.number, None)


def engine_ledger(
    state: EngineState,
    reports: dict[int, RoundReport],
    *,
    replies: Replies,
    summaries: dict[int, str],
) -> dict[str, Any]:
    """The JSON ledger of a thread run in memory: ``reports`` stand for the store's rounds."""
    builder = LedgerBuilder(replies=replies, summaries=summaries)
    before = state.round.number if state.round is not None else 1
    closed = [builder.closed_entry(reports[n]) for n in sorted(reports) if n < before]
    return materialized(builder.streamed(state, closed))


@dataclass(slots=True)
class PostedReply:
    """A reply as the forum holds it: its key, the post it answers, its current text."""

    key: str
    to: str | None
    text: str
    at: datetime
    edits: int = 0


@dataclass(slots=True)
class ThreadRun:
    """A thread fed event by event: the engine state and every reply, in posting order."""

    state: EngineState
    replies: Replies
    posted: dict[str, PostedReply] = field(default_factory=dict)
    summaries: dict[int, str] = field(default_factory=dict)
    reports: ClosedReports = field(default_factory=ClosedReports)
    log: list[tuple[Event, list[PostedReply]]] = field(default_factory=list)
    # private messages, in sending order: (recipient, key, text)
    private: list[tuple[str, str, str]] = field(default_factory=list)

    def feed(self, event: Event) -> list[PostedReply]:
        """Apply one event; return the replies it posted or edited."""
        self.state, effects = step(self.state, event, dice=self._dice, now=event.at)
        self.reports.see(effects)
        for effect in effects:
            if isinstance(effect, PrivateReply):
                text = self.replies.render(effect.content, state=self.state, full=effect.full)
                self.private.append((effect.to, effect.key, text))
        done = [
            replace(self._perform(effect, event.at))
            for effect in effects  # snapshots
            if not isinstance(effect, PrivateReply)
        ]
        self.log.append((event, done))
        return done

    def _dice(self, number: int) -> Dice:
        seed = self.replies.seed_for(number)
        return SeededDice(seed or "")

    def _perform(self, effect: Reply | EditReply, at: datetime) -> PostedReply:
        text = self.replies.render(effect.content, state=self.state)
        if isinstance(effect.content, SummaryContent | UndoneContent):
            self.summaries[effect.content.report.number] = text
        match effect:
            case Reply():
                posted = PostedReply(key=effect.key, to=effect.to, text=text, at=at)
                self.posted[effect.key] = posted
                return posted
            case EditReply():
                old = self.posted.get(effect.key)
                if old is None:  # nothing to edit: post it instead, so nothing is lost
                    old = self.posted[effect.key] = PostedReply(
                        key=effect.key, to=None, text="", at=at
                    )
                old.text, old.edits = text, old.edits + 1
                return old


def new_run(
    campaign: Campaign,
    *,
    seed_for: Callable[[int], str | None],
    bot: str = "",
    ack: str = "errors",
    templates: Path | None = None,
) -> ThreadRun:
    """A thread of ``campaign`` before its first post."""
    env = make_environment(templates)
    return ThreadRun(
        state=initial_state(campaign, bot=bot, ack=ack), replies=Replies(env=env, seed_for=seed_for)
    )


def run_events(run: ThreadRun, events: Iterable[Event]) -> ThreadRun:
    """Feed every event in order."""
    for event in events:
        run.feed(event)
    return run


def play_posts(
    campaign: str,
    posts: Iterable[tuple[str, str]],
    *,
    seed: str = "1",
    start: datetime = datetime(2026, 11, 29, 10, 0, tzinfo=UTC),
) -> dict[str, str]:
    """A thread of the campaign file's text: each post (author, body) as ``p1``, ``p2`` … a
    minute apart; every reply's text by key, in the order posted."""
    run = new_run(
        parse_campaign(campaign, path="c.toml"), seed_for=round_seeds(seed), bot="pbp_bot"
    )
    for minute, (author, body) in enumerate(posts):
        run.feed(
            PostArrived(
                post_id=f"p{minute + 1}",
                author=author,
                body=body,
                at=start + timedelta(minutes=minute),
            )
        )
    return {key: reply.text for key, reply in run.posted.items()}


def actions_of(report: RoundReport) -> tuple[ActionEntry, ...]:
    """The Distat actions a round resolved (its part of the report), in resolution order."""
    part = report.parts.get(DistatRound)
    return part.actions if part is not None else ()


def characters_of(report: RoundReport) -> tuple[CharacterView, ...]:
    """The characters as the round left them (the roster's part of the report)."""
    part = report.parts.get(RosterReport)
    return part.characters if part is not None else ()
