"""A delivery sends inside the forum's ``sending()`` block: when something breaks inside it,
nothing of the block is recorded as posted, and the next delivery posts each reply once."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from service_table import SETUP, Table, at

from pbp.forums.local import LocalForum


class BreaksAtReply:
    """The local forum, but the ``nth`` reply of the next delivery breaks (not a forum
    error: a bug, or the process stopping) after the forum took it."""

    def __init__(self, inner: LocalForum, nth: int) -> None:
        self.inner, self.left = inner, nth

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def reply(self, **kwargs: Any) -> str:
        posted = self.inner.reply(**kwargs)
        self.left -= 1
        if self.left == 0:
            raise RuntimeError("broke after the forum took the reply")
        return posted


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return Table(tmp_path)


def test_a_delivery_that_breaks_posts_nothing_twice_and_loses_nothing(table: Table) -> None:
    table.post("gm_sam", SETUP, 0)
    table.post("bob", "[phisical: attack Goblin]", 1)
    table.post("cara", "[mentl: attack Goblin]", 2)
    breaking = table.restart(forum=BreaksAtReply(table.forum, nth=3))
    with pytest.raises(RuntimeError):
        breaking.poll_once(at(3))
    assert table.replies() == []  # the local forum took the block's replies back
    table.restart()
    table.poll(4)  # every reply's attempt was counted: each is looked up, then posted
    keys = Counter(r.reply_key for r in table.replies())
    assert keys and set(keys.values()) == {1}
    assert {"cheatsheet", "done-p1"} <= set(keys)
    assert len([k for k in keys if k and k.startswith("problems-")]) == 2
