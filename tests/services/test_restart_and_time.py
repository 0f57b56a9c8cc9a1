"""What survives a restart: deadlines, reminders, the state itself (snapshot and log)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from service_table import CAMPAIGN, SETUP, THREAD, Table, at

from pbp.services import cycle as cycle_module
from pbp.services.export import thread_markdown
from pbp.store.schema import RoundRow, ThreadRow


def test_a_deadline_that_passes_while_the_bot_is_stopped_closes_the_round_on_start(
    table: Table,
) -> None:
    table.post("gm_sam", SETUP + "\n!deadline 2h", 0)
    table.post("alice", "Aria swings. [physical: attack Goblin]", 1)
    table.poll(2)
    del table.bot  # the process stops; two hours and more pass
    restarted = table.restart()
    table.poll(300, bot=restarted)
    [closed, reopened] = table.ledger()["rounds"]
    assert closed["closed_by"] == "deadline"
    assert closed["closed_at"] == "2026-11-29T12:00:00+00:00"  # at the deadline, not the poll
    assert [a["actor"] for a in closed["actions"]] == ["Aria"]
    assert reopened["closed_by"] is None
    summaries = [r for r in table.replies() if "Round 1: results" in r.body]
    assert len(summaries) == 1


def test_the_half_time_reminder_is_sent_once_even_across_a_restart(table: Table) -> None:
    table.post("gm_sam", SETUP + "\n!deadline 4h", 0)
    table.post("alice", "[physical: attack Goblin]", 1)
    table.poll(2)
    table.poll(125)  # past half time (2 h)
    reminders = [r for r in table.replies() if (r.reply_key or "").startswith("reminder")]
    assert len(reminders) == 1 and "alice" not in reminders[0].body
    assert "u/bob (Bram)" in reminders[0].body
    table.restart()
    table.poll(130)
    table.poll(200)
    assert [r for r in table.replies() if (r.reply_key or "").startswith("reminder")] == reminders


def test_the_bot_knows_when_the_next_deadline_or_reminder_falls_due(table: Table) -> None:
    table.post("gm_sam", SETUP + "\n!deadline 4h", 0)
    table.poll(1)
    due = table.bot.next_due()
    assert due is not None and due.isoformat() == "2026-11-29T12:00:00+00:00"  # half time
    table.poll(121)
    due = table.bot.next_due()
    assert due is not None and due.isoformat() == "2026-11-29T14:00:00+00:00"  # the deadline


def test_a_restarted_bot_rebuilds_the_same_state_from_snapshot_and_log(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cycle_module, "SNAPSHOT_EVERY", 3)
    table.post("gm_sam", SETUP, 0)
    for minute in range(1, 8):
        table.post("alice" if minute % 2 else "bob", "[mental: attack Goblin]", minute)
        table.poll(minute + 0.5)
        if minute % 3 == 0:
            table.post("gm_sam", "!close", minute + 0.6)
            table.poll(minute + 0.7)
    before = table.ledger_json()
    with table.store.session() as s:
        thread = s.query(ThreadRow).one()
        assert thread.snapshot is not None and 0 < thread.snapshot_seq <= thread.last_seq
    assert table.ledger_json(table.restart()) == before


def test_a_long_thread_is_never_more_than_a_snapshot_spacing_behind_its_snapshot(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a new process's first poll replays what the log holds past the snapshot: however long
    # the thread, at most SNAPSHOT_EVERY events (not a share of its length)
    monkeypatch.setattr(cycle_module, "SNAPSHOT_EVERY", 5)
    table.post("gm_sam", SETUP, 0)
    gaps = []
    for minute in range(1, 121):
        if minute % 10 == 0:
            table.post("gm_sam", "!close", minute)
        else:
            table.post("alice" if minute % 2 else "bob", "[mental: attack Goblin]", minute)
        table.poll(minute + 0.5)
        with table.store.session() as s:
            thread = s.query(ThreadRow).one()
            gaps.append(thread.last_seq - thread.snapshot_seq)
    assert thread.last_seq >= 120
    assert max(gaps) < 5
    before = table.ledger_json()
    assert table.ledger_json(table.restart()) == before


def test_an_unreadable_snapshot_is_rebuilt_from_the_whole_log(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cycle_module, "SNAPSHOT_EVERY", 2)
    table.post("gm_sam", SETUP, 0)
    table.post("alice", "[physical: attack Goblin]", 1)
    table.post("bob", "[mental: attack Goblin]", 2)
    table.post("gm_sam", "!close", 3)
    table.poll(4)
    before = table.ledger_json()
    with table.store.session() as s:
        s.query(ThreadRow).one().snapshot = b"not a snapshot"
    assert table.ledger_json(table.restart()) == before


def test_a_restarted_bot_posts_nothing_twice(table: Table) -> None:
    table.post("gm_sam", SETUP, 0)
    table.post("bob", "[phisical: attack Goblin]", 1)
    table.poll(2)
    count = len(table.replies())
    table.restart()
    table.poll(3)
    assert len(table.replies()) == count


def test_a_thread_that_failed_catches_up_on_the_posts_the_listing_moved_past(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    table.post("gm_sam", SETUP, 0)
    table.poll(1)
    typo = table.post("bob", "[phisical: attack Goblin]", 2)
    with monkeypatch.context() as failing:  # every cycle of this poll fails
        failing.setattr(cycle_module.ThreadCycle, "run", _raising)
        report = table.bot.poll_once(at(3))
    assert report.errors == ["thread keep-1: RuntimeError: database went away"]
    table.poll(4)  # the listing has moved on; the thread reads itself whole
    assert len(table.reply_to(typo)) == 1


def _raising(self: Any, posts: Any, report: Any, **more: Any) -> int:
    raise RuntimeError("database went away")


def test_a_restarted_bot_rebuilds_rolled_dice_from_the_stored_seeds(tmp_path: Path) -> None:
    d20 = CAMPAIGN.replace('visibility = "open"', 'visibility = "open"\nruleset = "d20"')
    table = Table(tmp_path, campaign=d20)
    table.post("alice", "[check: Climb +4 vs 14]", 0)
    table.post("bob", "[roll: 2d6+1]", 1)
    table.post("gm_sam", "!close", 2)
    table.poll(3)
    before = table.ledger_json()
    assert '"roll"' in before
    assert table.ledger_json(table.restart()) == before  # replayed from the log, same dice


def test_closed_rounds_are_read_back_from_the_store_and_rewritten_when_the_state_is_rebuilt(
    table: Table,
) -> None:
    table.post("gm_sam", SETUP, 0)
    for number in range(1, 4):
        table.post("alice", f"Aria swings {number}. [physical: attack Goblin]", number * 10)
        table.post("bob", "[phisical: attack Goblin]", number * 10 + 1)  # rejected
        table.post("gm_sam", "!close", number * 10 + 2)
        table.poll(number * 10 + 3)
    before = table.ledger_json()
    assert [r["round"] for r in table.ledger()["rejected"]] == [1, 2, 3]
    transcript = thread_markdown(table.bot, THREAD)
    assert "Aria swings 1." in transcript and "Aria swings 3." in transcript
    with table.store.session() as s:  # rows as an older pbp wrote them, and no snapshot
        for row in s.query(RoundRow).filter(RoundRow.ledger.is_not(None)):
            entry = json.loads(row.ledger)
            row.ledger = json.dumps(
                {k: v for k, v in entry.items() if k not in ("rejected", "posts")}
            )
        s.query(ThreadRow).one().snapshot = None
    table.restart()
    table.post("alice", "Aria waits.", 40)
    table.poll(41)  # the state is rebuilt from the log: its closed rounds are written again
    assert json.loads(table.ledger_json())["rejected"] == json.loads(before)["rejected"]
    assert thread_markdown(table.bot, THREAD).count("Aria swings") == 3
