"""A bot whose SQLite file is damaged while it runs posts nothing from it: the look at the file
at the start of a poll, and again before each thread's replies go out, stops the poll with
``StoreDamaged`` (the posts here live on a forum of their own, not in that file)."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from fakes import FlakyForum, MemoryLocalStorage
from service_table import BOT, THREAD, Table, at

from pbp.forums.base import Listing
from pbp.forums.local import LocalForum
from pbp.store.database import StoreDamaged

TYPO = "Aria swings. [physcal: attack Goblin]"  # a post that gets an error reply


def _overwrite_header(path: Path) -> None:
    with path.open("r+b") as file:
        file.write(random.Random(5).randbytes(16 * 1024))


class DamagedWhileListing(FlakyForum):
    """A forum whose listing is read while the bot's database file gets overwritten (after
    the poll's first look at the file, before its threads' replies go out)."""

    def __init__(self, inner: LocalForum, *, damage: Path | None) -> None:
        super().__init__(inner)
        self.damage = damage

    def listing(self, *, cursor: str | None) -> Listing:
        found = super().listing(cursor=cursor)
        if self.damage is not None:
            _overwrite_header(self.damage)
        return found


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return Table(tmp_path)


def _forum(table: Table) -> LocalForum:
    posts = LocalForum(MemoryLocalStorage(), bot=BOT, clock=table.clock)
    posts.post(thread=THREAD, author="alice", body=TYPO, at=at(1))
    return posts


@pytest.mark.parametrize("damaged", [False, True], ids=["intact", "damaged"])
def test_a_file_damaged_after_the_poll_began_stops_it_before_any_reply(
    table: Table,
    damaged: bool,
) -> None:
    path = table.folder / "pbp.db"
    forum = DamagedWhileListing(_forum(table), damage=path if damaged else None)
    bot = table.restart(forum=forum)
    table.clock.now = at(2)
    if not damaged:  # the control: this poll answers the typo
        bot.poll_once(at(2))
        assert [c.args["key"] for c in forum.calls_to("reply")] == ["cheatsheet", "problems-p1"]
        return
    with pytest.raises(StoreDamaged, match="its first bytes are not an SQLite database"):
        bot.poll_once(at(2))
    assert forum.calls_to("listing")  # the poll did begin
    assert not forum.calls_to("reply") and not forum.calls_to("send_private")


def test_a_file_emptied_between_polls_stops_the_next_poll_at_once(table: Table) -> None:
    forum = FlakyForum(_forum(table))
    bot = table.restart(forum=forum)
    bot.poll_once(at(2))
    replied = len(forum.calls_to("reply"))
    forum.inner.post(thread=THREAD, author="bob", body=TYPO, at=at(3))
    os.truncate(table.folder / "pbp.db", 0)
    with pytest.raises(StoreDamaged, match="it was cut to 0 bytes"):
        bot.poll_once(at(4))
    assert len(forum.calls_to("reply")) == replied
    assert len(forum.calls_to("listing")) == 1  # not even the forum was asked
