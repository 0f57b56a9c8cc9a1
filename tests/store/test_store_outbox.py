"""The store contract, part 3: the outbox (replies queued, revised, edited and attempted).
Each test runs on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone

import pytest
from sql_counter import counting
from sqlalchemy import select

from pbp.store import Store, keyed_replies
from pbp.store.repository import Repository, Sent
from pbp.store.schema import ReplyRow

T0 = datetime(2026, 11, 29, 10, 0, tzinfo=UTC)
NewThread = Callable[..., int]


def minutes(n: float) -> datetime:
    return T0 + timedelta(minutes=n)


def queue(store: Store, tid: int, key: str, text: str, *, to: str | None = None) -> int:
    with store.session() as s:
        repo = Repository(s)
        repo.queue_reply(thread_id=tid, key=key, to=to, text=text, at=T0)
        row = repo.latest_reply(tid, key)
        assert row is not None
        return row.id


def mark_posted(store: Store, reply_id: int) -> None:
    with store.session() as s:
        row = s.get(ReplyRow, reply_id)
        assert row is not None
        row.status, row.forum_reply_id, row.posted_at = "posted", "pbp-9", minutes(1)


def replies(store: Store, tid: int) -> list[tuple[str, int, str, str, int]]:
    with store.session() as s:
        return [(r.key, r.revision, r.text, r.status, r.edits) for r in Repository(s).replies(tid)]


def test_a_key_queued_again_gets_the_next_revision(store: Store, new_thread: NewThread) -> None:
    tid, other = new_thread("keep-1"), new_thread("keep-2")
    queue(store, tid, "summary-1", "first")
    queue(store, tid, "summary-1", "second")
    queue(store, other, "summary-1", "elsewhere")

    assert replies(store, tid) == [
        ("summary-1", 1, "first", "pending", 0),
        ("summary-1", 2, "second", "pending", 0),
    ]
    assert [r[1] for r in replies(store, other)] == [1]


def test_revisions_count_within_one_unit_of_work_before_any_flush(
    store: Store, new_thread: NewThread
) -> None:
    tid = new_thread()
    with store.session() as s:
        repo = Repository(s)
        for text in "abc":
            repo.queue_reply(thread_id=tid, key="summary-1", to=None, text=text, at=T0)
        assert all(r.id is None for r in s.new if isinstance(r, ReplyRow))  # nothing flushed

    assert [(r[1], r[2]) for r in replies(store, tid)] == [(1, "a"), (2, "b"), (3, "c")]


def test_editing_a_pending_reply_changes_its_text_and_it_stays_pending(
    store: Store, new_thread: NewThread
) -> None:
    tid = new_thread()
    queue(store, tid, "problem-p1", "old", to="p1")

    with store.session() as s:
        Repository(s).queue_edit(thread_id=tid, key="problem-p1", text="new", at=minutes(1))

    assert replies(store, tid) == [("problem-p1", 1, "new", "pending", 1)]


def test_editing_a_posted_reply_makes_it_edit_pending(store: Store, new_thread: NewThread) -> None:
    tid = new_thread()
    mark_posted(store, queue(store, tid, "problem-p1", "old", to="p1"))

    with store.session() as s:
        Repository(s).queue_edit(thread_id=tid, key="problem-p1", text="new", at=minutes(2))

    assert replies(store, tid) == [("problem-p1", 1, "new", "edit-pending", 1)]
    with store.session() as s:
        row = Repository(s).replies(tid)[0]
        assert (row.forum_reply_id, row.posted_at) == ("pbp-9", minutes(1))


def test_editing_an_unknown_key_queues_a_new_reply(store: Store, new_thread: NewThread) -> None:
    tid = new_thread()

    with store.session() as s:
        Repository(s).queue_edit(thread_id=tid, key="summary-3", text="late", at=T0)

    assert replies(store, tid) == [("summary-3", 1, "late", "pending", 0)]
    with store.session() as s:
        assert Repository(s).replies(tid)[0].to_post is None


def test_editing_touches_only_the_newest_revision(store: Store, new_thread: NewThread) -> None:
    tid = new_thread()
    mark_posted(store, queue(store, tid, "summary-1", "one"))
    queue(store, tid, "summary-1", "two")

    with store.session() as s:
        Repository(s).queue_edit(thread_id=tid, key="summary-1", text="two, fixed", at=T0)

    assert replies(store, tid) == [
        ("summary-1", 1, "one", "posted", 0),
        ("summary-1", 2, "two, fixed", "pending", 1),
    ]


def test_undelivered_lists_what_is_still_owed_oldest_first(
    store: Store, new_thread: NewThread
) -> None:
    tid, other = new_thread("keep-1"), new_thread("keep-2")
    posted = queue(store, tid, "a", "posted")
    edited = queue(store, tid, "b", "edited")
    queue(store, tid, "c", "pending")
    queue(store, other, "d", "elsewhere")
    mark_posted(store, posted)
    mark_posted(store, edited)
    queue(store, tid, "e", "pending later")
    with store.session() as s:
        Repository(s).queue_edit(thread_id=tid, key="b", text="edited again", at=T0)

    with store.session() as s:
        owed = Repository(s).owed(tid)
        assert [(r.key, r.status) for r, _ in owed] == [
            ("b", "edit-pending"),
            ("c", "pending"),
            ("e", "pending"),
        ]


def test_count_attempts_adds_one_to_each_reply_named_and_keeps_the_first_attempts_time(
    store: Store, new_thread: NewThread
) -> None:
    tid = new_thread()
    first, second = queue(store, tid, "a", "x"), queue(store, tid, "b", "y")
    later = T0 + timedelta(hours=3)

    with store.session() as s:
        Repository(s).count_attempts([first], at=T0)
    with store.session() as s:
        Repository(s).count_attempts([first, second], at=later)
        Repository(s).count_attempts([], at=later)

    with store.session() as s:
        rows = s.scalars(select(ReplyRow).order_by(ReplyRow.id)).all()
        assert [(r.id, r.attempts, r.tried_at) for r in rows] == [
            (first, 2, T0),
            (second, 1, later),
        ]


def test_mark_sent_records_the_post_in_utc_and_keeps_the_first_post_time(
    store: Store, new_thread: NewThread
) -> None:
    tid = new_thread()
    reply_id = queue(store, tid, "summary-1", "text")
    berlin = timezone(timedelta(hours=1))

    with store.session() as s:
        Repository(s).mark_all_sent(
            [Sent(reply_id=reply_id, forum_id="pbp-3", text="text")],
            at=minutes(5).astimezone(berlin),
        )
    with store.session() as s:
        Repository(s).queue_edit(thread_id=tid, key="summary-1", text="fixed", at=minutes(6))
    with store.session() as s:
        Repository(s).mark_all_sent(
            [Sent(reply_id=reply_id, forum_id="pbp-3", text="fixed")], at=minutes(7)
        )

    with store.session() as s:
        row = Repository(s).reply(reply_id)
        assert row is not None
        assert (row.status, row.forum_reply_id, row.posted_at) == ("posted", "pbp-3", minutes(5))


def test_mark_sent_of_an_outdated_text_leaves_the_new_text_to_edit(
    store: Store, new_thread: NewThread
) -> None:
    tid = new_thread()
    reply_id = queue(store, tid, "summary-1", "old")
    with store.session() as s:
        Repository(s).queue_edit(thread_id=tid, key="summary-1", text="new", at=minutes(1))

    with store.session() as s:
        Repository(s).mark_all_sent(
            [Sent(reply_id=reply_id, forum_id="pbp-3", text="old")], at=minutes(2)
        )

    with store.session() as s:
        row = Repository(s).reply(reply_id)
        assert row is not None
        assert (row.status, row.forum_reply_id, row.text, row.posted_at) == (
            "edit-pending",
            "pbp-3",
            "new",
            minutes(2),
        )


def test_an_edit_owed_in_a_block_changes_the_stored_row_and_its_object(
    store: Store, new_thread: NewThread
) -> None:
    tid = new_thread()
    mark_posted(store, queue(store, tid, "a", "first"))
    queue(store, tid, "b", "other")
    with store.session() as s:
        repo = Repository(s)
        held = {  # objects of the unit of work
            r.key: r for r in s.scalars(select(ReplyRow).where(ReplyRow.thread_id == tid))
        }
        with repo.deferred():
            repo.owe_edit(thread_id=tid, key="a", text="second", at=T0)
            repo.owe_edit(thread_id=tid, key="a", text="third", at=T0)
            repo.owe_edit(thread_id=tid, key="b", text="other, edited", at=T0)
        assert (held["a"].text, held["a"].edits, held["a"].status) == ("third", 2, "edit-pending")
        del held  # not held now: the next edit goes by statement
    with store.session() as s:
        repo = Repository(s)
        with repo.deferred():
            repo.owe_edit(thread_id=tid, key="a", text="fourth", at=T0)
    with store.session() as s:
        rows = {r.key: (r.text, r.edits, r.status, r.revision) for r in Repository(s).replies(tid)}
    assert rows == {"a": ("fourth", 3, "edit-pending", 1), "b": ("other, edited", 1, "pending", 1)}


OwedBatch = list[tuple[str, str, str | None, bool]]  # (key, text, to, edit)


def _owe_batches(store: Store, tid: int, batches: list[OwedBatch]) -> list[tuple[object, ...]]:
    for batch in batches:
        with store.session() as s:
            repo = Repository(s)
            with repo.deferred():
                for key, text, to, edit in batch:
                    if edit:
                        repo.owe_edit(thread_id=tid, key=key, text=text, at=T0)
                    else:
                        repo.owe_reply(thread_id=tid, key=key, to=to, text=text, at=minutes(1))
    with store.session() as s:
        return [
            (r.key, r.revision, r.to_post, r.text, r.status, r.edits, r.attempts, r.created_at)
            for r in Repository(s).replies(tid)
        ]


def test_replies_owed_without_their_revisions_read_first_are_written_as_with_them(
    store: Store, new_thread: NewThread, monkeypatch: pytest.MonkeyPatch
) -> None:
    batches: list[OwedBatch] = [
        [("a", "a1", "p1", False), ("b", "b1", None, False)],
        [("a", "a2", "p1", False), ("b", "b edited", None, True), ("c", "c1", "p2", False)],
        [("z", "no row yet", None, True), ("c", "c2", None, False)],
        [("a", "a2 edited", None, True)],
        [("b", "twice", None, False), ("b", "twice, edited", None, True)],  # read first
    ]
    fast, slow = new_thread("fast"), new_thread("slow")
    for posted in (fast, slow):
        mark_posted(store, queue(store, posted, "a", "a0"))  # a posted row to edit
    with counting(store) as sent:
        got = _owe_batches(store, fast, batches)
    monkeypatch.setattr(keyed_replies, "applies", lambda _session, _owed: False)
    assert got == _owe_batches(store, slow, batches)
    assert sent.statements.count("SELECT") == 2  # the last batch's read, and the replies
    assert [r[:5] for r in got] == [
        ("a", 1, None, "a0", "posted"),
        ("a", 2, "p1", "a1", "pending"),
        ("b", 1, None, "b edited", "pending"),
        ("a", 3, "p1", "a2 edited", "pending"),
        ("c", 1, "p2", "c1", "pending"),
        ("z", 1, None, "no row yet", "pending"),
        ("c", 2, None, "c2", "pending"),
        ("b", 2, None, "twice, edited", "pending"),
    ]
