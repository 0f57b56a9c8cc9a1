"""The poll's unit of work (``Store.session(shared=True)``): a connection in a transaction,
with an ORM session made only when something asks for one; either way one unit of work,
kept whole or not at all. On SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from sqlalchemy import func, select

from pbp.store import Store
from pbp.store.execute import run
from pbp.store.repository import Repository
from pbp.store.schema import CampaignRow, ThreadRow
from pbp.store.unit import LazySession

T0 = datetime(2026, 11, 29, 10, 0, tzinfo=UTC)


def _polls(store: Store, thread_id: int) -> int:
    with store.session() as s:
        return int(s.scalar(select(ThreadRow.polls).where(ThreadRow.id == thread_id)) or 0)


def _campaigns(store: Store) -> int:
    with store.session() as s:
        return int(s.scalar(select(func.count(CampaignRow.id))) or 0)


def _add_polls(s: object, thread_id: int, polls: int) -> None:
    table = ThreadRow.__table__
    statement = table.update().where(table.c.id == thread_id).values(polls=polls)  # type: ignore[attr-defined]
    run(s, statement)  # type: ignore[arg-type]


def test_plain_statements_make_no_orm_session_and_commit(
    store: Store, new_thread: Callable[..., int]
) -> None:
    thread = new_thread()
    with store.session(shared=True) as s:
        assert isinstance(s, LazySession)
        _add_polls(s, thread, 7)
        with store.session() as inner:  # joins it
            assert inner is s
        with store.transaction() as conn:  # the local forum's storage joins it too
            assert conn is s.connection()
        assert s._orm is None  # (nothing asked for one)
    assert _polls(store, thread) == 7


def test_objects_and_statements_commit_together_in_order(
    store: Store, new_thread: Callable[..., int]
) -> None:
    thread = new_thread()
    before = _campaigns(store)
    with store.session(shared=True) as s:
        Repository(s).save_campaign(path="/c/new.toml", name="New", file_hash="h", at=T0)
        _add_polls(s, thread, 3)  # (the pending object is flushed first, as a session does)
        assert s.scalar(select(func.count(CampaignRow.id))) == before + 1
        found = s.get(ThreadRow, thread)
        assert found is not None and found.polls == 3  # the ORM sees the statement's write
        found.polls = 4  # a change to an object, last of all: written at the commit
    assert (_campaigns(store), _polls(store, thread)) == (before + 1, 4)


@pytest.mark.parametrize("orm", [False, True], ids=["statements only", "with objects"])
def test_a_failure_keeps_none_of_it(
    store: Store, new_thread: Callable[..., int], orm: bool
) -> None:
    thread = new_thread()
    before = _campaigns(store)
    with pytest.raises(RuntimeError), store.session(shared=True) as s:
        _add_polls(s, thread, 5)
        if orm:
            Repository(s).save_campaign(path="/c/lost.toml", name="Lost", file_hash="h", at=T0)
            s.flush()
        raise RuntimeError("the cycle failed")
    assert (_campaigns(store), _polls(store, thread)) == (before, 0)
    with store.session(shared=True) as s:  # the store is usable at once after
        _add_polls(s, thread, 1)
    assert _polls(store, thread) == 1
