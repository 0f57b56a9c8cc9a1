"""The engine works out deadlines without overflowing, whatever time an event carries."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from engine_helpers import BOT, make_campaign

from pbp.engine.effects import SummaryContent
from pbp.engine.events import PostArrived, Tick
from pbp.engine.step import initial_state, step
from pbp.engine.times import LATEST, later
from pbp.rules.dice.seeded import SeededDice
from pbp.rules.dice.source import Dice

LAST = datetime.max.replace(tzinfo=UTC)


def _dice(number: int) -> Dice:
    return SeededDice(f"seed-{number}")


def test_later_adds_and_saturates_at_the_last_moment_there_is() -> None:
    start = datetime(2026, 11, 29, 10, 0, tzinfo=UTC)
    assert later(start, timedelta(hours=48)) == datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
    assert later(LAST - timedelta(hours=1), timedelta(hours=48)) == LAST
    assert later(LAST, timedelta(0)) == LAST
    assert later(LAST, timedelta(days=-1)) == LAST - timedelta(days=1)
    # the shell's last accepted time leaves room for every duration the bot adds
    assert later(LATEST, timedelta(days=365 * 100)) < LAST


def test_a_deadline_set_at_the_end_of_the_calendar_saturates_instead_of_overflowing() -> None:
    far = datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC)
    state = initial_state(make_campaign(), bot=BOT, ack="errors")
    state, _ = step(
        state,
        PostArrived(post_id="p1", author="gm_sam", at=far, body="!deadline 48h"),
        dice=_dice,
        now=far,
    )
    assert state.round is not None and state.round.deadline == LAST
    state, _ = step(
        state,
        PostArrived(post_id="p2", author="alice", at=far, body="[move: Goblin]"),
        dice=_dice,
        now=far,
    )
    state, effects = step(
        state,
        PostArrived(post_id="p3", author="gm_sam", at=far, body="!close"),
        dice=_dice,
        now=far,
    )
    assert [e for e in effects if isinstance(e.content, SummaryContent)]
    assert state.round is not None and state.round.number == 2
    assert state.round.deadline == LAST  # the next round's deadline, from the same 48 h
    state, _ = step(state, Tick(at=LAST), dice=_dice, now=LAST)  # due at last: no overflow
    assert state.round.number == 2  # no one acted in round 2: it waits for the GM
