"""The store contract, part 1: migrations, schema checks, times and the unit of work.

Each test runs on SQLite and on PostgreSQL (see conftest.py).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, select, text
from sqlalchemy.exc import StatementError

from pbp.store import SchemaOutOfDate, Store
from pbp.store.database import StoreError
from pbp.store.inbox import Inbox
from pbp.store.repository import Repository
from pbp.store.schema import Base, CampaignRow, LocalPostRow

T0 = datetime(2026, 11, 29, 10, 0, tzinfo=UTC)
PBP_TABLES = set(Base.metadata.tables)


def schema_differences(store: Store) -> list[Any]:
    """What Alembic's autogenerate would change to make the database match the models."""
    with store.engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        return list(compare_metadata(context, Base.metadata))


def test_an_empty_database_has_no_revision_and_fails_the_check(empty_store: Store) -> None:
    assert empty_store.current() is None
    with pytest.raises(SchemaOutOfDate) as caught:
        empty_store.check()
    assert caught.value.current is None
    assert caught.value.head == empty_store.head()
    assert "pbp db upgrade" in str(caught.value)


def test_upgrade_reaches_head_and_creates_every_table(empty_store: Store) -> None:
    before, after = empty_store.upgrade()

    assert (before, after) == (None, empty_store.head())
    assert empty_store.current() == empty_store.head()
    empty_store.check()
    tables = set(inspect(empty_store.engine).get_table_names())
    assert tables == PBP_TABLES | {"alembic_version"}


def test_a_second_upgrade_changes_nothing(store: Store) -> None:
    with store.session() as s:
        Repository(s).save_cursor("local", "all", "c-7", at=T0)

    before, after = store.upgrade()

    assert before == after == store.head()
    store.check()
    with store.session() as s:
        assert Inbox(s).listing_start("local", "all")[0] == "c-7"


def test_a_revision_this_pbp_does_not_know_is_refused(store: Store) -> None:
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '0000'"))

    assert store.current() == "0000"
    with pytest.raises(SchemaOutOfDate, match="revision 0000, which this pbp does not know"):
        store.check()
    with pytest.raises(StoreError, match="does not know"):
        store.upgrade()


def test_the_migrated_schema_matches_the_models(store: Store) -> None:
    # compare_type is on: UtcDateTime is compared through its DateTime impl, so a migration
    # that wrote another column type would show here (it reports nothing for the decorator)
    assert schema_differences(store) == []


def test_the_model_comparison_notices_a_drifted_schema(store: Store) -> None:
    # guards the test above: the comparison does look at the database
    with store.engine.begin() as conn:
        conn.execute(text("DROP INDEX ix_replies_status"))

    differences = schema_differences(store)

    assert [(d[0], d[1].name) for d in differences] == [("add_index", "ix_replies_status")]


def test_times_come_back_aware_utc_and_equal(store: Store) -> None:
    paris_winter = timezone(timedelta(hours=1))
    loaded = datetime(2026, 11, 29, 11, 30, 15, 123456, tzinfo=paris_winter)
    with store.session() as s:
        Repository(s).save_campaign(path="/c.toml", name="Keep", file_hash="h", at=loaded)

    with store.session() as s:
        row = Repository(s).campaign("/c.toml")
        assert row is not None
        assert row.loaded_at == loaded
        assert row.loaded_at.tzinfo is UTC
        assert row.loaded_at == datetime(2026, 11, 29, 10, 30, 15, 123456, tzinfo=UTC)


def test_times_are_stored_as_naive_utc(store: Store) -> None:
    loaded = datetime(2026, 11, 29, 23, 30, tzinfo=timezone(timedelta(hours=-5)))
    with store.session() as s:
        Repository(s).save_campaign(path="/c.toml", name="Keep", file_hash="h", at=loaded)

    with store.engine.connect() as conn:
        raw = conn.execute(text("SELECT loaded_at FROM campaigns")).scalar_one()

    stored = raw if isinstance(raw, datetime) else datetime.fromisoformat(raw)
    assert stored == datetime(2026, 11, 30, 4, 30)  # naive, in UTC


