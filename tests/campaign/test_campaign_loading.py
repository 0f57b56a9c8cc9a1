"""Campaign files that must load: SPEC §3's form, the bundled example, the defaults."""

from __future__ import annotations

from pathlib import Path

from pbp.campaign.loader import parse_campaign
from pbp.rulesets.d20.sheet import D20Sheet
from pbp.rulesets.distat.rules.talents import Talent
from pbp.rulesets.distat.sheet import DistatOptions, DistatSheet
from pbp.rulesets.markhor.sheet import MarkhorOptions, MarkhorSheet
from pbp.services.files import load_campaign
from pbp.tags.model import SceneKind

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"


def test_spec_section_3_form_loads_into_typed_values() -> None:
    path = FIXTURES / "spec_campaign.toml"
    campaign = parse_campaign(path.read_text(encoding="utf-8"), path=str(path))
    assert campaign.name == "The Sunken Keep"
    assert campaign.gms == ("gm_sam",)
    assert campaign.ruleset is SceneKind.DISTAT
    assert campaign.visibility == "hide-npcs"
    assert campaign.templates == "templates/"  # pure parse keeps it as written
    aria = campaign.character("aria")
    assert aria is not None
    distat, markhor = aria.part(DistatSheet), aria.part(MarkhorSheet)
    assert (aria.player, aria.side, distat.body, distat.mind) == ("alice", "party", 6, 3)
    assert (markhor.constitution, markhor.wisdom, aria.part(D20Sheet).dice_pool,
            distat.bonus_pool) == (3, 2, 0, 0)  # fmt: skip
    assert distat.talents == (
        Talent(name="Aggressive", stat="body", level=3, kind="active", eav=1, effect="attack"),
    )


def test_load_campaign_resolves_templates_against_the_campaign_folder() -> None:
    campaign = load_campaign(FIXTURES / "spec_campaign.toml")
    assert campaign.templates == str((FIXTURES / "templates").resolve())


def test_bundled_example_campaign_loads() -> None:
    campaign = load_campaign(ROOT / "examples" / "sunken-keep.toml")
    assert campaign.gms == ("gm_sam",)
    roster = {c.name: c for c in campaign.characters}
    assert list(roster) == ["Aria", "Bram", "Cora", "Goblin", "Ogre"]
    assert [c.name for c in campaign.characters if c.player is None] == ["Goblin", "Ogre"]
    assert {c.side for c in campaign.characters if c.player is None} == {"foes"}
    assert {c.side for c in campaign.characters if c.player is not None} == {"party"}
    talents = {name: c.part(DistatSheet).talents for name, c in roster.items()}
    assert talents["Ogre"][0].epv == 1
    assert talents["Cora"][0].kind == "passive"
    assert talents["Aria"][0].eav == 1


MINIMAL = '[campaign]\nname = "Keep"\ngms = ["gm"]\n'


def test_defaults_apply_when_keys_are_left_out() -> None:
    text = MINIMAL + '[[characters]]\nname = "Aria"\nplayer = "alice"\n'
    text += '[[characters]]\nname = "Goblin"\n'
    campaign = parse_campaign(text, path="c.toml")
    assert campaign.ruleset is SceneKind.DISTAT
    assert campaign.visibility == "hide-npcs"
    assert campaign.sides == ()
    assert not campaign.options.part(DistatOptions).identify_bonus_requires_owning
    assert not campaign.options.close_on_any_gm_post
    assert campaign.options.part(MarkhorOptions) == MarkhorOptions(
        skirmish_minimum=1, skirmish_per_point=1
    )
    aria, goblin = campaign.characters
    assert (aria.side, goblin.side) == ("party", "foes")
    distat, markhor = goblin.part(DistatSheet), goblin.part(MarkhorSheet)
    assert (distat.body, distat.mind, markhor.hp, markhor.wp) == (0, 0, None, None)


