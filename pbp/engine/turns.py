"""Waiting for the players (issue 29): the reminders at the times the campaign sets, the
grace after a deadline, the early close when everyone has acted, the turn board of the
thread's opening post, and when time alone next changes a thread.

Pure: time comes in as the events' times.
"""

from __future__ import annotations

from datetime import datetime

from pbp.campaign.turns import HALF_TIME, RemindAt
from pbp.engine.effects import (
    CheatSheetContent,
    EditReply,
    Effect,
    PrivateReply,
    ReminderContent,
    Reply,
)
from pbp.engine.last_answer import keeps_last_answer
from pbp.engine.lazy_dice import DiceForRound
from pbp.engine.orders import TurnBoard
from pbp.engine.private import private_key
from pbp.engine.reading import Parse
from pbp.engine.rounds import close_round
from pbp.engine.standing import acted, ordered, waiting
from pbp.engine.state import EngineState, OpenRound
from pbp.engine.times import later
from pbp.values import replace

ALL_ACTED = "all-acted"  # a round's closed_by when it closed as soon as everyone had acted


def missing(state: EngineState, rnd: OpenRound) -> list[tuple[str, str]]:
    """(player, character) pairs of the player characters still to act this round: no action,
    no standing order, not out."""
    done = acted(rnd) | set(ordered(state, rnd))
    names = set(waiting(state, rnd))
    return [
        (c.player, c.name)
        for c in state.campaign.characters
        if c.player is not None and c.name in names and c.name not in done
    ]


def _pcs(state: EngineState, rnd: OpenRound) -> list[str]:
    names = set(waiting(state, rnd))
    return [c.name for c in state.campaign.characters if c.player is not None and c.name in names]


def closes_at(state: EngineState, rnd: OpenRound) -> datetime | None:
    """When the round closes by itself as things stand: its deadline, or the end of its
    grace while someone is still to act (None: no deadline)."""
    if rnd.deadline is None:
        return None
    grace = rnd.grace_until
    return grace if grace is not None and missing(state, rnd) else rnd.deadline


def reminder_times(state: EngineState, rnd: OpenRound) -> list[tuple[RemindAt, datetime]]:
    """Each reminder time of the campaign in this round, and when it falls (none without a
    deadline, or with ``remind = "off"``)."""
    if rnd.deadline is None or state.campaign.turns.remind == "off":
        return []
    span = rnd.deadline - rnd.opened_at
    times: list[tuple[RemindAt, datetime]] = []
    for spec in state.campaign.turns.remind_at:
        if spec.share is not None:
            times.append((spec, rnd.opened_at + span * spec.share / 100))
        elif spec.before is not None:
            times.append((spec, later(rnd.deadline, -spec.before)))
    return [(s, t) for s, t in times if t >= rnd.opened_at]


def remind(state: EngineState, rnd: OpenRound, at: datetime, effects: list[Effect]) -> EngineState:
    """The reminders whose time has come, each once a round: the latest of them is sent (one
    nudge, not several, after the bot was down), the others count as sent."""
    due = [(s, t) for s, t in reminder_times(state, rnd) if t <= at and s.text not in rnd.reminded]
    if not due or at >= (rnd.deadline or at):
        return state
    spec, _ = max(due, key=lambda pair: pair[1])
    effects += reminders(state, rnd, spec=spec.text, key=_key(rnd, spec))
    done = (*rnd.reminded, *(s.text for s, _ in due))
    return replace(state, round=replace(rnd, reminded=done))


def _key(rnd: OpenRound, spec: RemindAt) -> str:
    return (
        f"reminder-{rnd.number}" if spec.text == HALF_TIME else f"reminder-{rnd.number}-{spec.slug}"
    )


