"""The JSON ledger of a thread (SPEC §5): rounds, actions, characters, rejected tags."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pbp.engine.report import ActionEntry, Rejection, RoundReport
from pbp.engine.state import EngineState, OpenRound
from pbp.render.plain import plain
from pbp.render.problems import render_problem
from pbp.render.registry import ALL
from pbp.render.replies import Replies
from pbp.rules import distat
from pbp.rules.distat import CharacterView


def _action(entry: ActionEntry, reason: str | None) -> dict[str, Any]:
    r = entry.record
    return {
        "post": entry.post_id,
        "author": entry.author,
        "tag": entry.tag,
        "actor": r.actor,
        "on_behalf": entry.on_behalf,
        "verb": r.verb,
        "maneuver": r.maneuver,
        "target": r.target,
        "stat": r.stat,
        "active": r.active,
        "passive": r.passive,
        "outcome": r.outcome,
        "damage": [
            {"character": d.character, "stat": d.stat, "amount": d.amount} for d in r.damage
        ],
        "reason": reason,
        "talent": r.talent,
        "effects": plain(r.effects),
    }


def _character(view: CharacterView) -> dict[str, Any]:
    def stat(s: Any) -> dict[str, int]:
        return {"full": s.full, "damage": s.damage, "eav": s.eav, "epv": s.epv}

    restrained = None
    if view.restrained is not None:
        r = view.restrained
        restrained = {"by": r.by, "stat": r.stat, "rounds": r.rounds}
    return {
        "side": view.side,
        "group": view.group,
        "status": view.status,
        "body": stat(view.body),
        "mind": stat(view.mind),
        "restrained": restrained,
        "bonus_pool": view.bonus_pool,
    }


@dataclass(frozen=True, slots=True)
class ClosedEntry:
    """A closed round as the ledger lists it: its entry in ``rounds`` and its rejected tags."""

    round: dict[str, Any]
    rejected: list[dict[str, Any]]


class LedgerBuilder:
    """Turns a thread's state into the ledger, with the texts the bot posted."""

    def __init__(self, *, replies: Replies, summaries: dict[int, str]) -> None:
        self._replies = replies
        self._summaries = summaries

    def _reason(self, entry: ActionEntry) -> str | None:
        violation = entry.record.reason
        if violation is None:
            return None
        template = self._replies.env.get_template("_macros.md.j2")
        return str(template.module.reason(violation)).strip()  # type: ignore[attr-defined]

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
            "actions": [_action(a, self._reason(a)) for a in report.actions]
            + [a for views in ALL for a in views.ledger_actions(report, self._replies.env)],
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
        scene = state.round.base if state.round is not None else state.scene
        out = {n: _character(distat.view(scene, n)) for n in distat.names(scene)}
        for views in ALL:  # each ruleset's values (render.registry): banks, a fight's pools
            views.ledger_characters(state, out)
        return out

    def build(self, state: EngineState, closed: Iterable[ClosedEntry]) -> dict[str, Any]:
        """The whole ledger: the ``closed`` rounds (in round order, as the store keeps them)
        and the state's open round and characters."""
        rounds: list[dict[str, Any]] = []
        rejected: list[dict[str, Any]] = []
        for entry in closed:
            rounds.append(entry.round)
            rejected += entry.rejected
        if state.round is not None:
            rounds.append(self._open(state.round))
            rejected += [
                self._rejected(
                    Rejection(post_id=p.post_id, tag=pr.tag, problem=pr), state.round.number
                )
                for p in state.round.posts
                if p.live
                for pr in (*p.command_problems, *p.problems)
            ]
        return {
            "campaign": state.campaign.name,
            "scene": state.scene_kind.value,
            "rounds": rounds,
            "characters": self.characters(state),
            "rejected": rejected,
            "edited_after_resolution": list(state.late_edits),
        }
