"""The JSON ledger of a thread (SPEC §5): rounds, actions, characters, rejected tags."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from pbp.engine.report import Rejection, RoundReport
from pbp.engine.state import EngineState, OpenRound
from pbp.render.plain import plain
from pbp.render.problems import render_problem
from pbp.render.registry import ALL
from pbp.render.replies import Replies
from pbp.values import frozen_value


def materialized(ledger: dict[str, Any]) -> dict[str, Any]:
    """A ledger of ``LedgerBuilder.streamed`` with its iterators read into lists, in the
    order of its keys."""
    return {
        key: list(value) if isinstance(value, Iterator) else value for key, value in ledger.items()
    }


@frozen_value(kw_only=False)
class ClosedEntry:
    """A closed round as the ledger lists it: its entry in ``rounds`` and its rejected tags."""

    round: dict[str, Any]
    rejected: list[dict[str, Any]]


class LedgerBuilder:
    """Turns a thread's state into the ledger, with the texts the bot posted."""

    def __init__(self, *, replies: Replies, summaries: dict[int, str]) -> None:
        self._replies = replies
        self._summaries = summaries

    def _rejected(self, rejection: Rejection, number: int) -> dict[str, Any]:
        text = render_problem(rejection.problem, env=self._replies.env).strip()
        return {
            "post": rejection.post_id,
            "round": number,
            "tag": rejection.tag,
            "code": rejection.problem.code,
            "error": text,
        }

    def closed_round(self, report: RoundReport) -> dict[str, Any]:
        """A closed round's entry in ``rounds``."""
        return {
            "number": report.number,
            "scene": report.scene,
            "opened_at": report.opened_at.isoformat(),
            "closed_at": report.closed_at.isoformat(),
            "closed_by": report.closed_by,
            "actions": [
                a for views in ALL for a in views.ledger_actions(report, self._replies.env)
            ],
            # RULES §7: every die of the summary is in the ledger, those of no action here
            "rolls": [plain(r) for views in ALL for r in views.ledger_rolls(report)],
            "corrections": plain(report.corrections),
            **{k: v for views in ALL for k, v in views.ledger_round(report).items()},
            "not_acted": list(report.not_acted),
            "edited_after_resolution": list(report.late_edits),
            "summary": self._summaries.get(report.number, ""),
        }

    def closed_entry(self, report: RoundReport) -> ClosedEntry:
        """A closed round's entry in ``rounds`` and its entries in ``rejected``."""
        return ClosedEntry(
            round=self.closed_round(report),
            rejected=[self._rejected(r, report.number) for r in report.rejected],
        )

    def _open(self, rnd: OpenRound) -> dict[str, Any]:
        return {
            "number": rnd.number,
            "opened_at": rnd.opened_at.isoformat(),
            "closed_by": None,
            "deadline": rnd.deadline.isoformat() if rnd.deadline else None,
            "actions": [],
            "summary": None,
        }

    def characters(self, state: EngineState) -> dict[str, Any]:
        """Every character of the scene as it stands, by name."""
        out: dict[str, Any] = {}
        # each ruleset's values (render.registry): the roster's Body and Mind first, banks, a
        # fight's pools
        for views in ALL:
            views.ledger_characters(state, out)
        return out

    def streamed(
        self,
        state: EngineState,
        closed: Iterable[ClosedEntry],
        *,
        closed_again: Callable[[], Iterable[ClosedEntry]] | None = None,
    ) -> dict[str, Any]:
        """The whole ledger (the ``closed`` rounds, in round order as the store keeps them, and
        the state's open round and characters), with its ``rounds`` and ``rejected`` lists as
        iterators, to be read in the order of the keys: ``rounds`` takes each of the ``closed``
        rounds as it comes (a long thread's rounds are never all held at once), and
        ``rejected`` lists the rejected tags of the rounds ``rounds`` went through, kept
        meanwhile; or, given ``closed_again`` (the same rounds read once more), of the rounds
        it reads, so that a long thread's rejected tags are never all held either."""
        rejected: list[dict[str, Any]] = []
        rounds_read = False

        def rounds() -> Iterator[dict[str, Any]]:
            nonlocal rounds_read
            for entry in closed:
                if closed_again is None:
                    rejected.extend(entry.rejected)
                yield entry.round
            if state.round is not None:
                yield self._open(state.round)
            rounds_read = True

        def rejections() -> Iterator[dict[str, Any]]:
            assert rounds_read, "the ledger's rounds are read before its rejected tags"
            if closed_again is None:
                yield from rejected
            else:
                for entry in closed_again():
                    yield from entry.rejected
            if state.round is not None:
                yield from (
                    self._rejected(
                        Rejection(post_id=p.post_id, tag=pr.tag, problem=pr), state.round.number
                    )
                    for p in state.round.posts
                    if p.live
                    for pr in (*p.command_problems, *p.problems)
                )

        return {
            "campaign": state.campaign.name,
            "scene": state.scene_kind.value,
            "rounds": rounds(),
            "characters": self.characters(state),
            "rejected": rejections(),
            "edited_after_resolution": list(state.late_edits),
        }
