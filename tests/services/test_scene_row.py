"""The scene the thread's row holds follows the thread's state: written (with the rest of the
row, by its one UPDATE) when the scene changes, left alone when a poll leaves it as the row
holds it, and written whenever another worker moved the thread on meanwhile (the row holds
what that worker wrote)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from service_table import SETUP, THREAD, Table
from sqlalchemy import event, select

from pbp.services.bot import Bot
from pbp.store.schema import ThreadRow


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return Table(tmp_path)


def scene_round(table: Table) -> int | None:
    with table.store.session() as s:
        thread = s.scalars(select(ThreadRow).where(ThreadRow.key == THREAD)).one()
        assert thread.scene_kind == "distat"
        return thread.scene_round


@contextmanager
def scene_writes(table: Table) -> Iterator[list[str]]:
    """The statements that write the thread's scene, sent inside the block."""
    sent: list[str] = []

    def statement(*args: Any) -> None:
        if str(args[2]).startswith("UPDATE threads") and "scene_round" in str(args[2]):
            sent.append(str(args[2]))

    event.listen(table.store.engine, "before_cursor_execute", statement)
    try:
        yield sent
    finally:
        event.remove(table.store.engine, "before_cursor_execute", statement)


def hand_over(table: Table, to: Bot, minute: float) -> None:
    """The thread's worker stops cleanly; ``to`` takes the thread at its next poll."""
    table.bot.release_leases()
    table.poll(minute, bot=to)
    table.bot = to


def test_the_scene_is_not_written_again_while_it_stays(table: Table) -> None:
    table.post("gm_sam", SETUP, 0)
    table.poll(1)
    table.post("alice", "[physical: attack Goblin]", 2)
    with scene_writes(table) as writes:
        table.poll(3)
    assert writes == []  # still round 1, as this process wrote it
    table.post("gm_sam", "!close", 4)
    with scene_writes(table) as writes:
        table.poll(5)
    assert len(writes) == 1
    assert scene_round(table) == 2


def test_a_scene_another_worker_moved_on_is_written_even_when_it_comes_back(
    table: Table,
) -> None:
    first = table.bot
    table.post("gm_sam", SETUP, 0)
    table.poll(1)  # w1 committed round 1 and remembers it
    assert scene_round(table) == 1
    second = table.restart(owner="w2")
    table.bot = first
    hand_over(table, second, 2)
    table.post("gm_sam", "!close", 3)
    table.poll(4)  # w2 closes round 1: the row says round 2
    assert scene_round(table) == 2
    hand_over(table, first, 5)
    table.post("gm_sam", "!undo", 6)
    table.poll(7)  # w1 undoes the close: round 1 again, as w1 once wrote it
    assert scene_round(table) == 1
