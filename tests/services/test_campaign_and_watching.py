"""Campaign files that change, posts that fail, threads first watched, and thread leases."""

from __future__ import annotations

from pathlib import Path

from service_table import BOT, CAMPAIGN, SETUP, THREAD, Table, at

from pbp.services.bot import Bot, BotOptions


def test_a_character_added_to_the_campaign_file_can_act_and_damage_stays(table: Table) -> None:
    table.post("gm_sam", SETUP, 0)
    table.post("alice", "[physical: attack Goblin]", 1)
    table.post("gm_sam", "!close", 2)
    table.poll(3)
    assert table.ledger()["characters"]["Goblin"]["body"]["damage"] == 1
    table.campaign.write_text(
        CAMPAIGN + '\n[[characters]]\nname = "Dax"\nplayer = "dan"\nbody = 4\nmind = 4\n',
        encoding="utf-8",
    )
    table.post("dan", "Dax arrives. [mental: attack Goblin]", 4)
    table.post("gm_sam", "!close", 5)
    table.poll(6)
    ledger = table.ledger()
    assert [a["actor"] for a in ledger["rounds"][1]["actions"]] == ["Dax"]
    assert ledger["characters"]["Goblin"]["body"]["damage"] == 1  # state stays
    assert ledger["rejected"] == []


def test_a_broken_campaign_file_keeps_the_old_campaign_running(table: Table) -> None:
    table.post("gm_sam", SETUP, 0)
    table.poll(1)
    table.campaign.write_text("[campaign\nname = ", encoding="utf-8")
    table.post("alice", "[physical: attack Goblin]", 2)
    table.post("gm_sam", "!close", 3)
    table.poll(4)
    assert [a["actor"] for a in table.ledger()["rounds"][0]["actions"]] == ["Aria"]


def test_a_post_whose_reply_cannot_be_rendered_fails_alone(tmp_path: Path) -> None:
    folder = tmp_path / "tpl"
    folder.mkdir()
    (folder / "ack.md.j2").write_text("{{ 1 / 0 }}", encoding="utf-8")
    campaign = CAMPAIGN.replace('visibility = "open"', 'visibility = "open"\ntemplates = "tpl"')
    table = Table(tmp_path, campaign=campaign, ack="all")
    table.post("gm_sam", SETUP, 0)
    good = table.post("alice", "[physical: attack Goblin]", 1)  # its confirmation breaks
    typo = table.post("bob", "[phisical: attack Goblin]", 2)
    report = table.bot.poll_once(at(3))
    assert [line.split(":")[0] for line in report.failed] == [f"{THREAD}/{good}"]
    assert len(table.reply_to(typo)) == 1  # the next post was still read and answered
    report = table.bot.poll_once(at(4))
    assert report.failed == []  # a failed version is not retried every poll


def test_a_thread_first_watched_mid_game_resolves_old_rounds_silently(table: Table) -> None:
    table.post("gm_sam", SETUP, 0)
    table.post("alice", "[physical: attack Goblin]", 1)
    close = table.post("gm_sam", "!close", 2)
    typo = table.post("bob", "[phisical: attack Goblin]", 3)
    table.poll(4)  # the bot sees the thread for the first time
    ledger = table.ledger()
    assert ledger["rounds"][0]["closed_by"] == close
    assert [a["actor"] for a in ledger["rounds"][0]["actions"]] == ["Aria"]
    assert ledger["rounds"][0]["summary"]  # recorded, though never posted
    replies = table.replies()
    assert not any("Round 1: results" in r.body for r in replies)
    [sheet] = [r for r in replies if r.reply_to is None]
    assert sheet.reply_key == "cheatsheet" and "round 2 is open" in sheet.body
    assert "Dice seal of round 2" in sheet.body  # the open round's seal, said to be its own
    assert len(table.reply_to(typo)) == 1  # the open round gets its replies


def test_a_thread_leased_by_a_live_worker_is_left_alone_until_the_lease_expires(
    table: Table,
) -> None:
    table.post("gm_sam", SETUP, 0)
    table.poll(1)  # worker w1 holds the thread
    other = table.restart(owner="w2")
    table.post("alice", "[physical: attack Goblin]", 2)
    table.clock.now = at(3)
    report = other.poll_once(at(3))
    assert report.skipped and "w1" in report.skipped[0]
    table.post("gm_sam", "!close", 4)
    table.clock.now = at(30)  # w1 died; its ten-minute lease ran out
    report = other.poll_once(at(30))
    assert report.skipped == []
    [closed, _open] = table.ledger(other)["rounds"]
    assert [a["actor"] for a in closed["actions"]] == ["Aria"]  # caught up on what it skipped


def test_a_lease_held_by_a_worker_known_dead_is_taken_at_once(table: Table) -> None:
    table.post("gm_sam", SETUP, 0)
    table.poll(1)  # w1 holds the thread, then dies
    other = table.restart(owner="w2", owner_alive=lambda owner: owner != "w1")
    table.post("alice", "[physical: attack Goblin]", 2)
    table.post("gm_sam", "!close", 3)
    report = other.poll_once(at(4))  # well inside w1's lease
    assert report.skipped == []
    assert [a["actor"] for a in table.ledger(other)["rounds"][0]["actions"]] == ["Aria"]


def test_a_thread_taken_out_of_the_config_is_left_alone(table: Table) -> None:
    table.post("gm_sam", SETUP, 0)
    table.poll(1)
    replies = len(table.replies())
    retired = Bot(
        store=table.store,
        forum=table.forum,
        threads=[],
        options=BotOptions(username=BOT, owner="w1"),
    )
    table.post("bob", "[phisical: attack Goblin]", 2)
    report = table.poll(3, bot=retired)
    assert report.events == 0 and len(table.replies()) == replies
