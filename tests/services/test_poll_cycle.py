"""One poll of the bot: every post version handled once, edits, deletes, its own posts."""

from __future__ import annotations

from service_table import BOT, SETUP, Table
from sqlalchemy import select

from pbp.services.plan import body_hash
from pbp.store.schema import PostVersionRow


def test_a_typo_gets_one_reply_however_often_the_bot_polls(table: Table) -> None:
    table.post("gm_sam", SETUP, 0)
    typo = table.post("bob", "Bram hits. [phisical: attack Goblin]", 1)
    table.poll(2)
    table.poll(3)
    table.poll(4)
    assert len(table.reply_to(typo)) == 1
    assert "phisical" in table.reply_to(typo)[0].body
    with table.store.session() as s:
        rows = s.scalars(select(PostVersionRow).where(PostVersionRow.post_id == typo)).all()
        assert [(r.version, r.outcome) for r in rows] == [(1, "handled")]


def test_the_first_poll_posts_the_cheat_sheet_once(table: Table) -> None:
    table.post("alice", "Aria waits. [pass]", 0)
    table.poll(1)
    table.poll(2)
    sheets = [r for r in table.replies() if r.reply_to is None]
    assert len(sheets) == 1
    assert "round 1 is open" in sheets[0].body


def test_an_edit_that_fixes_a_typo_counts_at_the_close_and_the_error_reply_says_fixed(
    table: Table,
) -> None:
    table.post("gm_sam", SETUP, 0)
    typo = table.post("bob", "Bram hits. [phisical: attack Goblin]", 1)
    table.poll(2)
    table.edit(typo, "Bram hits. [physical: attack Goblin]", 3)
    table.poll(4)
    [reply] = table.reply_to(typo)
    assert reply.edited_at is not None and "phisical" not in reply.body
    close = table.post("gm_sam", "!close", 5)
    table.poll(6)
    ledger = table.ledger()
    [action] = ledger["rounds"][0]["actions"]
    assert (action["post"], action["actor"], action["target"]) == (typo, "Bram", "Goblin")
    assert ledger["rejected"] == []
    assert ledger["rounds"][0]["closed_by"] == close


def test_a_post_deleted_before_the_close_never_acts_and_its_text_is_purged(table: Table) -> None:
    table.post("gm_sam", SETUP, 0)
    gone = table.post("alice", "Aria swings. [physical: attack Goblin]", 1)
    table.poll(2)
    table.delete(gone, 3)
    table.post("gm_sam", "!close", 4)
    table.poll(5)
    assert table.ledger()["rounds"][0]["actions"] == []
    with table.store.session() as s:
        versions = s.scalars(select(PostVersionRow).where(PostVersionRow.post_id == gone)).all()
        assert [v.version for v in versions] == [1, 2]
        assert all(v.body is None for v in versions)  # every text of it purged
        assert versions[0].body_hash == body_hash("Aria swings. [physical: attack Goblin]")


def test_the_bot_never_reads_its_own_posts(table: Table) -> None:
    table.post("gm_sam", SETUP, 0)
    table.post(BOT, "Pretending. [physical: attack Goblin | as Aria]", 1)
    table.post("gm_sam", "!close", 2)
    table.poll(3)
    assert table.ledger()["rounds"][0]["actions"] == []
    assert table.ledger()["rejected"] == []


def test_posts_read_in_one_poll_resolve_in_post_order(table: Table) -> None:
    table.post("gm_sam", SETUP, 0)
    first = table.post("alice", "[physical: attack Goblin]", 1)
    second = table.post("bob", "[physical: attack Goblin]", 2)
    table.post("gm_sam", "!close", 3)
    table.poll(4)
    actions = table.ledger()["rounds"][0]["actions"]
    assert [a["post"] for a in actions] == [first, second]


def test_a_post_deleted_before_the_bot_saw_it_is_recorded_and_never_read(table: Table) -> None:
    table.post("gm_sam", SETUP, 0)
    table.poll(1)
    gone = table.post("alice", "[physical: attack Goblin]", 2)
    table.delete(gone, 3)
    table.post("gm_sam", "!close", 4)
    table.poll(5)
    assert table.ledger()["rounds"][0]["actions"] == []
    with table.store.session() as s:
        row = s.scalars(select(PostVersionRow).where(PostVersionRow.post_id == gone)).one()
        assert (row.outcome, row.detail) == ("skipped", "deleted unread")


def test_a_roll_tag_works_in_a_distat_scene_and_lists_its_dice(table: Table) -> None:
    table.post("gm_sam", SETUP, 0)
    table.poll(0.5)  # watched from the start: the round's summary is posted
    table.post("alice", "[physical: attack Goblin] and loot [roll: 2d6+1]", 1)
    table.post("gm_sam", "!close", 2)
    table.poll(3)
    ledger = table.ledger()
    [attack, roll] = ledger["rounds"][0]["actions"]
    assert (attack["verb"], roll["verb"], roll["outcome"]) == ("physical", "roll", "success")
    assert [(r["sides"], r["index"]) for r in roll["rolls"]] == [(6, 0), (6, 1)]
    assert roll["total"] == sum(r["value"] for r in roll["rolls"]) + 1
    assert ledger["rejected"] == []
    [summary] = [r for r in table.replies() if "Round 1: results" in r.body]
    assert "**Dice rolled**" in summary.body
    assert "|\n\n| # | Character | Action | Roll |" in summary.body  # two tables, apart
