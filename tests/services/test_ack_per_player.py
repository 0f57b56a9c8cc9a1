"""`!ack on` / `!ack off`: one player's accepted tags confirmed, the table's setting untouched."""

from __future__ import annotations

from pathlib import Path

import pytest
from service_table import SETUP, Table


@pytest.mark.parametrize("ack", ["errors", "none"])
def test_a_player_who_asks_gets_confirmations_and_the_others_do_not(
    tmp_path: Path, ack: str
) -> None:
    table = Table(tmp_path, ack=ack)
    table.post("gm_sam", SETUP, 0)
    asked = table.post("alice", "!ack on", 1)
    table.poll(2)
    hers = table.post("alice", "Aria swings. [physical: attack Goblin]", 3)
    his = table.post("bob", "[mental: attack Goblin]", 4)
    table.poll(5)

    (said,) = table.reply_to(asked)
    assert said.body.startswith("Confirmations on for alice")
    (confirmed,) = table.reply_to(hers)
    assert confirmed.body.startswith("Read: `[physical: attack Goblin]`")
    assert confirmed.reply_key == f"ack-{hers}"
    assert [r for r in table.reply_to(his) if (r.reply_key or "").startswith("ack")] == []


def test_ack_on_in_the_same_post_confirms_that_post(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.post("gm_sam", SETUP, 0)
    post = table.post("bob", "!ack on\n[mental: attack Goblin]", 1)
    table.poll(2)

    assert [r.body.split(":")[0] for r in table.reply_to(post)] == [
        "Confirmations on for bob",
        "Read",
    ]


def test_ack_off_stops_them_and_the_choice_outlives_a_restart_and_a_close(
    tmp_path: Path,
) -> None:
    table = Table(tmp_path)
    table.post("gm_sam", SETUP, 0)
    table.post("alice", "!ack on", 1)
    table.poll(2)
    table.post("gm_sam", "!close", 3)
    table.poll(4)
    table.restart()  # a new process: nothing kept in memory
    again = table.post("alice", "[physical: attack Goblin]", 5)
    table.poll(6)
    stop = table.post("alice", "!ack off", 7)
    quiet = table.post("alice", "[mental: attack Goblin]", 8)
    table.poll(9)

    assert [r.reply_key for r in table.reply_to(again)] == [f"ack-{again}"]
    (said,) = table.reply_to(stop)
    assert said.body.startswith("Confirmations off for alice: a good post of yours gets no")
    assert table.reply_to(quiet) == []


def test_a_bad_ack_says_what_it_takes(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.post("gm_sam", SETUP, 0)
    bad = table.post("alice", "!ack maybe", 1)
    table.poll(2)

    (said,) = table.reply_to(bad)
    assert "!ack on" in said.body and "maybe" in said.body
