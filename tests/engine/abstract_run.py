"""A thread of abstract intervals fed through ``step`` with the dice a test chooses, rendered.

Dice are either scripted per key (``{("p2", 0): [17, 6, 6, 4, 2, 1]}``: a tag's d20 then its
d6s; ``("p4", "cmd", 1)``: the ``!oppose`` on line 1 of post p4) or seeded from
``round_seeds(seed)`` as replays are; the summaries are rendered with the same seeds, so
``pbp verify`` can check them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine_helpers import BOT, Row, event_of, make_campaign, problems_in
from scripted_dice import ScriptedDice
from thread_run import ClosedReports, engine_ledger

from pbp.campaign.model import Campaign
from pbp.engine.effects import SummaryContent, UndoneContent
from pbp.engine.post_contents import DoneContent, ProblemsContent
from pbp.engine.report import RoundReport
from pbp.engine.state import EngineState
from pbp.engine.step import initial_state, step
from pbp.render.environment import make_environment
from pbp.render.replies import Replies
from pbp.rules.dice.seeded import Key, SeededDice
from pbp.rules.dice.source import Dice
from pbp.rulesets.abstract.engine.model import (
    AbstractEntry,
    AbstractRecord,
    AbstractReport,
    AbstractState,
    Opposition,
    Task,
)
from pbp.services.seeds import round_seeds

# the set-up post of most tests: a fresh abstract encounter and one public task
SETUP = "!encounter abstract interval 1 hour\n!task Breach the gate dc 20"
Post = tuple[str, str, str]  # (post id, author, body)


class Run:
    """An abstract thread: its state, the problems replied, each summary as posted."""

    def __init__(
        self,
        dice: Mapping[Key, Sequence[int]] | None = None,
        *,
        campaign: Campaign | None = None,
        seed: str = "seed",
    ) -> None:
        self.script = ScriptedDice(dice) if dice is not None else None
        self.seed = seed
        self.state: EngineState = initial_state(campaign or make_campaign(), bot=BOT)
        self.replies = Replies(env=make_environment(None), seed_for=self.seed_for)
        self.problems: list[ProblemsContent] = []
        self.summaries: dict[int, str] = {}
        self.reports = ClosedReports()
        self.minute = 0

    def seed_for(self, number: int) -> str:
        return round_seeds(self.seed)(number)

    def dice(self, number: int) -> Dice:
        return self.script if self.script is not None else SeededDice(self.seed_for(number))

    def feed(self, rows: Iterable[Row]) -> Run:
        for row in rows:
            event = event_of(row)
            self.state, effects = step(self.state, event, dice=self.dice, now=event.at)
            self.reports.see(effects)
            for effect in effects:
                content = effect.content
                if isinstance(content, ProblemsContent | DoneContent):
                    self._said(content)
                if isinstance(content, SummaryContent | UndoneContent):
                    text = self.replies.render(content, state=self.state)
                    self.summaries[content.report.number] = text
        return self

    def _said(self, content: ProblemsContent | DoneContent) -> None:
        """Keep the problems a post's reply says now (its last text: a GM post's reply may be
        posted, then edited with what its closing commands did), in the order first said."""
        said = ProblemsContent(post_id=content.post_id, problems=problems_in(content))
        at = next((i for i, c in enumerate(self.problems) if c.post_id == content.post_id), None)
        if at is not None:
            self.problems[at] = said
        elif said.problems:
            self.problems.append(said)

    def post(self, *posts: Post) -> Run:
        """Posts, one minute apart after the last."""
        rows: list[Row] = []
        for post_id, author, body in posts:
            self.minute += 1
            rows.append(("post", post_id, author, self.minute, body))
        return self.feed(rows)

    def report(self, number: int = 1) -> RoundReport:
        return self.reports[number]

    def entries(self, number: int = 1) -> tuple[AbstractEntry, ...]:
        abstract = self.report(number).parts.get(AbstractReport)
        return abstract.entries if abstract is not None else ()

    def records(self, number: int = 1) -> dict[str, AbstractRecord]:
        """Each character's ``[abstract:]`` record of round ``number``."""
        return {e.record.actor: e.record for e in self.entries(number)
                if e.record.verb == "abstract"}  # fmt: skip

    def bank(self, name: str) -> int:
        return self.state.slot(AbstractState).bank(name)

    def task(self, name: str) -> Task | None:
        return self.state.slot(AbstractState).task(name)

    def done_by(self, name: str) -> str | None:
        """Who completed the task ``name`` (which must exist)."""
        task = self.task(name)
        assert task is not None, f"no task {name}"
        return task.done_by

    def opposition(self, number: int = 1) -> tuple[Opposition, ...]:
        abstract = self.report(number).parts.get(AbstractReport)
        return abstract.opposition if abstract is not None else ()

    def codes(self) -> list[tuple[str, str]]:
        return [(p.code, getattr(p, "cause", "")) for c in self.problems for p in c.problems]

    def ledger(self) -> dict[str, Any]:
        return engine_ledger(
            self.state, self.reports, replies=self.replies, summaries=self.summaries
        )


def interval(
    *posts: Post,
    dice: Mapping[Key, Sequence[int]] | None = None,
    setup: str = SETUP,
    close: str = "!close",
    campaign: Campaign | None = None,
) -> Run:
    """The GM's set-up post p1, then ``posts``, then the GM's close post (id ``close``)."""
    run = Run(dice, campaign=campaign)
    run.post(("p1", "gm_sam", setup), *posts)
    return run.post(("close", "gm_sam", close)) if close else run


def pool(d20: int, *d6: int) -> list[int]:
    """A tag's scripted rolls: the skill d20, then its action dice."""
    return [d20, *d6]