def test_a_naive_time_is_refused(store: Store) -> None:
    with pytest.raises(StatementError, match="aware datetimes only"), store.session() as s:
        Repository(s).save_campaign(
            path="/c.toml", name="Keep", file_hash="h", at=datetime(2026, 11, 29, 10, 0)
        )


def test_an_exception_in_a_unit_of_work_writes_nothing(store: Store) -> None:
    with pytest.raises(RuntimeError, match="boom"), store.session() as s:
        repo = Repository(s)
        repo.save_campaign(path="/c.toml", name="Keep", file_hash="h", at=T0)  # flushed
        repo.save_cursor("local", "all", "c-1", at=T0)
        s.add(
            LocalPostRow(
                id="p1",
                seq=1,
                thread="keep-1",
                author="alice",
                body="hi",
                created_at=T0,
                order=1,
            )
        )
        s.flush()
        raise RuntimeError("boom")

    with store.session() as s:
        assert s.scalars(select(CampaignRow)).all() == []
        assert s.scalars(select(LocalPostRow)).all() == []
        assert Inbox(s).listing_start("local", "all")[0] is None


def test_a_unit_of_work_commits_when_it_ends(store: Store) -> None:
    with store.session() as s:
        Repository(s).save_cursor("local", "all", "c-1", at=T0)

    with store.session() as s:
        assert Inbox(s).listing_start("local", "all")[0] == "c-1"


def _a_thread(conn: Any, *, last_seq: int) -> None:
    """Thread 1 of campaign 1, written as the migrations' tables were then."""
    conn.execute(
        text(
            "INSERT INTO campaigns (id, name, path, file_hash, loaded_at)"
            " VALUES (1, 'Keep', 'keep.toml', 'h', :t)"
        ),
        {"t": T0},
    )
    conn.execute(
        text(
            "INSERT INTO threads (id, forum, key, campaign_id, campaign_hash, created_at,"
            " last_seq, snapshot_seq, snapshot_format, polls, needs_survey, needs_read)"
            " VALUES (1, 'local', 't1', 1, 'h', :t, :seq, 0, 0, 0, false, false)"
        ),
        {"t": T0, "seq": last_seq},
    )


def test_the_outcomes_of_handled_versions_move_into_their_version_rows(empty_store: Store) -> None:
    from alembic import command

    command.upgrade(empty_store._alembic(), "0008")  # before the outcome joined the version
    with empty_store.engine.begin() as conn:
        _a_thread(conn, last_seq=0)
        for post, outcome, detail in [("p1", "handled", None), ("p2", "failed", "bad tag")]:
            conn.execute(
                text(
                    "INSERT INTO post_versions (thread_id, post_id, version, author, body,"
                    " body_hash, written_at, seen_at, deleted, purged)"
                    " VALUES (1, :p, 1, 'bob', 'x', 'h', :t, :t, false, false)"
                ),
                {"p": post, "t": T0},
            )
            conn.execute(
                text(
                    "INSERT INTO processed_posts (thread_id, post_id, version, outcome, detail,"
                    " handled_at) VALUES (1, :p, 1, :o, :d, :t)"
                ),
                {"p": post, "o": outcome, "d": detail, "t": T0},
            )

    assert empty_store.upgrade() == ("0008", empty_store.head())

    with empty_store.engine.connect() as conn:
        rows = conn.execute(
            text("SELECT post_id, outcome, detail FROM post_versions ORDER BY post_id")
        ).all()
        tables = set(inspect(conn).get_table_names())
    assert [tuple(r) for r in rows] == [("p1", "handled", None), ("p2", "failed", "bad tag")]
    assert "processed_posts" not in tables


