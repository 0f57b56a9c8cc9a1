"""Each ruleset's part of a character sheet, found by its type, and the registry that lists
them: every key belongs to one part and is listed once."""

from __future__ import annotations

import pytest

from pbp.campaign.loader import parse_campaign
from pbp.campaign.model import CharacterSheet
from pbp.campaign.sheets import registry
from pbp.campaign.sheets.skills import SkillSheet
from pbp.errors import ConfigError
from pbp.rulesets.d20.sheet import D20Sheet
from pbp.rulesets.distat.sheet import DistatSheet
from pbp.rulesets.markhor.sheet import MarkhorSheet

SHEET = """[campaign]
name = "Keep"
gms = ["gm"]
[[characters]]
name = "Aria"
player = "alice"
body = 6
mind = 3
skills = { Stealth = 6 }
attack = 5
dice_pool = 2
constitution = 3
hp = 18
"""


def test_each_key_belongs_to_one_part_and_the_message_lists_each_once() -> None:
    claimed = [key for part in registry.ALL for key in part.keys]
    assert len(claimed) == len(set(claimed)) == len(registry.SHEET_KEYS)
    assert sorted(registry.LISTED) == sorted(claimed)
    misplaced = [word for part in registry.ALL for word in part.misplaced]
    assert len(misplaced) == len(set(misplaced)) == len(registry.MISPLACED)
    assert not set(misplaced) & set(claimed)


def test_each_option_belongs_to_one_part_and_the_message_lists_each_once() -> None:
    claimed = [key for part in registry.ALL for key in part.options]
    assert len(claimed) == len(set(claimed)) == len(registry.OPTIONS)
    general = ["close_on_any_gm_post"]  # RULES D8: read by the loader, for every scene
    assert sorted(registry.OPTIONS_LISTED) == sorted(claimed + general)


def test_a_part_with_options_gives_them_and_one_without_gives_none() -> None:
    for part in registry.ALL:
        given = {key: option.default for key, option in part.options.items()}
        assert (part.read_options(given) is None) == (not part.options)


def test_every_scene_kind_a_key_names_has_a_name_in_warnings() -> None:
    kinds = {kind for key in registry.SHEET_KEYS.values() for kind in key.kinds}
    assert kinds <= set(registry.NAMES)


def test_a_loaded_sheet_holds_each_part_by_its_type() -> None:
    aria = parse_campaign(SHEET, path="k.toml").characters[0]
    assert (aria.part(DistatSheet).body, aria.part(DistatSheet).mind) == (6, 3)
    assert aria.part(SkillSheet).skill("stealth") == 6
    assert aria.part(SkillSheet).skill("Swim") is None
    assert (aria.part(D20Sheet).attack, aria.part(D20Sheet).defense) == (5, None)
    assert (aria.part(MarkhorSheet).constitution, aria.part(MarkhorSheet).hp) == (3, 18)


def test_a_sheet_without_a_part_reads_as_an_empty_one() -> None:
    sheet = CharacterSheet(name="Imp", player=None, side="foes")
    assert sheet.part(DistatSheet) == DistatSheet()
    assert sheet.part(MarkhorSheet).hp is None
    assert sheet.scores() == {}


def test_the_scores_a_scene_reads_by_key_come_from_each_part() -> None:
    aria = parse_campaign(SHEET, path="k.toml").characters[0]
    assert aria.scores() == {"dice_pool": 2, "constitution": 3, "wisdom": 0, "intuition": 0,
                             "hp": 18, "wp": None, "stamina": 0}  # fmt: skip


def test_the_first_wrong_option_in_the_listed_order_is_the_one_reported() -> None:
    text = '[campaign]\nname = "Keep"\ngms = ["gm"]\n[campaign.options]\n'
    text += 'skirmish_minimum = 0\nclose_on_any_gm_post = 1\nidentify_bonus_requires_owning = "x"\n'
    with pytest.raises(ConfigError) as raised:
        parse_campaign(text, path="k.toml")
    assert str(raised.value) == (
        "k.toml: campaign.options.identify_bonus_requires_owning (line 7): "
        "identify_bonus_requires_owning is a string (expected true or false)"
    )
