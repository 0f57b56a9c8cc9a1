"""The bot on PostgreSQL, as several workers would run it (SPEC §9): the same poll cycle."""

from __future__ import annotations

import pytest
from service_table import SETUP, START, Table, at

from pbp.errors import ForumError


def test_a_round_with_a_fixed_typo_on_postgresql(pg_table: Table) -> None:
    table = pg_table
    table.post("gm_sam", SETUP, 0)
    typo = table.post("bob", "[phisical: attack Goblin]", 1)
    table.poll(2)
    table.edit(typo, "[physical: attack Goblin]", 3)
    close = table.post("gm_sam", "!close", 4)
    table.poll(5)
    table.poll(6)
    ledger = table.ledger()
    assert ledger["rounds"][0]["closed_by"] == close
    assert [a["actor"] for a in ledger["rounds"][0]["actions"]] == ["Bram"]
    assert len(table.reply_to(typo)) == 1 and len(table.reply_to(close)) == 1
    assert table.ledger_json(table.restart()) == table.ledger_json()


def test_two_workers_on_postgresql_never_handle_a_thread_twice(pg_table: Table) -> None:
    table = pg_table
    first, second = table.bot, table.restart(owner="w2")
    table.post("gm_sam", SETUP + "\n!deadline 2h", 0)
    table.post("alice", "[physical: attack Goblin]", 1)
    one = first.poll_once(at(2))
    table.post("bob", "[phisical: attack Goblin]", 3)
    two = second.poll_once(at(3))  # w2 reads the listing: the post waits for w1
    assert one.events == 2 and two.events == 0 and two.skipped == ["keep-1 (run by w1)"]
    assert first.poll_once(at(4)).events == 1  # w1 takes what w2 read
    table.clock.now = at(200)
    first.poll_once(at(200))  # the deadline passed: w1 closes the round
    second.poll_once(at(200))
    summaries = [r for r in table.replies() if "Round 1: results" in r.body]
    assert len(summaries) == 1


def test_a_refused_message_inside_a_delivery_keeps_the_rest_on_postgresql(
    pg_table: Table,
) -> None:
    # PostgreSQL ends a transaction at its first error: the repeated key is no error there
    forum = pg_table.forum
    first = pg_table.post("alice", "[physical: attack Goblin]", 0)
    forum.send_private(thread="keep-1", to="alice", subject="Sheet", text="Aria", key="s-1")
    with forum.sending():
        with pytest.raises(ForumError, match="already sent"):
            forum.send_private(
                thread="keep-1", to="alice", subject="Sheet", text="again", key="s-1"
            )
        reply = forum.reply(thread="keep-1", to=first, text="noted", key="k1")
    assert forum.find_reply(thread="keep-1", key="k1", to=first, since=START) == reply
    assert [m.body for m in forum.inbox("alice")] == ["Aria"]
