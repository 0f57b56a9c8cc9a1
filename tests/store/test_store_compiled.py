"""The store's statements run as compiled SQL (``pbp.store.compiled``) answer exactly what
``Connection.execute`` answers, on SQLite and on PostgreSQL: the same rows, the same Python
types, the same row counts, the same errors; and the engine's listeners see each statement."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from sqlalchemy import bindparam, event, func, insert, select, update
from sqlalchemy.dialects import sqlite
from sqlalchemy.exc import IntegrityError, StatementError

from pbp.store import Store
from pbp.store.compiled import _plan_for, execute, plan
from pbp.store.schema import InboxRow, PostVersionRow, ThreadRow
from pbp.store.upsert import dialect_insert

T0 = datetime(2026, 11, 29, 10, 0, tzinfo=UTC)

VERSIONS = PostVersionRow.__table__
INBOX = InboxRow.__table__
# a post version's text changed, by the post's id
BODY_CHANGE = (
    update(VERSIONS).where(VERSIONS.c.post_id == bindparam("pid")).values(body=bindparam("text"))
)


def _version(thread_id: int, post_id: str, version: int = 1, **more: Any) -> dict[str, Any]:
    row = {
        "thread_id": thread_id,
        "post_id": post_id,
        "version": version,
        "author": "alice",
        "body": f"text of {post_id}",
        "body_hash": "h",
        "written_at": T0,
        "seen_at": T0,
    }
    return {**row, **more}


def _both(store: Store, statement: Any, params: Any) -> tuple[list[Any], list[Any]]:
    """The rows of ``statement`` through its plan and through ``Connection.execute``."""
    with store.transaction() as conn:
        planned = [tuple(r) for r in execute(conn, statement, params)]
        plain = [tuple(r) for r in conn.execute(statement, params)]
    return planned, plain


def test_a_select_answers_the_same_rows_and_types(store: Store, new_thread: Any) -> None:
    thread = new_thread()
    with store.transaction() as conn:
        execute(conn, insert(VERSIONS), [_version(thread, "p1"), _version(thread, "p2")])
        execute(conn, insert(VERSIONS), [_version(thread, "p3", deleted=True)])
    statement = (
        select(VERSIONS.c.post_id, VERSIONS.c.written_at, VERSIONS.c.deleted)
        .where(VERSIONS.c.thread_id == bindparam("thread"))
        .order_by(VERSIONS.c.post_id)
    )
    planned, plain = _both(store, statement, {"thread": thread})
    assert planned == plain
    assert planned == [("p1", T0, False), ("p2", T0, False), ("p3", T0, True)]
    assert planned[0][1].tzinfo is UTC  # aware, as UtcDateTime reads it
    with store.transaction() as conn:
        row = execute(conn, statement, {"thread": thread}).first()
    assert (row.post_id, row.deleted) == ("p1", False)  # by name, as a Row is read


def test_a_left_out_column_takes_its_default(store: Store, new_thread: Any) -> None:
    thread = new_thread()
    with store.transaction() as conn:
        execute(conn, insert(VERSIONS), _version(thread, "p1"))  # deleted, purged left out
        flags = execute(conn, select(VERSIONS.c.deleted, VERSIONS.c.purged)).one()
    assert tuple(flags) == (False, False)


def test_lists_given_and_fixed_are_spread_over_placeholders(store: Store, new_thread: Any) -> None:
    thread = new_thread()
    with store.transaction() as conn:
        execute(conn, insert(VERSIONS), [_version(thread, f"p{n}") for n in range(1, 6)])
    statement = (
        select(VERSIONS.c.post_id)
        .where(
            VERSIONS.c.post_id.in_(bindparam("ids", expanding=True)),
            VERSIONS.c.author.in_(["alice", "bob"]),
        )
        .order_by(VERSIONS.c.post_id)
    )
    for ids in (["p2"], ["p1", "p4", "p9"], []):
        planned, plain = _both(store, statement, {"ids": ids})
        assert planned == plain == [(i,) for i in sorted(ids) if i != "p9"]
    with store.transaction() as conn:
        assert _plan_for(statement, conn.dialect, ("ids",), False) is not None


def test_a_list_used_twice_and_lists_of_changing_lengths(
    store: Store, new_thread: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the SQL spread for each count of items is kept (a few): a count seen before, after
    # others, and more counts than are kept, each answer the same rows as SQLAlchemy's
    monkeypatch.setattr("pbp.store.compiled.MOST_SPREADS", 3)
    thread = new_thread()
    with store.transaction() as conn:
        execute(conn, insert(VERSIONS), [_version(thread, f"p{n}") for n in range(1, 9)])
    ids = bindparam("ids", expanding=True)
    statement = (
        select(VERSIONS.c.post_id)
        .where(
            VERSIONS.c.post_id.in_(ids),
            VERSIONS.c.author.in_(bindparam("who", expanding=True)),
            VERSIONS.c.post_id.in_(ids),  # (the same list again)
        )
        .order_by(VERSIONS.c.post_id)
    )
    for count, who in [(1, 1), (3, 2), (1, 1), (5, 1), (2, 2), (7, 2), (3, 2), (1, 2)]:
        given = {"ids": [f"p{n}" for n in range(count, 0, -1)], "who": ["alice", "bob"][:who]}
        planned, plain = _both(store, statement, given)
        assert planned == plain == [(f"p{n}",) for n in range(1, count + 1)]
    with store.transaction() as conn:
        found = _plan_for(statement, conn.dialect, ("ids", "who"), False)
    assert found is not None and 0 < len(found.spread) <= 3


def test_spread_sql_forgotten_by_another_thread_meanwhile_is_no_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # another thread's change between a plan's look at its oldest SQL and taking it out:
    # taken out already, or the dict changed as it was read
    monkeypatch.setattr("pbp.store.compiled.MOST_SPREADS", 1)

    class TakenMeanwhile(dict[tuple[int, ...], str]):
        def pop(self, key: Any, *default: Any) -> Any:
            super().pop(key, None)  # (the other thread's)
            return super().pop(key, *default)

    class ChangedMeanwhile(dict[tuple[int, ...], str]):
        def __iter__(self) -> Any:
            raise RuntimeError("dictionary changed size during iteration")

    statement = select(VERSIONS.c.post_id).where(
        VERSIONS.c.post_id.in_(bindparam("ids", expanding=True))
    )
    found = plan(statement, sqlite.dialect(), ("ids",), many=False)
    assert found is not None
    for kept in (TakenMeanwhile(), ChangedMeanwhile()):
        found.spread = kept
        for count in (1, 2, 3):
            sql, params = found.expanded({"ids": [f"p{n}" for n in range(count)]})
            assert sql.count("?") == count and len(params) == count


def test_an_update_counts_the_rows_it_changed(store: Store, new_thread: Any) -> None:
    thread = new_thread()
    with store.transaction() as conn:
        execute(conn, insert(VERSIONS), [_version(thread, "p1"), _version(thread, "p2")])
        change = BODY_CHANGE
        assert execute(conn, change, {"pid": "p1", "text": "new"}).rowcount == 1
        assert execute(conn, change, {"pid": "p9", "text": "new"}).rowcount == 0
        assert (
            execute(conn, change, [{"pid": "p1", "text": "a"}, {"pid": "p2", "text": "b"}]).rowcount
            == 2
        )
        bodies = execute(conn, select(VERSIONS.c.body).order_by(VERSIONS.c.post_id)).scalars()
    assert bodies == ["a", "b"]


def test_an_update_returning_rows_run_once_or_for_many_rows(store: Store, new_thread: Any) -> None:
    # once: its rows, as Connection.execute answers them; for many rows (executemany): no
    # error, whichever rows the driver keeps (psycopg keeps none), and every row changed
    thread = new_thread()
    with store.transaction() as conn:
        execute(conn, insert(VERSIONS), [_version(thread, "p1"), _version(thread, "p2")])
    change = BODY_CHANGE.returning(VERSIONS.c.post_id, VERSIONS.c.body)
    planned, plain = _both(store, change, {"pid": "p1", "text": "once"})
    assert planned == plain == [("p1", "once")]
    with store.transaction() as conn:
        many = execute(conn, change, [{"pid": "p1", "text": "a"}, {"pid": "p2", "text": "b"}])
        assert [tuple(r) for r in many] in ([], [("p2", "b")], [("p1", "a"), ("p2", "b")])
        bodies = execute(conn, select(VERSIONS.c.body).order_by(VERSIONS.c.post_id)).scalars()
    assert bodies == ["a", "b"]


def test_an_upsert_and_a_returning_insert(store: Store, new_thread: Any) -> None:
    thread = new_thread()
    with store.transaction() as conn:
        made = insert(INBOX).returning(INBOX.c.id, INBOX.c.ingested_at)
        row = {
            "thread_id": thread,
            "post_id": "p1",
            "author": "a",
            "body": "b",
            "created_at": T0,
            "edited_at": None,
            "deleted_at": None,
            "reply_to": None,
            "ingested_at": T0 + timedelta(seconds=1),
        }
        first = execute(conn, made, row).one()
        assert first.id > 0 and first.ingested_at == T0 + timedelta(seconds=1)
        keep = dialect_insert(conn.dialect.name)(ThreadRow.__table__)
        keep = keep.on_conflict_do_update(
            index_elements=["forum", "key"], set_={"last_seq": keep.excluded.last_seq}
        )
        existing = conn.execute(select(ThreadRow.__table__).where(ThreadRow.id == thread)).one()
        again = {
            c: getattr(existing, c)
            for c in ("forum", "key", "campaign_id", "campaign_hash", "created_at")
        }
        execute(conn, keep, {**again, "last_seq": 41})
        assert execute(conn, select(func.max(ThreadRow.last_seq))).scalar() == 41


def test_a_refused_row_is_sqlalchemys_integrity_error(store: Store, new_thread: Any) -> None:
    thread = new_thread()
    with pytest.raises(IntegrityError), store.transaction() as conn:
        execute(conn, insert(VERSIONS), [_version(thread, "p1"), _version(thread, "p1")])
    with store.transaction() as conn:  # nothing of the failed transaction stayed
        assert execute(conn, select(func.count()).select_from(VERSIONS)).scalar() == 0


def test_a_value_its_type_refuses_is_a_statement_error(store: Store, new_thread: Any) -> None:
    thread = new_thread()
    naive = _version(thread, "p1", written_at=datetime(2026, 11, 29, 10, 0))
    with pytest.raises(StatementError, match="aware datetimes only"), store.transaction() as conn:
        execute(conn, insert(VERSIONS), naive)


def test_the_engines_listeners_see_each_statement(store: Store, new_thread: Any) -> None:
    thread = new_thread()
    seen: list[tuple[str, bool]] = []

    def before(_conn: Any, _cursor: Any, sql: str, _params: Any, _context: Any, many: bool) -> None:
        seen.append((sql.split()[0], many))

    event.listen(store.engine, "before_cursor_execute", before)
    try:
        with store.transaction() as conn:
            execute(conn, insert(VERSIONS), [_version(thread, "p1"), _version(thread, "p2")])
            execute(conn, select(VERSIONS.c.id), None)
    finally:
        event.remove(store.engine, "before_cursor_execute", before)
    assert [s for s in seen if s[0] != "BEGIN"] == [("INSERT", True), ("SELECT", False)]


def test_a_time_is_kept_as_utc_and_read_back_aware(store: Store, new_thread: Any) -> None:
    thread = new_thread()
    at = datetime(2026, 11, 29, 12, 30, 5, 7, tzinfo=timezone(timedelta(hours=2)))
    with store.transaction() as conn:
        execute(conn, insert(VERSIONS), _version(thread, "p1", written_at=at))
        kept = conn.exec_driver_sql("SELECT written_at FROM post_versions").scalar()
        read = execute(conn, select(VERSIONS.c.written_at)).scalar()
    assert read == at and read.tzinfo is UTC
    if store.engine.dialect.name == "sqlite":  # SQLAlchemy's text, so older rows read the same
        assert kept == "2026-11-29 10:30:05.000007"
    else:
        assert kept == datetime(2026, 11, 29, 10, 30, 5, 7)  # naive UTC
