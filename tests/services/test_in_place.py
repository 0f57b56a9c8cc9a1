"""A held thread's cycle run in the ingest's transaction (the local forum): the posts the
listing showed of it in hand, no inbox, the cursor kept at the worker's beat; and when that
goes wrong (the cycle fails, the lease was taken meanwhile), none of it kept and the poll done
the usual way, each post answered once."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from service_table import SETUP, THREAD, Table, at
from sql_counter import counting
from sqlalchemy import event, select, update
from sqlalchemy.orm import Session

from pbp.services import cycle as cycle_module
from pbp.store.leases import Leases
from pbp.store.repository import Repository
from pbp.store.schema import EventRow, PollCursorRow, PostVersionRow, ThreadRow


@contextmanager
def _statements(table: Table) -> Iterator[list[str]]:
    """The statements the store sends inside the block, as text."""
    sent: list[str] = []

    def hook(*args: Any) -> None:
        sent.append(" ".join(str(args[2]).split()))

    for engine in table.store.engines:
        event.listen(engine, "before_cursor_execute", hook)
    try:
        yield sent
    finally:
        for engine in table.store.engines:
            event.remove(engine, "before_cursor_execute", hook)


def _versions(table: Table, post_id: str) -> list[tuple[int, str]]:
    with table.store.session() as s:
        rows = s.execute(
            select(PostVersionRow.version, PostVersionRow.outcome).where(
                PostVersionRow.post_id == post_id
            )
        ).all()
    return [tuple(r) for r in rows]  # type: ignore[misc]


def test_a_held_thread_with_a_new_post_is_answered_in_the_ingest_without_the_inbox(
    table: Table,
) -> None:
    table.post("gm_sam", SETUP, 0)
    table.poll(1)  # the thread claimed and read
    typo = table.post("bob", "[phisical: attack Goblin]", 2)
    with _statements(table) as sent, counting(table.store) as counted:
        report = table.poll(3)
    assert report.events == 1 and [d.key for d in report.delivered[THREAD]] == [f"problems-{typo}"]
    assert counted.transactions == 1
    assert not [s for s in sent if "inbox" in s.split()]  # never through the inbox
    assert not [s for s in sent if "poll_cursors" in s]  # the cursor waits for the beat
    assert len(table.reply_to(typo)) == 1 and _versions(table, typo) == [(1, "handled")]


def test_the_cursor_is_kept_at_the_beat_and_a_restart_that_lists_again_doubles_nothing(
    table: Table,
) -> None:
    table.post("gm_sam", SETUP, 0)
    table.poll(1)
    typos = [table.post("bob", f"[phisical: attack Goblin] try {n}", 2 + n) for n in range(3)]
    for n in range(3):
        table.poll(2.5 + n)  # each post in place, the cursor left as it was
    with table.store.session() as s:
        stored = s.scalars(select(PollCursorRow.cursor)).one()
    assert stored != table.bot.context.listed.cursor  # behind: kept at the beat
    before = table.ledger_json()
    table.restart()  # lists again from the stored cursor: every post shown again, unchanged
    report = table.poll(10)
    assert report.events == 0 and report.delivered == {}
    assert [len(table.reply_to(t)) for t in typos] == [1, 1, 1]
    assert table.ledger_json() == before
    table.poll(10 + table.bot.options.lease.total_seconds() / 60)  # the beat: kept now
    with table.store.session() as s:
        assert s.scalars(select(PollCursorRow.cursor)).one() == table.bot.context.listed.cursor


def test_a_cycle_that_fails_in_place_runs_again_the_usual_way_in_the_same_poll(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    table.post("gm_sam", SETUP, 0)
    table.poll(1)
    real_run = cycle_module.ThreadCycle.run
    calls: list[int] = []

    def fails_once(self: Any, posts: Any, report: Any, **more: Any) -> int:
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("a moment's trouble")
        return int(real_run(self, posts, report, **more))

    monkeypatch.setattr(cycle_module.ThreadCycle, "run", fails_once)
    typo = table.post("bob", "[phisical: attack Goblin]", 2)
    report = table.poll(3)  # no error: the second run, the usual way, went through
    assert len(calls) == 2 and report.events == 1
    assert [d.key for d in report.delivered[THREAD]] == [f"problems-{typo}"]
    assert len(table.reply_to(typo)) == 1 and _versions(table, typo) == [(1, "handled")]


def _meanwhile(
    table: Table, monkeypatch: pytest.MonkeyPatch, another_worker: Callable[[Session, int], None]
) -> None:
    """The next cycle, once: ``another_worker`` (given its own session and the thread's id)
    commits first, while the cycle has its thread in hand; then the cycle runs."""
    real_run = cycle_module.ThreadCycle.run

    def meanwhile(self: Any, posts: Any, report: Any, **more: Any) -> int:
        with Session(table.store.engine) as other, other.begin():
            another_worker(other, self.thread_id)
        monkeypatch.setattr(cycle_module.ThreadCycle, "run", real_run)
        return int(real_run(self, posts, report, **more))

    monkeypatch.setattr(cycle_module.ThreadCycle, "run", meanwhile)


@pytest.mark.postgres
def test_a_lease_taken_while_the_cycle_ran_in_place_keeps_none_of_it(
    pg_table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = pg_table
    table.post("gm_sam", SETUP, 0)
    table.poll(1)  # w1 holds the thread

    def takes_the_lease(other: Session, thread_id: int) -> None:
        # another worker, alive, takes the lease (the row is not locked: the cycle read it
        # with the claims' query)
        other.execute(update(ThreadRow).values(lease_owner="w2", lease_expires=at(60)))
        Leases(other).beat(name="w2", forum="local", now=at(3), until=at(60))

    _meanwhile(table, monkeypatch, takes_the_lease)
    typo = table.post("bob", "[phisical: attack Goblin]", 2)
    report = table.poll(3)
    assert report.events == 0 and report.delivered == {}  # none of w1's cycle was kept
    assert report.skipped == [f"{THREAD} (run by w2)"]
    assert table.reply_to(typo) == [] and _versions(table, typo) == []
    w2 = table.restart(owner="w2")  # the post waits in the inbox for the worker that runs it
    report = table.poll(4, w2)
    assert report.events == 1 and len(table.reply_to(typo)) == 1
    with table.store.session() as s:
        thread = Repository(s).thread("local", THREAD)
        assert thread is not None and thread.lease_owner == "w2"


@pytest.mark.postgres
def test_a_campaign_moved_away_while_the_cycle_ran_in_place_is_told_in_the_same_poll(
    pg_table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = pg_table
    table.post("gm_sam", SETUP, 0)
    table.poll(1)

    def moves_the_campaign(other: Session, thread_id: int) -> None:
        # another worker binds the campaign to a new thread (``!campaign`` there)
        Repository(other).move_campaign(thread_id, to="keep-2", at=at(3))

    _meanwhile(table, monkeypatch, moves_the_campaign)
    typo = table.post("bob", "[phisical: attack Goblin]", 2)
    table.poll(3)  # the cycle in place kept nothing; the usual way saw the move
    with table.store.session() as s:
        kinds = s.scalars(select(EventRow.kind).order_by(EventRow.seq)).all()
    assert "moved" in kinds
    assert table.reply_to(typo) == []  # told of the move first: the thread is read no more


def test_a_thread_with_more_to_do_than_its_new_posts_goes_the_usual_way(
    table: Table,
) -> None:
    table.post("gm_sam", SETUP + "\n!deadline 1h", 0)
    table.poll(1)
    table.post("alice", "[physical: attack Goblin]", 2)
    late = table.post("bob", "[phisical: attack Goblin]", 70)  # written after the deadline
    with _statements(table) as sent:
        report = table.poll(70 + timedelta(minutes=1).total_seconds() / 60)
    assert [s for s in sent if s.startswith("DELETE FROM inbox")]  # taken from the inbox
    assert report.events >= 2 and len(table.reply_to(late)) == 1
    assert table.ledger()["rounds"][0]["closed_by"] == "deadline"


def test_an_edit_of_the_turn_board_in_place_is_delivered_from_what_its_update_returned(
    table: Table,
) -> None:
    table.post("gm_sam", SETUP, 0)
    table.poll(1)
    [sheet] = [r for r in table.replies() if r.reply_to is None]
    table.post("alice", "Aria swings. [physical: attack Goblin]", 2)
    with _statements(table) as sent:
        report = table.poll(3)
    assert [(d.key, d.edited) for d in report.delivered[THREAD]] == [("cheatsheet", True)]
    assert not [s for s in sent if s.startswith("SELECT replies")]  # not read back
    [after] = [r for r in table.replies() if r.reply_to is None]
    assert after.id == sheet.id and after.body != sheet.body  # the same post, edited
    with table.store.session() as s:
        repo = Repository(s)
        thread = repo.thread("local", THREAD)
        assert thread is not None
        [row] = [r for r in repo.replies(thread.id) if r.key == "cheatsheet"]
    assert (row.status, row.edits, row.text) == ("posted", 1, after.body)


def test_a_reply_written_twice_in_one_cycle_is_posted_once(table: Table) -> None:
    # the cycle's writes go out before a delete's purge and again at its end: the typo's
    # problem reply is written in the first batch and edited in the second
    table.post("gm_sam", SETUP, 0)
    chatter = table.post("alice", "Out of character: back tomorrow.", 1)
    table.poll(2)
    typo = table.post("bob", "[phisical: attack Goblin]", 3)
    table.delete(chatter, 4)
    table.post("gm_sam", f"!void {typo}", 5)
    report = table.poll(6)
    keys = [d.key for d in report.delivered[THREAD]]
    assert len(keys) == len(set(keys)), keys  # each reply delivered once
    assert len(table.reply_to(typo)) == 1


def test_a_stop_asked_during_a_cycle_in_place_leaves_the_posts_it_did_not_reach_waiting(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    table.post("gm_sam", SETUP, 0)
    table.poll(1)
    first = table.post("alice", "[phisical: attack Goblin]", 2)
    second = table.post("bob", "[mentl: attack Goblin]", 3)
    real_handle = cycle_module.ThreadCycle._handle

    def stop_after(self: Any, item: Any, report: Any) -> None:
        real_handle(self, item, report)
        table.bot.request_stop()  # a SIGTERM while the first post is in hand

    monkeypatch.setattr(cycle_module.ThreadCycle, "_handle", stop_after)
    report = table.poll(1 + table.bot.options.lease.total_seconds() / 60)  # a beat: the cursor
    with table.store.session() as s:  # is kept past both posts
        assert s.scalars(select(PollCursorRow.cursor)).one() == table.bot.context.listed.cursor
    assert report.events == 1 and len(table.reply_to(first)) == 1
    assert table.reply_to(second) == []
    monkeypatch.setattr(cycle_module.ThreadCycle, "_handle", real_handle)
    table.restart()
    table.poll(10 + table.bot.options.lease.total_seconds() / 60)  # the next start, its beat
    assert len(table.reply_to(first)) == 1 and len(table.reply_to(second)) == 1


def _rows(table: Table) -> list[dict[str, Any]]:
    """Every reply row, every column (as the delivery left it)."""
    with table.store.session() as s:
        repo = Repository(s)
        thread = repo.thread("local", THREAD)
        assert thread is not None
        return [asdict(r) for r in repo.replies(thread.id)]


def _play(table: Table) -> None:
    """A round with a typo, a reply to fix, the turn board edited and a close."""
    table.post("gm_sam", SETUP, 0)
    table.poll(1)
    typo = table.post("bob", "[phisical: attack Goblin]", 2)
    table.poll(3)
    table.post("alice", "Aria swings. [physical: attack Goblin]", 4)
    table.poll(5)
    table.edit(typo, "[physical: attack Goblin]", 6)
    table.poll(7)
    table.post("gm_sam", "!close", 8)
    table.poll(9)


def test_replies_posted_first_in_place_leave_the_rows_and_posts_of_the_usual_way(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "first").mkdir()
    (tmp_path / "usual").mkdir()
    first = Table(tmp_path / "first")
    with _statements(first) as sent:
        _play(first)
    assert [s for s in sent if s.startswith("INSERT INTO replies")]  # (posted first: some)
    monkeypatch.setattr(Repository, "post_first", lambda self: None)  # rows first, then marks
    usual = Table(tmp_path / "usual")
    _play(usual)
    assert _rows(first) == _rows(usual)
    assert [(p.id, p.body, p.reply_to, p.reply_key) for p in first.replies()] == [
        (p.id, p.body, p.reply_to, p.reply_key) for p in usual.replies()
    ]
    assert first.ledger_json() == usual.ledger_json()


def test_a_key_posted_before_goes_the_usual_way_with_its_next_revision(table: Table) -> None:
    # the summary of a round closed again after !undo is a key posted before: posted first
    # in place under its first revision's key, it is caught by the INSERT, and none of that
    # is kept; the usual way posts it as the key's second revision
    table.post("gm_sam", SETUP, 0)
    table.post("alice", "[physical: attack Goblin]", 1)
    table.poll(2)
    table.post("gm_sam", "!close", 3)
    table.poll(4)
    table.post("gm_sam", "!undo", 5)
    table.poll(6)
    table.post("gm_sam", "!close", 7)
    report = table.poll(8)
    assert not report.errors, report
    keys = [p.reply_key for p in table.replies()]
    assert len(keys) == len(set(keys)), keys  # nothing under one key twice
    summaries = [k for k in keys if k is not None and k.startswith("summary")]
    assert len(summaries) == 2 and summaries[1] == f"{summaries[0]}~2", summaries
    assert {row["status"] for row in _rows(table)} == {"posted"}


def _characters(table: Table) -> list[Any]:
    with table.store.session() as s:
        repo = Repository(s)
        thread = repo.thread("local", THREAD)
        assert thread is not None
        return sorted(repo.characters(thread.id), key=lambda c: c.name)


def test_a_close_writes_the_characters_it_changed_without_reading_them_back(
    tmp_path: Path,
) -> None:
    # the rows the last close left are known to the process that wrote them: a close reads
    # none; a restarted bot (nothing in memory) reads them first; both end the same
    (tmp_path / "warm").mkdir()
    (tmp_path / "cold").mkdir()
    warm, cold = Table(tmp_path / "warm"), Table(tmp_path / "cold")
    reads: list[list[str]] = []
    for table, restarts in ((warm, False), (cold, True)):
        table.post("gm_sam", SETUP, 0)
        table.poll(1)
        for n in range(3):
            minute = 2 + 4 * n
            table.post("alice", "Aria swings. [physical: attack Goblin]", minute)
            table.post("bob", "[mental: attack Goblin]", minute + 1)
            table.poll(minute + 1.5)
            if restarts:
                table.restart()
            # Aria's damage goes 1, 2, then back to 1: her row as at the first close
            change = "!heal Aria body 1" if n == 2 else "!damage Aria body 1"
            table.post("gm_sam", f"{change}\n!close", minute + 2)
            with _statements(table) as sent:
                table.poll(minute + 3)
            reads.append([s for s in sent if s.startswith("SELECT characters")])
    # warm: read at its first close, then known as its last close left them
    assert [len(r) for r in reads[:3]] == [1, 0, 0]
    assert [len(r) for r in reads[3:]] == [1, 1, 1]  # cold: read at every close
    assert _characters(warm) == _characters(cold) != []