def test_the_events_of_post_versions_move_into_their_version_rows(empty_store: Store) -> None:
    from alembic import command

    command.upgrade(empty_store._alembic(), "0009")  # before the event joined the version
    t1 = T0 + timedelta(minutes=1)

    def naive(t: datetime) -> datetime:  # as the store keeps times (naive UTC)
        return t.replace(tzinfo=None)

    with empty_store.engine.begin() as conn:
        _a_thread(conn, last_seq=4)
        # p1 v1 and v2 were taken (a post, then an edit); p2 failed (no event); p3's event
        # was logged at another time than the version's (it stays in the log's table)
        for post, version, written in [("p1", 1, T0), ("p1", 2, t1), ("p2", 1, T0), ("p3", 1, T0)]:
            conn.execute(
                text(
                    "INSERT INTO post_versions (thread_id, post_id, version, author, body,"
                    " body_hash, written_at, seen_at, deleted, purged, outcome)"
                    " VALUES (1, :p, :v, 'bob', 'x', 'h', :t, :t, false, false, :o)"
                ),
                {
                    "p": post,
                    "v": version,
                    "t": naive(written),
                    "o": "failed" if post == "p2" else "handled",
                },
            )
        for seq, kind, post, version, at_ in [
            (1, "post", "p1", 1, T0),
            (2, "tick", None, None, T0),
            (3, "edit", "p1", 2, t1),
            (4, "post", "p3", 1, t1),
        ]:
            conn.execute(
                text(
                    "INSERT INTO thread_events (thread_id, seq, kind, post_id, version, at)"
                    " VALUES (1, :s, :k, :p, :v, :t)"
                ),
                {"s": seq, "k": kind, "p": post, "v": version, "t": naive(at_)},
            )
    assert empty_store.upgrade() == ("0009", empty_store.head())

    with empty_store.engine.connect() as conn:
        versions = conn.execute(
            text("SELECT post_id, version, seq, event FROM post_versions ORDER BY id")
        ).all()
        logged = conn.execute(text("SELECT seq, kind FROM thread_events ORDER BY seq")).all()
    assert [tuple(r) for r in versions] == [
        ("p1", 1, 1, "post"),
        ("p1", 2, 3, "edit"),
        ("p2", 1, None, None),
        ("p3", 1, None, None),
    ]
    assert [tuple(r) for r in logged] == [(2, "tick"), (4, "post")]
    with empty_store.session() as s:  # the log reads as before, from both tables
        events = Repository(s).events_after(1, 0)
        assert [e.seq for e in Repository(s).events_after(1, 2)] == [3, 4]
    assert [(e.seq, e.kind, e.post_id, e.version, e.author, e.body, e.at) for e in events] == [
        (1, "post", "p1", 1, "bob", "x", T0),
        (2, "tick", None, None, None, None, T0),
        (3, "edit", "p1", 2, "bob", "x", t1),
        (4, "post", "p3", 1, "bob", "x", t1),
    ]

    command.downgrade(empty_store._alembic(), "0009")  # and back: every event in the log's table
    with empty_store.engine.connect() as conn:
        logged = conn.execute(text("SELECT seq, kind FROM thread_events ORDER BY seq")).all()
    assert [tuple(r) for r in logged] == [(1, "post"), (2, "tick"), (3, "edit"), (4, "post")]


def test_the_scenes_move_into_their_threads_rows(empty_store: Store) -> None:
    from alembic import command

    command.upgrade(empty_store._alembic(), "0010")  # before the scene joined the thread
    with empty_store.engine.begin() as conn:
        _a_thread(conn, last_seq=0)
        conn.execute(
            text(
                "INSERT INTO scenes (thread_id, kind, round_number, deadline)"
                " VALUES (1, 'distat', 3, :t)"
            ),
            {"t": T0.replace(tzinfo=None)},  # (as the store keeps times: naive UTC)
        )

    assert empty_store.upgrade() == ("0010", empty_store.head())

    with empty_store.session() as s:
        thread = Repository(s).thread("local", "t1")
    assert thread is not None
    assert (thread.scene_kind, thread.scene_round, thread.scene_deadline) == ("distat", 3, T0)
    with empty_store.engine.connect() as conn:
        assert "scenes" not in set(inspect(conn).get_table_names())

    command.downgrade(empty_store._alembic(), "0010")  # and back
    with empty_store.engine.connect() as conn:
        rows = conn.execute(text("SELECT thread_id, kind, round_number FROM scenes")).all()
    assert [tuple(r) for r in rows] == [(1, "distat", 3)]
