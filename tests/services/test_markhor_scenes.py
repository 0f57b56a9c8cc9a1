"""Markhorspire skirmishes and battles played through ``pbp replay``: what the replies and the
ledger say (RULES §4, §7)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from click.testing import CliRunner
from scene_play import play

from pbp.cli import app

CAMPAIGN = """
[campaign]
name = "Markhor Keep"
gms = ["gm_sam"]
ruleset = "{ruleset}"

[[characters]]
name = "Aria"
player = "alice"
constitution = 2
wisdom = 1
intuition = {intuition}
stamina = 0

[[characters]]
name = "Bram"
player = "bob"
constitution = 1
wisdom = 2
intuition = 1
stamina = 1

[[characters]]
name = "Goblin"
constitution = 1
wisdom = 0
"""


def campaign(ruleset: str = "skirmish", *, intuition: int = 0, extra: str = "") -> str:
    return CAMPAIGN.format(ruleset=ruleset, intuition=intuition) + extra


def test_ratings_a_negative_intuition_loads_and_plays_in_a_battle(tmp_path: Path) -> None:
    # RULES §7: Markhorspire ratings run from -6 to +6; Intuition adds to battle initiative (M5)
    played = play(tmp_path, campaign("battle", intuition=-3), [
        ("alice", "[attack: Goblin]"),
        ("gm_sam", "!close"),
    ])  # fmt: skip
    aria = next(r for r in played.ledger["rounds"][0]["fight"]["initiative"] if r["name"] == "Aria")
    assert aria["bonus"] == -3 and aria["total"] == aria["rolls"][0] - 3
    assert f"Aria {aria['total']}" in played.summary(1)
    assert played.actions(1)[0]["outcome"] == "success"


def test_ratings_outside_the_range_load_with_a_check_warning(tmp_path: Path) -> None:
    # RULES §7: a GM's boss may go past -6..+6: it loads, and `pbp check` warns
    path = tmp_path / "keep.toml"
    path.write_text(campaign(intuition=-8).replace("stamina = 1", "stamina = 9"), "utf-8")
    result = CliRunner().invoke(app, ["check", str(path)])
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.output.splitlines() if line.startswith("warning: ")]
    assert len(warnings) == 2
    assert "intuition = -8 is below -6, the lowest Markhorspire rating" in warnings[0]
    assert "stamina = 9 is above +6, the highest Markhorspire rating" in warnings[1]
    assert "(expected stamina from -6 to +6)" in warnings[1]


WOLF = '\n[[characters]]\nname = "Wolf"\nconstitution = 1\nsapient = false\n'
WON = [  # Goblin and Wolf have 1 HP and 1 WP each: two hits put each out
    ("alice", "[attack: Goblin]"),
    ("bob", "[attack: Wolf]"),
    ("gm_sam", "!close"),
    ("alice", "[attack: Goblin]"),
    ("bob", "[attack: Wolf]"),
    ("gm_sam", "!close"),
]


def test_M8_a_won_skirmish_leaves_sapient_foes_incapacitated_and_beasts_dead(
    tmp_path: Path,
) -> None:
    # RULES M8, §7: incapacitated (sapient, the default) or dead (`sapient = false`); the
    # skirmish pools are dismissed, and neither is back in the fight
    open_keep = campaign(extra=WOLF).replace(
        'gms = ["gm_sam"]', 'gms = ["gm_sam"]\nvisibility = "open"'
    )
    played = play(tmp_path, open_keep, [
        *WON,
        ("alice", "[attack: Goblin]"),
        ("gm_sam", "!status"),
        ("gm_sam", "!sheet Wolf"),
    ])  # fmt: skip
    assert played.ledger["rounds"][1]["fight"]["ended"] == "party_won"
    assert "Goblin is incapacitated, Wolf is dead" in played.summary(2)
    assert "| Wolf | 0 | 0 | dead |" in played.summary(2)
    characters = played.ledger["characters"]
    assert characters["Goblin"]["status"] == "incapacitated"
    assert characters["Wolf"]["status"] == "dead"
    assert "skirmish" not in characters["Goblin"] and "skirmish" not in characters["Wolf"]
    assert characters["Aria"]["status"] == "active"  # not Distat's "zeroed"
    assert "Goblin is already out" in played.reply_to("p7")  # not back in the fight
    status = played.reply_to("p8")
    assert "| Goblin | foes | – | – | incapacitated |" in status
    assert "| Wolf | foes | – | – | dead |" in status
    assert "dead: out of the fight since a won skirmish" in played.reply_to("p9")


def test_M8_the_fallen_roll_no_initiative_in_the_next_skirmish(tmp_path: Path) -> None:
    # RULES M8, §7: neither is back in the fight; the campaign's next skirmish leaves them out
    played = play(tmp_path, campaign(extra=WOLF), [
        *WON,
        ("alice", "[act: loot the camp]"),
        ("gm_sam", "!close"),
    ])  # fmt: skip
    fight = played.ledger["rounds"][2]["fight"]
    assert sorted(fight["order"]) == ["Aria", "Bram"]
    assert sorted(r["name"] for r in fight["initiative"]) == ["Aria", "Bram"]
    assert "Goblin" not in played.summary(3)


def test_M2_battle_damage_past_0_hp_removes_wp_and_0_hp_0_wp_is_out(tmp_path: Path) -> None:
    # RULES §7 (M2 in battles): Goblin has 12 HP and 12 WP (the battle's least when not given)
    played = play(tmp_path, campaign("battle"), [
        ("alice", "[attack: Goblin | damage 15]"),
        ("gm_sam", "!close"),
        ("alice", "[attack: Goblin | damage 9]"),
        ("gm_sam", "!close"),
    ])  # fmt: skip
    first, second = played.actions(1)[0], played.actions(2)[0]
    assert first["damage"] == [
        {"character": "Goblin", "stat": "hp", "amount": 12},
        {"character": "Goblin", "stat": "wp", "amount": 3},
    ]
    assert second["damage"] == [{"character": "Goblin", "stat": "wp", "amount": 9}]
    assert second["out"] == ["Goblin"]
    assert "Goblin −9 WP; **Goblin is out**" in played.summary(2)
    assert played.ledger["characters"]["Goblin"]["status"] == "out"
    assert played.ledger["characters"]["Goblin"]["battle"] == {"hp": 0, "wp": 0, "out": True}


# Bram (WP 2) is hit twice first: 0 HP, 1 WP left, so his next cast spends his last WP
BRAM_AT_LAST_WP = [
    ("gm_sam", "!damage Bram hp 1\n!damage Bram wp 1\n!damage Aria hp 1"),
]


def _last_wp_cast(tmp_path: Path, cast: str) -> tuple[dict[str, Any], str]:
    played = play(tmp_path, campaign(extra=WOLF), [
        *BRAM_AT_LAST_WP,
        ("bob", cast),
        ("gm_sam", "!close"),
    ])  # fmt: skip
    return played.actions(1)[0], played.summary(1)


def test_M2_a_caster_put_out_by_paying_still_heals_someone_else(tmp_path: Path) -> None:
    # RULES §7: only a self-heal is void; M3 forbids restoring someone out, not acting on the
    # way out
    action, summary = _last_wp_cast(tmp_path, "[cast: heal Aria]")
    assert action["outcome"] == "success" and action["healed"] == 1
    assert action["out"] == ["Bram"] and action["caster_wp"] == 0
    assert "Aria back to full HP; Bram spends 1 WP; **Bram is out**" in summary


def test_M2_a_caster_put_out_by_paying_still_lands_a_damaging_cast(tmp_path: Path) -> None:
    action, summary = _last_wp_cast(tmp_path, "[cast: Goblin]")
    assert action["outcome"] == "success"
    assert action["damage"] == [{"character": "Goblin", "stat": "hp", "amount": 1}]
    assert action["out"] == ["Bram"]
    assert "Goblin −1 HP; Bram spends 1 WP; **Bram is out**" in summary


def test_M2_a_caster_put_out_by_paying_for_its_own_heal_is_void(tmp_path: Path) -> None:
    action, summary = _last_wp_cast(tmp_path, "[cast: heal Bram]")
    assert action["outcome"] == "void" and action["reason"] == "put_out_by_cost"
    assert action["caster_wp"] == 0  # the WP stays spent
    assert "so the heal does not land" in summary


def test_M6_advantage_with_no_difficulty_set_is_refused_and_rolls_nothing(tmp_path: Path) -> None:
    # RULES M6, M9: a course rolls only when the GM sets a difficulty; there is no default
    played = play(tmp_path, campaign(), [
        ("bob", "[cast: Goblin | adv]"),
        ("gm_sam", "!close"),
    ])  # fmt: skip
    reply = played.reply_to("p1")
    assert "none is set for this post, so this tag rolls no dice" in reply
    assert "Write `[cast: Goblin]`" in reply and "`!difficulty p1 12`" in reply
    assert played.actions(1) == []  # nothing acted, nothing rolled
    assert "p1·0" not in played.summary(1)
    assert played.ledger["rejected"][0]["code"] == "markhor_rule"


def test_M6_advantage_acts_once_the_gm_sets_a_difficulty_before_the_close(tmp_path: Path) -> None:
    played = play(tmp_path, campaign(), [
        ("bob", "[cast: Goblin, dis]"),
        ("gm_sam", "!difficulty p1 1\n!close"),
    ])  # fmt: skip
    (action,) = played.actions(1)
    assert action["net_advantage"] == -1 and len(action["dice"]) == 2
    assert action["difficulty"] == 1 and action["outcome"] == "success"
    assert not played.ledger["rejected"]


def test_an_out_character_is_not_listed_under_did_not_act(tmp_path: Path) -> None:
    # the seed: an entity out of combat has its turn skipped; nobody waits for its action
    played = play(tmp_path, campaign(), [
        ("gm_sam", "!damage Bram hp 1\n!damage Bram wp 2"),
        ("alice", "[attack: Goblin]"),
        ("gm_sam", "!close"),
        ("alice", "[attack: Goblin]"),
        ("gm_sam", "!status"),
    ])  # fmt: skip
    assert played.ledger["characters"]["Bram"]["status"] == "out"
    assert played.ledger["rounds"][0]["not_acted"] == []
    assert "Did not act" not in played.summary(1)
    assert "Still to act" not in played.reply_to("p5")


def test_the_turn_column_has_every_turn_with_no_gap(tmp_path: Path) -> None:
    played = play(tmp_path, campaign("battle"), [
        ("bob", "[attack: Goblin]"),
        ("gm_sam", "!close"),
    ])  # fmt: skip
    order = played.ledger["rounds"][0]["fight"]["order"]
    rows = [line for line in played.summary(1).splitlines() if line.startswith("| ")]
    turns = [row.split(" | ")[0].strip("| ") for row in rows[1 : 1 + len(order)]]
    assert turns == [str(n) for n in range(1, len(order) + 1)]
    idle = [row for row in rows if "| – | no course |" in row]
    assert len(idle) == len(order) - 1  # everyone but Bram took no course


LAST_WP = [  # Bram (1 HP, 2 WP) left with 0 HP and 1 WP by the GM's corrections
    ("alice", "[attack: Goblin]"),
    ("gm_sam", "!damage Bram hp 1\n!damage Bram wp 1"),
    ("gm_sam", "!close"),
]


def test_M2_a_self_heal_paying_the_last_WP_is_warned_of_when_read(tmp_path: Path) -> None:
    # RULES M2, §6, §7: the cost is paid first, so the caster is out and its self-heal void;
    # the post's reply says so before the close, not only the summary after it
    played = play(tmp_path, campaign(), [
        *LAST_WP,
        ("bob", "[cast: heal Bram]"),
        ("gm_sam", "!close"),
    ])  # fmt: skip
    reply = played.reply_to("p4")
    assert "Read: `[cast: heal Bram]`." in reply
    assert "Note: this cast costs Bram's last WP: Bram will be out after it" in reply
    assert "so this heal of Bram will not land" in reply
    bram = next(a for a in played.actions(2) if a["actor"] == "Bram")
    assert bram["outcome"] == "void"


def test_M2_a_cast_on_another_paying_the_last_WP_is_warned_of_and_still_lands(
    tmp_path: Path,
) -> None:
    # RULES §7: only a self-heal is void; a cast on someone else lands on the way out
    played = play(tmp_path, campaign(), [
        *LAST_WP,
        ("bob", "[cast: heal Aria]"),
        ("alice", "[cast: Goblin]"),  # Aria has HP left: paying 1 WP does not put her out
        ("gm_sam", "!close"),
    ])  # fmt: skip
    reply = played.reply_to("p4")
    assert "Note: this cast costs Bram's last WP: Bram will be out after it" in reply
    assert "(the cast on Aria still lands, RULES §7)" in reply
    assert played.reply_to("p5") == ""  # nothing to warn of, and no confirmation asked for


def test_M8_an_npc_given_sapient_no_ends_a_won_skirmish_dead_and_its_sheet_says_so_later(
    tmp_path: Path,
) -> None:
    # RULES M8, §7: `!npc … sapient no` is a beast: dead, not incapacitated; in the Distat
    # scene after the skirmish, `!sheet` still says how each foe fell
    open_keep = campaign("distat").replace(
        'gms = ["gm_sam"]', 'gms = ["gm_sam"]\nvisibility = "open"'
    )
    played = play(tmp_path, open_keep, [
        ("gm_sam", "!encounter skirmish\n!npc Wolf constitution 1 side foes sapient no"),
        *WON,
        ("gm_sam", "!sheet Wolf\n!sheet Goblin\n!sheet Aria"),
    ])  # fmt: skip
    assert "**Wolf** joins the scene (foes)." in played.reply_to("p1")
    assert "Goblin is incapacitated, Wolf is dead" in played.summary(2)
    assert played.ledger["characters"]["Wolf"]["status"] == "dead"
    sheets = played.reply_to("p8")
    assert "**Wolf** (foes): **dead since a won skirmish**" in sheets
    assert "**Goblin** (foes): **incapacitated since a won skirmish**" in sheets
    assert "**Aria** (party, played by alice)\n" in sheets  # standing: nothing to say
    assert "| Body |" in sheets  # the Distat scene's own sheet still follows


def test_M8_npc_sapient_takes_yes_or_no(tmp_path: Path) -> None:
    played = play(tmp_path, campaign(), [("gm_sam", "!npc Wolf constitution 1 sapient maybe")])
    assert "sapient yes or no" in played.reply_to("p1")
    assert "Wolf" not in played.ledger["characters"]
