"""Grace, reminders and private copies through the bot, the store and the local forum, across
a restart between the deadline and the end of the grace (issue 29)."""

from __future__ import annotations

from pathlib import Path

from sample_campaigns import TEST_KEEP
from service_table import SETUP, THREAD, Table

from pbp.services.polling import PollReport


def _table(tmp_path: Path, extra: str, visibility: str = "open") -> Table:
    tmp_path.mkdir(parents=True, exist_ok=True)
    text = TEST_KEEP.replace('visibility = "open"', f'visibility = "{visibility}"\n{extra}', 1)
    return Table(tmp_path, campaign=text)


def _keys(table: Table, prefix: str) -> list[str]:
    return [r.reply_key or "" for r in table.replies() if (r.reply_key or "").startswith(prefix)]


def test_grace_nudges_by_mention_once_across_a_restart_and_closes_at_its_end(
    tmp_path: Path,
) -> None:
    table = _table(tmp_path, "")
    table.post("gm_sam", SETUP + "\n!deadline 4h grace 2h", 0)
    table.post("alice", "[physical: attack Goblin]", 1)
    table.poll(2)
    table.poll(125)  # half time
    table.poll(241)  # the deadline: bob is nudged, the round waits
    assert _keys(table, "reminder") == ["reminder-1-1"]
    assert _keys(table, "grace") == ["grace-1-1"]
    assert table.ledger()["rounds"][0]["closed_by"] is None
    restarted = table.restart()
    table.poll(250, bot=restarted)
    table.poll(300, bot=restarted)
    assert _keys(table, "grace") == ["grace-1-1"] and _keys(table, "reminder") == ["reminder-1-1"]
    table.poll(362, bot=restarted)  # the grace is over
    first = table.ledger(restarted)["rounds"][0]
    assert first["closed_by"] == "deadline"
    assert first["closed_at"] == "2026-11-29T16:00:00+00:00"


def test_reminders_by_private_message_once_each_across_a_restart(tmp_path: Path) -> None:
    table = _table(tmp_path, 'remind = "private"\nremind_at = ["50%", "1h before"]')
    table.post("gm_sam", SETUP + "\n!deadline 4h grace 1h", 0)
    table.post("alice", "[physical: attack Goblin]", 1)
    table.poll(2)
    table.poll(125)
    table.restart()
    table.bot = table.restart()
    table.poll(130)
    table.poll(185)  # 1h before
    table.poll(241)  # the deadline: the grace nudge, privately too
    table.bot = table.restart()
    table.poll(250)
    sent = [m.key for m in table.forum.inbox("bob")]
    assert sent == [
        "private-bob-reminder-1",
        "private-bob-reminder-1-1h-before",
        "private-bob-grace-1",
    ]
    assert not _keys(table, "reminder") and not _keys(table, "grace")
    table.post("bob", "[pass]", 260)  # the last to act, in grace: the round closes now
    table.poll(261)
    assert table.ledger()["rounds"][0]["closed_by"] == "all-acted"


def _sheet_writes(report: PollReport) -> list[bool]:
    """Each write of the opening post a poll made on the forum: True an edit, False a post."""
    return [d.edited for d in report.delivered.get(THREAD, []) if d.key == "cheatsheet"]


def test_the_opening_post_is_edited_at_most_once_a_poll(tmp_path: Path) -> None:
    table = _table(tmp_path, "")  # the turn board is on by default
    table.post("gm_sam", SETUP, 0)
    table.post("alice", "[physical: attack Goblin]", 1)
    table.post("bob", "!standing [pass]", 2)
    assert _sheet_writes(table.poll(3)) == [False]  # posted once, as the poll left it
    (sheet,) = [r for r in table.replies() if r.reply_key == "cheatsheet"]
    assert "Acted: Aria" in sheet.body and "standing order: Bram" in sheet.body
    table.post("gm_sam", "!close", 4)
    assert _sheet_writes(table.poll(5)) == [True]
    (sheet,) = [r for r in table.replies() if r.reply_key == "cheatsheet"]
    assert "**Round 2 now**" in sheet.body and "Still to act: Aria" in sheet.body
    table.post("alice", "Ow. [physical: attack Goblin]", 6)
    table.post("alice", "Just chatter, no tag.", 7)
    table.post("bob", "!standing off", 8)
    assert _sheet_writes(table.poll(9)) == [True]  # two posts changed the board: one edit
    (sheet,) = [r for r in table.replies() if r.reply_key == "cheatsheet"]
    assert "Acted: Aria" in sheet.body and "Still to act: Bram" in sheet.body
    table.post("cara", "Nice weather.", 10)
    assert _sheet_writes(table.poll(11)) == []  # nothing on the board changed
    assert _sheet_writes(table.poll(12)) == []


def test_private_copies_off_sends_none_and_a_reclosed_round_edits_its_copy(
    tmp_path: Path,
) -> None:
    off = _table(tmp_path / "off", 'private_copies = "off"', visibility="hide-npcs")
    off.post("gm_sam", SETUP, 0)
    off.post("alice", "[physical: attack Goblin]", 1)
    off.post("gm_sam", "!close", 2)
    off.poll(3)
    assert off.forum.inbox("gm_sam") == []
    on = _table(tmp_path / "on", "", visibility="hide-npcs")
    on.post("gm_sam", SETUP, 0)
    on.post("alice", "[physical: attack Goblin]", 1)
    on.post("gm_sam", "!close", 2)
    on.poll(3)
    on.post("gm_sam", "!undo", 4)
    on.poll(5)
    on.post("bob", "[pass]", 6)
    on.post("gm_sam", "!close", 7)
    on.poll(8)
    (copy,) = on.forum.inbox("gm_sam")
    assert copy.key == "private-gm_sam-summary-1"
    assert "Bram" in copy.body and "passes" in copy.body  # the new close's, edited in place


def test_a_thread_read_from_its_middle_keeps_its_sheets_round_in_every_edit(
    tmp_path: Path,
) -> None:
    # The bot's first read of a thread closes round 1 silently; the cheat sheet then
    # publishes round 2's seal, and the turn board's edits (after a restart that rebuilds
    # the state from the log) keep that round and that seal.
    table = _table(tmp_path, "")
    table.post("gm_sam", SETUP, 0)
    table.post("alice", "[physical: attack Goblin]", 1)
    table.post("gm_sam", "!close", 2)
    table.poll(3)
    (sheet,) = [r for r in table.replies() if r.reply_key == "cheatsheet"]
    assert "round 2 is open" in sheet.body and "Dice seal of round 2" in sheet.body
    assert "**Round 2 now**" in sheet.body and "Still to act: Aria, Bram" in sheet.body
    table.bot = table.restart()
    table.post("bob", "[pass]", 4)
    table.poll(5)
    (edited,) = [r for r in table.replies() if r.reply_key == "cheatsheet"]
    assert edited.edited_at is not None and "Acted: Bram" in edited.body
    assert "round 2 is open" in edited.body and "Dice seal of round 2" in edited.body
    assert edited.body.split("Dice seal")[1] == sheet.body.split("Dice seal")[1]
