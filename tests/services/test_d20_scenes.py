"""A d20 scene played through ``pbp replay``: rows and sheets that say what they mean."""

from __future__ import annotations

from pathlib import Path

from scene_play import play

CAMPAIGN = """
[campaign]
name = "Keep"
gms = ["gm_sam"]
ruleset = "d20"
visibility = "open"

[[characters]]
name = "Aria"
player = "alice"
attack = 5
defense = 14
dice_pool = 2
skills = { Stealth = 6, Fortitude = 3 }

[[characters]]
name = "Goblin"
defense = 12
"""


def test_attack_rows_name_the_target_and_a_plain_roll_is_not_a_success(tmp_path: Path) -> None:
    played = play(tmp_path, CAMPAIGN, [
        ("alice", "[attack: Goblin]\n[roll: 4d6kh3]"),
        ("gm_sam", "!close"),
    ])  # fmt: skip
    rows = [line for line in played.summary(1).splitlines() if line.startswith("| 1 ") or
            line.startswith("| 2 ")]  # fmt: skip
    assert "| attacks Goblin |" in rows[0] and "vs Defense 12" in rows[0]
    assert "| rolls 4d6kh3 |" in rows[1]
    assert rows[1].endswith("| rolled |")  # no DC, no success
    assert "success" not in rows[1] and "failure" not in rows[1]
    assert played.actions(1)[0]["target"] == "Goblin"


def test_a_refusal_reads_without_visible_markdown_escapes(tmp_path: Path) -> None:
    # RULES A11: two actions a round; the reply says so in words, with no "action\\(s\\)"
    played = play(tmp_path, CAMPAIGN, [
        ("alice", "[check: Stealth vs 10]\n[check: Stealth vs 11]\n[check: Stealth vs 12]"),
    ])  # fmt: skip
    reply = played.reply_to("p1")
    assert "(the check needs 1 action, 0 left)" in reply
    assert "\\(" not in reply.split("\n\n", 1)[1]  # past the quote of the tag


def test_sheet_shows_attack_defense_and_skills(tmp_path: Path) -> None:
    played = play(tmp_path, CAMPAIGN, [("alice", "!sheet")])
    sheet = played.reply_to("p1")
    assert "- Attack: +5" in sheet and "- Defense: 14" in sheet
    assert "- Skills: Stealth +6, Fortitude +3" in sheet


def test_A8_a_pool_retry_shows_each_die_and_the_one_it_kept(tmp_path: Path) -> None:
    # RULES A8: a failed check retried with N d20 keeps the highest; the row shows the failed
    # roll, each of the pool's dice and the kept one, with the same modifier
    played = play(tmp_path, CAMPAIGN, [
        ("alice", "[check: Stealth vs 30 | pool]"),
        ("gm_sam", "!close"),
    ])  # fmt: skip
    action = played.actions(1)[0]
    first, dice = action["first_roll"], action["pool_dice"]
    assert len(dice) == 2 and action["roll"] == max(dice)  # Aria's pool of 2
    row = next(line for line in played.summary(1).splitlines() if line.startswith("| 1 "))
    assert f"{first} + 6 = {first + 6} fails; dice pool retry: 2 d20 ({dice[0]}, {dice[1]})" in row
    assert f"the highest {max(dice)} kept: {max(dice)} + 6 = **{max(dice) + 6}** vs DC 30" in row
    assert "pool " + "/".join(map(str, dice)) not in row  # not "pool 11/3 keeps 11"


def test_a_gms_private_sheet_of_an_npc_is_titled_with_its_name(tmp_path: Path) -> None:
    # the GM's NPC is never "Your sheet", even where the campaign file names the GM its player;
    # a player's own sheet stays "Your sheet"
    from service_table import Table

    hidden = CAMPAIGN.replace('visibility = "open"', 'visibility = "hide-npcs"')
    table = Table(tmp_path, campaign=hidden.replace(
        'name = "Goblin"', 'name = "Goblin"\nplayer = "gm_sam"'))  # fmt: skip
    table.post("gm_sam", "!sheet Goblin private", 1)
    table.post("alice", "!sheet private", 2)
    table.poll(3)
    subjects = {(user, m.subject) for user in ("gm_sam", "alice") for m in table.forum.inbox(user)}
    assert subjects == {
        ("gm_sam", "Goblin's sheet in full · keep-1"),
        ("alice", "Your sheet · keep-1"),
    }
