"""Each ruleset's sheet keys: mistakes and keys the campaign's scenes do not read, by line."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pbp.campaign.loader import read_campaign
from pbp.cli import app
from pbp.errors import ConfigError


def head(ruleset: str) -> str:
    return f'[campaign]\nname = "Keep"\ngms = ["gm"]\nruleset = "{ruleset}"\n'


def warnings_of(text: str) -> list[str]:
    return [str(w) for w in read_campaign(text, path="k.toml")[1]]


def mistakes_of(text: str) -> list[str]:
    with pytest.raises(ConfigError) as caught:
        read_campaign(text, path="k.toml")
    return [str(e) for e in caught.value.every]


D20_SHEET = """
[[characters]]
name = "Aria"
player = "alice"
skills = { Stealth = 6, Fortitude = 3 }
attack = 5
defense = 14
dice_pool = 2
"""
MARKHOR_SHEET = """
[[characters]]
name = "Aria"
player = "alice"
constitution = 3
wisdom = 2
intuition = 1
hp = 18
wp = 15
stamina = 2
"""
DISTAT_SHEET = '\n[[characters]]\nname = "Aria"\nplayer = "alice"\nbody = 6\nmind = 3\n'


@pytest.mark.parametrize(
    ("ruleset", "sheet"),
    [("d20", D20_SHEET), ("skirmish", MARKHOR_SHEET), ("distat", DISTAT_SHEET),
     ("abstract", '\n[[characters]]\nname = "Aria"\nskills = { Athletics = 12 }\n')],
)  # fmt: skip
def test_a_sheet_of_the_campaigns_own_ruleset_loads_without_warnings(
    ruleset: str, sheet: str
) -> None:
    campaign, warnings = read_campaign(head(ruleset) + sheet, path="k.toml")
    assert warnings == ()
    assert campaign.characters[0].name == "Aria"


def test_a_key_only_another_scene_reads_is_a_warning_naming_that_scene() -> None:
    warnings = warnings_of(head("distat") + D20_SHEET)
    assert len(warnings) == 5  # skills, attack, defense, dice_pool; and no Distat points
    assert warnings[2] == (
        'k.toml: characters[0] "Aria" .defense (line 11): defense is a d20 Defense (what an '
        'attack roll must meet); this campaign runs Distat scenes (ruleset = "distat"), so it '
        "counts only in a scene a GM starts with !encounter d20"
    )
    battle = warnings_of(head("d20") + MARKHOR_SHEET)
    assert any(".hp (line 12): hp is Markhorspire battle HP" in w for w in battle)
    assert all("runs d20 Advanced scenes" in w for w in battle)


def test_a_skirmish_campaign_reads_battle_keys_too() -> None:
    # RULES M8: a skirmish the party loses goes on as a battle
    assert warnings_of(head("skirmish") + MARKHOR_SHEET) == []
    assert len(warnings_of(head("battle") + MARKHOR_SHEET)) == 2  # constitution, wisdom


def test_a_ruleset_word_that_is_not_a_sheet_key_says_where_its_number_goes() -> None:
    text = head("d20") + D20_SHEET + "fortitude = 4\nap = 4\nranks = 3\n"
    assert mistakes_of(text) == [
        'k.toml: characters[0] "Aria" .fortitude (line 13): "fortitude" is a d20 resistance: '
        "its rank goes in skills (RULES A9) (expected skills = { Fortitude = 4 })",
        'k.toml: characters[0] "Aria" .ap (line 14): "ap" is Markhorspire AP: they come from '
        "Stamina (AP = Stamina + 3) (expected stamina = 1)",
        'k.toml: characters[0] "Aria" .ranks (line 15): "ranks" is Epic Path skill ranks: '
        "each skill's bonus goes in skills (expected skills = { Athletics = 12 })",
    ]


def test_every_mistake_of_a_d20_sheet_is_reported() -> None:
    sheet = D20_SHEET.replace("Stealth = 6", 'Stealth = "+6"')
    sheet = sheet.replace("attack = 5", "attack = 1000")
    found = mistakes_of(head("d20") + sheet.replace("defense = 14", "defense = -2"))
    assert [m.split(": ")[1] for m in found] == [
        'characters[0] "Aria" .skills.Stealth (line 9)',
        'characters[0] "Aria" .attack (line 10)',
        'characters[0] "Aria" .defense (line 11)',
    ]
    assert "Stealth is a string (expected Stealth = 5 (a whole number))" in found[0]
    assert "attack = 1000 is beyond ±999" in found[1]


def test_battle_pools_below_the_least_are_a_warning() -> None:
    text = head("battle") + MARKHOR_SHEET.replace("hp = 18", "hp = 2").replace(
        "constitution = 3\nwisdom = 2\n", ""
    )
    assert warnings_of(text) == [
        'k.toml: characters[0] "Aria" .hp (line 10): hp = 2 is below the least full HP a battle '
        "gives, 3: the battle starts this character at 3 (expected hp = 3 or more)"
    ]


def test_a_distat_pc_without_points_is_a_warning() -> None:
    text = head("distat") + '[[characters]]\nname = "Aria"\nplayer = "alice"\n'
    assert warnings_of(text) == [
        'k.toml: characters[0] "Aria" (line 5): this PC has no points in body or mind: it '
        "starts zeroed and cannot act in a Distat scene (expected body = 6, mind = 3 (the "
        "points invested in each))"
    ]


def test_pbp_check_prints_warnings_after_the_ok_line_and_exits_0(tmp_path: Path) -> None:
    path = tmp_path / "k.toml"
    path.write_text(head("distat") + D20_SHEET, encoding="utf-8")
    result = CliRunner().invoke(app, ["check", str(path)])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0].startswith("ok: ")
    assert [line.split(": ")[0] for line in lines[1:]] == ["warning"] * 5


def test_a_markhorspire_score_above_its_rating_range_is_a_warning() -> None:
    text = head("skirmish") + MARKHOR_SHEET.replace("constitution = 3", "constitution = 14")
    assert warnings_of(text) == [
        'k.toml: characters[0] "Aria" .constitution (line 9): constitution = 14 is above +6, '
        "the highest Markhorspire rating (a rating, not a D&D-style score): the scene reads it "
        "as written (expected constitution from -6 to +6)"
    ]
