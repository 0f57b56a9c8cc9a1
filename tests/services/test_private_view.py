"""The GM's private view under hide-npcs, and a player's own sheet by private message: sent
through the outbox to one user, never posted in the thread, each exactly once."""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import FlakyForum
from service_table import CAMPAIGN, SETUP, Table

HIDDEN = CAMPAIGN.replace('visibility = "open"', 'visibility = "hide-npcs"').replace(
    'gms = ["gm_sam"]', 'gms = ["gm_sam", "gm_kim"]'
)


@pytest.fixture
def hidden(tmp_path: Path) -> Table:
    return Table(tmp_path, campaign=HIDDEN)


def _inbox(table: Table, user: str) -> list[tuple[str, str, str]]:
    return [(m.key, m.subject, m.body) for m in table.forum.inbox(user)]


def _fight(table: Table) -> None:
    table.post("gm_sam", SETUP, 0)
    table.post("alice", "[physical: attack Goblin]", 1)
    table.poll(2)
    table.post("gm_sam", "!close", 3)
    table.poll(4)


def test_each_gm_gets_the_summary_with_the_npc_numbers_the_thread_hides(hidden: Table) -> None:
    _fight(hidden)

    (summary,) = [r for r in hidden.replies() if r.reply_key == "summary-1"]
    assert "Body 5 vs ?" in summary.body
    assert "| Goblin | foes | with Aria, Bram | ? | ? | ? | active |" in summary.body
    for gm in ("gm_sam", "gm_kim"):
        ((key, subject, text),) = _inbox(hidden, gm)
        assert key == f"private-{gm}-summary-1"
        assert subject == "Round 1 in full · keep-1"
        assert "Body 5 vs 2" in text
        assert "| Goblin | foes | with Aria, Bram | 2/2 | 1/1 | 1/0 | active |" in text
    assert _inbox(hidden, "alice") == _inbox(hidden, "bob") == []
    assert all(not r.reply_key.startswith("private") for r in hidden.replies() if r.reply_key)


def test_an_open_table_sends_nothing_privately(table: Table) -> None:
    _fight(table)

    assert _inbox(table, "gm_sam") == []
    (summary,) = [r for r in table.replies() if r.reply_key == "summary-1"]
    assert "Body 5 vs 2" in summary.body


def test_a_gms_status_is_answered_in_the_thread_as_players_see_it_and_in_full_privately(
    hidden: Table,
) -> None:
    hidden.post("gm_sam", SETUP, 0)
    status = hidden.post("gm_sam", "!status", 1)
    hidden.post("alice", "!status", 2)
    hidden.poll(3)

    (shown,) = hidden.reply_to(status)
    assert "| Goblin | with Aria, Bram | ? | ? | active |" in shown.body
    ((key, subject, text),) = _inbox(hidden, "gm_sam")
    assert (key, subject) == (f"private-gm_sam-{status}-1", "Round 1 so far, in full · keep-1")
    assert "| Goblin | with Aria, Bram | 3/3 | 1/1 | active |" in text
    assert _inbox(hidden, "gm_kim") == _inbox(hidden, "alice") == []


def test_a_player_gets_their_own_sheet_privately_and_the_thread_gets_no_reply(
    hidden: Table,
) -> None:
    hidden.post("gm_sam", SETUP, 0)
    asked = hidden.post("bob", "Checking my numbers.\n!sheet private", 1)
    hidden.poll(2)

    assert hidden.reply_to(asked) == []
    ((key, subject, text),) = _inbox(hidden, "bob")
    assert (key, subject) == (f"private-bob-{asked}-2", "Your sheet · keep-1")
    assert "**Bram** (party, played by bob)" in text
    assert "Aria" not in text


def test_a_players_private_sheet_of_an_npc_still_hides_its_numbers(hidden: Table) -> None:
    hidden.post("gm_sam", SETUP, 0)
    hidden.post("bob", "!sheet Goblin private", 1)
    hidden.post("gm_sam", "!sheet private Goblin", 2)
    hidden.poll(3)

    ((_key, _subject, players),) = _inbox(hidden, "bob")
    ((_key, _subject, gms),) = _inbox(hidden, "gm_sam")
    assert "**Goblin**" in players and "**Goblin**" in gms
    assert "| Body | 3 | 0 | 3 | 3 |" in gms
    assert "| Body | 3 | 0 | 3 | 3 |" not in players


def test_a_private_message_the_forum_sent_but_answered_with_an_error_is_not_sent_again(
    hidden: Table,
) -> None:
    flaky = FlakyForum(hidden.forum)
    hidden.restart(forum=flaky)
    hidden.post("gm_sam", SETUP, 0)
    hidden.post("bob", "!sheet private", 1)
    flaky.commit_then_fail(1, method="send_private")

    report = hidden.bot.poll_once(hidden.clock.now)
    assert any("waits for the next poll" in w for w in report.waiting)
    hidden.poll(3)
    hidden.poll(4)

    assert len(_inbox(hidden, "bob")) == 1
    assert [c.args["key"] for c in flaky.calls_to("find_private")] == [_inbox(hidden, "bob")[0][0]]
    assert len(flaky.calls_to("send_private")) == 1


def test_a_temporary_failure_sends_the_private_message_on_a_later_poll(hidden: Table) -> None:
    flaky = FlakyForum(hidden.forum)
    hidden.restart(forum=flaky)
    hidden.post("gm_sam", SETUP, 0)
    hidden.post("bob", "!sheet private", 1)
    flaky.fail_next("send_private", 2)

    hidden.bot.poll_once(hidden.clock.now)
    hidden.bot.poll_once(hidden.clock.now)
    assert _inbox(hidden, "bob") == []
    hidden.poll(5)

    assert len(_inbox(hidden, "bob")) == 1


def test_a_private_message_refused_for_good_is_reported_and_the_thread_goes_on(
    hidden: Table,
) -> None:
    flaky = FlakyForum(hidden.forum)
    hidden.restart(forum=flaky)
    hidden.post("gm_sam", SETUP, 0)
    hidden.post("bob", "!sheet private", 1)
    flaky.fail_next("send_private", temporary=False, message="that user doesn't exist")
    asked = hidden.post("alice", "!sheet", 2)

    report = hidden.bot.poll_once(hidden.clock.now)

    assert any("refused for good" in e for e in report.errors)
    assert _inbox(hidden, "bob") == []
    assert len(hidden.reply_to(asked)) == 1