def test_options_table_sets_the_rules_options() -> None:
    text = MINIMAL + (
        "[campaign.options]\nidentify_bonus_requires_owning = true\nclose_on_any_gm_post = true\n"
    )
    options = parse_campaign(text, path="c.toml").options
    assert options.part(DistatOptions).identify_bonus_requires_owning
    assert options.close_on_any_gm_post


def test_each_ruleset_reads_its_own_options() -> None:
    text = MINIMAL + "[campaign.options]\nskirmish_minimum = 2\nskirmish_per_point = 3\n"
    options = parse_campaign(text, path="c.toml").options
    assert options.part(MarkhorOptions) == MarkhorOptions(skirmish_minimum=2, skirmish_per_point=3)
    assert options.part(DistatOptions) == DistatOptions(identify_bonus_requires_owning=False)
    assert not options.close_on_any_gm_post


def test_any_side_name_goes_when_the_campaign_declares_none() -> None:
    text = MINIMAL + '[[characters]]\nname = "Imp"\nside = "Third Party"\n'
    assert parse_campaign(text, path="c.toml").characters[0].side == "Third Party"


def test_declared_sides_accept_their_members_in_any_case() -> None:
    text = MINIMAL.replace("gms", 'sides = ["Heroes", "Monsters"]\ngms')
    text += '[[characters]]\nname = "Aria"\nplayer = "a"\nside = "heroes"\n'
    text += '[[characters]]\nname = "Imp"\nside = "Monsters"\n'
    campaign = parse_campaign(text, path="c.toml")
    assert campaign.sides == ("Heroes", "Monsters")
    assert [c.side for c in campaign.characters] == ["Heroes", "Monsters"]


def test_a_gm_may_also_play_a_character() -> None:
    text = MINIMAL + '[[characters]]\nname = "Aria"\nplayer = "gm"\n'
    campaign = parse_campaign(text, path="c.toml")
    assert campaign.is_gm("gm")
    assert campaign.characters[0].player == "gm"


def test_one_player_may_own_several_characters() -> None:
    text = MINIMAL + '[[characters]]\nname = "Aria"\nplayer = "al"\n'
    text += '[[characters]]\nname = "Aria Two"\nplayer = "al"\n'
    assert len(parse_campaign(text, path="c.toml").characters) == 2


def test_talent_level_may_reach_half_the_invested_points() -> None:
    # RULES §1.2: 9 invested -> level 4; 13 -> level 6
    for invested, level in ((9, 4), (13, 6), (6, 3)):
        text = MINIMAL + f'[[characters]]\nname = "A"\nmind = {invested}\n'
        text += f'[[characters.talents]]\nname = "T"\nstat = "mind"\nlevel = {level}\n'
        text += 'kind = "passive"\n'
        sheet = parse_campaign(text, path="c.toml").characters[0]
        assert sheet.part(DistatSheet).talents[0].level == level


def test_every_acceptance_style_ruleset_loads() -> None:
    for kind in SceneKind:
        text = MINIMAL + f'ruleset = "{kind.value}"\n'
        assert parse_campaign(text, path="c.toml").ruleset is kind


def test_a_talent_taken_twice_loads_and_its_copies_stack() -> None:
    # RULES §1.1: many talents "may be taken more than once", stacking their +1s
    from pbp.rulesets.distat import rules as distat
    from pbp.rulesets.distat.rules import Fighter

    text = (
        '[campaign]\nname = "Keep"\ngms = ["gm_sam"]\n'
        '[[characters]]\nname = "Aria"\nplayer = "alice"\nbody = 6\nmind = 3\n'
        + '[[characters.talents]]\nname = "Aggressive"\nstat = "body"\nlevel = 3\nkind = "active"\n'
        * 2
    )
    aria = parse_campaign(text, path="keep.toml").characters[0].part(DistatSheet)
    assert len(aria.talents) == 2
    scene = distat.new_scene([Fighter(name="Aria", side="party", body=6, mind=3,
                                      talents=aria.talents)])  # fmt: skip
    assert distat.view(scene, "Aria").body.eav == 8