def reminders(
    state: EngineState, rnd: OpenRound, *, spec: str, key: str, grace: bool = False
) -> list[Effect]:
    """The players still to act told so, by mention (a few a reply, as the forum notifies)
    or by private message, as the campaign says."""
    assert rnd.deadline is not None
    todo = missing(state, rnd)
    players = list(dict.fromkeys(p for p, _ in todo))
    until = rnd.grace_until if grace else rnd.deadline
    assert until is not None

    def content(chunk: tuple[str, ...]) -> ReminderContent:
        names = tuple(n for p, n in todo if p in chunk)
        owners = tuple(p for p, _n in todo if p in chunk)
        return ReminderContent(players=chunk, characters=names, owners=owners, deadline=until,
                               spec=spec, grace=grace)  # fmt: skip

    if state.campaign.turns.remind == "private":
        return [PrivateReply(key=private_key(p, key), to=p, content=content((p,))) for p in players]
    per = state.mentions_per_post
    return [
        Reply(key=f"{key}-{i // per + 1}", to=None, content=content(tuple(players[i : i + per])))
        for i in range(0, len(players), per)
    ]


def in_grace(rnd: OpenRound, at: datetime) -> bool:
    """Whether ``at`` falls in the round's grace (its deadline passed, the nudge sent)."""
    return rnd.nudged and rnd.deadline is not None and at >= rnd.deadline


def early_close(
    state: EngineState,
    at: datetime,
    effects: list[Effect],
    *,
    dice: DiceForRound,
    parse: Parse,
) -> EngineState:
    """The round closed at ``at`` when everyone has acted (or has a standing order) and the
    campaign closes then (``close_when_all_acted``), or the round is in its grace."""
    rnd = state.round
    if rnd is None or not rnd.has_actions:
        return state
    if not (state.campaign.turns.close_when_all_acted or in_grace(rnd, at)):
        return state
    if not _pcs(state, rnd) or missing(state, rnd):
        return state
    state, more = close_round(
        state, at=at, closed_by=ALL_ACTED, reply_to=None, dice=dice, parse=parse
    )
    effects += more
    return state


@keeps_last_answer  # (a step's state after is the next one's before)
def board(state: EngineState) -> TurnBoard | None:
    """The turn board of the open round, when the campaign shows one."""
    rnd = state.round
    if rnd is None or not state.campaign.turns.turn_board:
        return None
    pcs = _pcs(state, rnd)
    done = acted(rnd)
    orders = set(ordered(state, rnd))
    return TurnBoard(
        round_number=rnd.number,
        deadline=rnd.deadline,
        grace_until=rnd.grace_until if rnd.nudged else None,
        acted=tuple(n for n in pcs if n in done),
        to_act=tuple(n for n in pcs if n not in done and n not in orders),
        standing=tuple(n for n in pcs if n in orders),
    )


def with_board(
    before: TurnBoard | None, state: EngineState, effects: tuple[Effect, ...]
) -> tuple[Effect, ...]:
    """``effects`` with the opening post showing the board as ``state`` has it: every
    cheat-sheet they hold shows it, and one edit is added when it changed and none does."""
    now = board(state)
    if now is None:
        return effects
    out: list[Effect] = []
    shown = False
    for effect in effects:
        if isinstance(effect, Reply | EditReply) and isinstance(effect.content, CheatSheetContent):
            effect = replace(effect, content=replace(effect.content, board=now))
            shown = True
        out.append(effect)
    if not shown and now != before and state.round is not None:
        out.append(
            EditReply(
                key="cheatsheet",
                content=CheatSheetContent(round_number=state.sheet_round, board=now),
            )
        )
    return tuple(out)


def next_due(state: EngineState, *, now: datetime) -> datetime | None:
    """When time alone next changes the thread: a reminder, the deadline, the end of a grace."""
    rnd = state.round
    if rnd is None or rnd.deadline is None:
        return None
    times = [t for s, t in reminder_times(state, rnd) if s.text not in rnd.reminded]
    times = [t for t in times if t < rnd.deadline]
    if not rnd.nudged:
        times.append(rnd.deadline)
    elif rnd.grace_until is not None:
        times.append(rnd.grace_until)
    future = [t for t in times if t > now]
    return min(future) if future else None  # a deadline passed with no action waits for the GM
