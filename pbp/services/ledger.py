"""The JSON ledger of a thread (SPEC §5): rounds, actions, characters, rejected tags."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields, is_dataclass
from typing import Any

from pbp.engine.abstract_model import AbstractEntry, AbstractReport
from pbp.engine.d20_model import D20Entry
from pbp.engine.markhor_model import MarkhorEntry, MarkhorReport
from pbp.engine.markhor_resolve import skirmish_formula, with_pools
from pbp.engine.report import ActionEntry, Rejection, RoundReport
from pbp.engine.state import EngineState, OpenRound
from pbp.render.problems import render_problem
from pbp.render.replies import Replies
from pbp.rules import distat
from pbp.rules.distat import CharacterView
from pbp.tags.model import SceneKind


def _plain(value: Any) -> Any:
    """A dataclass value as JSON-ready data (with its ``code`` when it has one)."""
    if is_dataclass(value) and not isinstance(value, type):
        data = {f.name: _plain(getattr(value, f.name)) for f in fields(value)
                if f.metadata.get("ledger", True)}
        code = getattr(value, "code", None)
        return {"code": code, **data} if isinstance(code, str) else data
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


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
        "effects": _plain(r.effects),
    }


def _d20_action(entry: D20Entry) -> dict[str, Any]:
    """A d20 tag's entry (SPEC §5: ``roll``, ``total`` and ``dc`` or the opponent's total):
    every field of its record, the rules' reason code as ``because``."""
    record = _plain(entry.record)
    because = record.pop("reason")  # met_dc, natural_20, tie_roll …
    return {
        "post": entry.post_id,
        "author": entry.author,
        "tag": entry.tag,
        "on_behalf": entry.on_behalf,
        "maneuver": None,
        **record,
        "modifiers": dict(entry.record.modifiers),
        "because": because,
        "damage": [],
        "reason": None,  # only a void action has a reason
    }


def _abstract(report: AbstractReport | None) -> dict[str, Any] | None:
    """The interval's opposition, banks, tasks and outlook (the GM's view: secret DCs too)."""
    if report is None:
        return None
    return {
        "opposition": [
            {"post": o.post_id, "task": o.task, "dice": list(o.dice), "pips": o.pips}
            for o in report.opposition
        ],
        "banks": dict(report.banks),
        "tasks": _plain(report.tasks),
        "outlook": [
            {"character": o.character, "task": o.task, "bank": o.bank,
             "odds": {str(k): float(p) for k, p in o.odds}}
            for o in report.outlook
        ],
    }  # fmt: skip


def _markhor(report: MarkhorReport | None) -> dict[str, Any] | None:
    """The round's initiative (when rolled), turn order, pools and how a skirmish ended."""
    if report is None:
        return None
    return {
        "mode": report.mode,
        "initiative": _plain(report.initiative),
        "order": list(report.order),
        "pools": {name: {"hp": p.hp, "wp": p.wp} for name, p in report.pools},
        "ended": report.ended,
    }


def _markhor_action(entry: MarkhorEntry) -> dict[str, Any]:
    """A skirmish or battle course: every field of its record, damage as SPEC §5 lists it."""
    record = _plain(entry.record)
    return {
        "post": entry.post_id,
        "author": entry.author,
        "tag": entry.tag,
        "on_behalf": entry.on_behalf,
        "maneuver": None,
        **record,
        "damage": [
            {"character": who, "stat": stat, "amount": amount}
            for who, stat, amount in entry.record.damage
        ],
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


def abstract_entries(report: RoundReport) -> tuple[AbstractEntry, ...]:
    """The abstract tags of a round, as resolved."""
    return report.abstract.entries if report.abstract is not None else ()


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

    def _abstract_action(self, entry: AbstractEntry) -> dict[str, Any]:
        """An abstract tag's entry (SPEC §5: roll, bonus, result, divisor, dice, pips_paid,
        bank_used, banked, bank, wasted, dc): every field of its record."""
        record = _plain(entry.record)
        reason = None
        if entry.record.outcome == "void":
            template = self._replies.env.get_template("_macros.md.j2")
            macro = template.module.abstract_reason  # type: ignore[attr-defined]
            reason = str(macro(record)).strip()
        return {
            "post": entry.post_id,
            "author": entry.author,
            "tag": entry.tag,
            "on_behalf": entry.on_behalf,
            "maneuver": None,
            **record,
            "because": record.pop("reason"),
            "damage": [],
            "reason": reason,
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
            + [_d20_action(a) for a in sorted(report.d20, key=lambda a: a.order)]
            + [self._abstract_action(a) for a in abstract_entries(report)]
            + [_markhor_action(a) for a in (report.markhor.entries if report.markhor else ())],
            "corrections": _plain(report.corrections),
            "abstract": _abstract(report.abstract),
            "fight": _markhor(report.markhor),
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
        banks = dict(state.abstract.banks)
        out = {n: _character(distat.view(scene, n)) for n in distat.names(scene)}
        fight = state.markhor
        if state.scene_kind in (SceneKind.SKIRMISH, SceneKind.BATTLE):
            # RULES M1: every entity has its pools from the start, before the first close
            entities = [(n, entry["side"]) for n, entry in out.items()]
            formula = skirmish_formula(state.campaign)
            fight = with_pools(fight, entities, state.scores, formula=formula)
        for name, entry in out.items():
            if name in banks:
                entry["bank"] = banks[name]  # RULES E6: the pips banked for later intervals
            pools = fight.pool(name)
            if pools is not None:  # SPEC §5: a skirmish's pools; a battle's real HP and WP
                entry[fight.mode] = {"hp": pools.hp, "wp": pools.wp, "out": pools.out}
                if pools.out:  # RULES M2: out of the fight once HP and WP are exhausted
                    entry["status"] = "out"
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
