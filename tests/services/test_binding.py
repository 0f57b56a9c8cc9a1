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


def _bot_says(table: Table, thread: str) -> list[str]:
    return [p.body for p in table.forum.thread(thread) if p.author == BOT]


def test_a_campaign_moves_to_its_new_thread_and_the_old_one_is_told_and_read_no_more(
    table: Table,
) -> None:
    # SPEC §1: a campaign runs over several threads, one after another
    table.post("gm_sam", SETUP, 0)
    table.post("alice", "[physical: attack Goblin]", 1)
    table.poll(2)
    bind = _post(table, "keep-2", "gm_sam", "The chase goes on.\n!campaign Test Keep", 10)
    table.poll(11)
    new = next(p.body for p in table.forum.thread("keep-2") if p.reply_to == bind)
    assert (
        "This thread runs **Test Keep**: its characters came from thread keep\\-1 as they stood"
        in new
    ), new
    old = _bot_says(table, THREAD)
    moved = [b for b in old if "has moved to thread keep\\-2" in b]
    assert len(moved) == 1, old
    assert "The open round 1 is not resolved" in moved[0]
    # keep-1 is read no more: its posts get no answer, its close no summary
    before = len(_bot_says(table, THREAD))
    table.post("bob", "[mentl: attack Goblin]", 12)
    table.post("gm_sam", "!close", 13)
    table.poll(14)
    table.restart()
    table.poll(15)
    assert len(_bot_says(table, THREAD)) == before
    # the next thread takes the campaign from keep-2, never from keep-1
    _post(table, "keep-2", "gm_sam", "!damage Bram body 2\n!close", 16)
    table.poll(17)
    _post(table, "keep-3", "gm_sam", "!campaign Test Keep", 18)
    table.poll(19)
    assert _damage(table, "keep-3", "Bram") == (2, 0)
    assert len([b for b in _bot_says(table, "keep-2") if "has moved to thread keep" in b]) == 1
