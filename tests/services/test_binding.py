"""`!campaign NAME` in a thread the bot does not watch yet binds it (SPEC §2.5)."""

from __future__ import annotations

from service_table import BOT, SETUP, THREAD, Table, at

from pbp.services.export import thread_ledger


def _post(table: Table, thread: str, author: str, body: str, minute: float) -> str:
    table.clock.now = at(minute)
    return table.forum.post(thread=thread, author=author, body=body, at=at(minute)).id


def test_the_gm_binds_a_new_thread_and_the_characters_come_along(table: Table) -> None:
    table.post("gm_sam", SETUP, 0)
    table.post("alice", "[physical: attack Goblin]", 1)
    table.post("gm_sam", "!close", 2)
    table.poll(3)
    _post(table, "keep-2", "gm_sam", "The chase goes on.\n!campaign Test Keep", 10)
    _post(table, "keep-2", "bob", "[phisical: attack Goblin]", 11)
    report = table.poll(12)
    assert report.errors == []
    ledger = thread_ledger(table.bot, "keep-2")
    assert ledger["characters"]["Goblin"]["body"]["damage"] == 1  # from keep-1
    assert ledger["characters"]["Goblin"]["group"] != ledger["characters"]["Aria"]["group"]
    replies = [p for p in table.forum.thread("keep-2") if p.author == BOT]
    assert [r.reply_key for r in replies][:1] == ["cheatsheet"]
    assert any("phisical" in r.body for r in replies)  # the new thread is read and answered
    table.restart()
    table.poll(13)  # a restarted bot still watches it (the binding is in the database)
    _post(table, "keep-2", "gm_sam", "!close", 14)
    table.poll(15)
    assert thread_ledger(table.bot, "keep-2")["rounds"][0]["closed_by"] is not None


def test_only_a_gm_of_that_campaign_binds_a_thread_and_only_to_a_campaign_it_runs(
    table: Table,
) -> None:
    table.post("alice", "[pass]", 0)
    table.poll(1)
    _post(table, "keep-2", "alice", "!campaign Test Keep", 2)
    _post(table, "keep-3", "gm_sam", "!campaign The Other Game", 3)
    report = table.bot.poll_once(at(4))
    assert len(report.errors) == 2
    assert "alice is not a GM of 'Test Keep'" in report.errors[0]
    assert (
        "'The Other Game', which this bot does not run (it runs: Test Keep)" in (report.errors[1])
    )
    assert [p for p in table.forum.thread("keep-2") if p.author == BOT] == []


def _sheet_reply(table: Table, thread: str, post_id: str) -> str:
    return next(
        p.body for p in table.forum.thread(thread) if p.author == BOT and p.reply_to == post_id
    )


def _damage(table: Table, thread: str, name: str) -> tuple[int, int]:
    character = thread_ledger(table.bot, thread)["characters"][name]
    return character["body"]["damage"], character["mind"]["damage"]


def test_a_new_thread_starts_from_the_state_the_old_one_stands_in_now(table: Table) -> None:
    table.post("gm_sam", SETUP + "\n!damage Aria body 3\n!damage Aria mind 2", 0)
    table.post("gm_sam", "!close", 1)
    table.post("gm_sam", "!encounter end medic Aria rally Aria", 2)
    table.post("gm_sam", "!rest night", 3)  # set-up of the open round: it acts at once
    asked_old = table.post("alice", "!sheet Aria", 4)
    table.poll(5)
    assert _damage(table, THREAD, "Aria") == (1, 0)  # 3/2, then a night's rest: 2 less each
    _post(table, "keep-2", "gm_sam", "!campaign Test Keep", 10)
    asked_new = _post(table, "keep-2", "alice", "!sheet Aria", 11)
    table.poll(12)
    assert _damage(table, "keep-2", "Aria") == (1, 0)
    assert _sheet_reply(table, "keep-2", asked_new) == _sheet_reply(table, THREAD, asked_old)


def test_with_two_threads_running_a_new_one_starts_from_where_the_table_posted_last(
    table: Table,
) -> None:
    table.post("gm_sam", SETUP, 0)
    table.poll(1)
    _post(table, "keep-2", "gm_sam", "!campaign Test Keep\n!damage Bram body 2\n!close", 2)
    table.poll(3)
    table.post("gm_sam", "!damage Aria body 2\n!close", 4)  # keep-1 again, after keep-2
    table.poll(5)
    _post(table, "keep-3", "gm_sam", "!campaign Test Keep", 6)
    table.poll(7)
    assert _damage(table, "keep-3", "Aria") == (2, 0)  # keep-1's state: it moved last
    assert _damage(table, "keep-3", "Bram") == (0, 0)
    _post(table, "keep-2", "gm_sam", "!damage Bram mind 1\n!close", 8)
    table.poll(9)
    _post(table, "keep-4", "gm_sam", "!campaign Test Keep", 10)
    table.poll(11)
    assert _damage(table, "keep-4", "Bram") == (2, 1)  # now keep-2 moved last
    assert _damage(table, "keep-4", "Aria") == (0, 0)
