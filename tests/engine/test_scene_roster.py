"""The scene roster (``engine.scene_roster``): the cast every scene shares (names, sides,
groups, features, who is out), changed by the GM's set-up, a reloaded campaign file and a new
thread; with Distat installed, Distat's Body and Mind are Distat's own part of it."""

from __future__ import annotations

from pbp.campaign.loader import parse_campaign
from pbp.engine.roster import Roster
from pbp.engine.scene_roster import RosterKeeper, SceneRoster
from pbp.errors import Problem
from pbp.tags.command_parser import parse_command_line
from pbp.tags.commands import Command
from pbp.tags.model import Source

CAMPAIGN = """
[campaign]
name = "Coin Keep"
gms = ["gm"]

[[characters]]
name = "Aria"
player = "alice"

[[characters]]
name = "Bram"
player = "bob"
"""
SCENE_ROSTER = RosterKeeper()  # the keeper of a roster no ruleset keeps a part of


def _command(line: str) -> Command:
    command = parse_command_line(line, source=Source(index=0, line=1, column=1, text=line), gm=True)
    assert command is not None and not isinstance(command, Problem)
    return command


def _set_up(roster: Roster, line: str) -> Roster:
    changed = SCENE_ROSTER.setup(roster, _command(line))
    assert changed is not None and not isinstance(changed, Problem)
    return changed


def _start() -> SceneRoster:
    roster = SCENE_ROSTER.start(parse_campaign(CAMPAIGN, path="keep.toml"))
    assert isinstance(roster, SceneRoster)
    return roster


def test_a_campaign_starts_its_characters_each_in_a_group_of_their_own() -> None:
    roster = _start()
    assert roster.names() == ("Aria", "Bram")
    assert roster.side("Aria") == "party"
    assert roster.groups["Aria"] != roster.groups["Bram"]
    assert not roster.is_out("Aria") and roster.talent_names() == ()


def test_npcs_groups_and_features_set_up_the_scene() -> None:
    roster = _set_up(_start(), "!npc Imp side foes")
    roster = _set_up(roster, "!feature Gate")
    roster = _set_up(roster, "!group Aria, Imp")
    assert isinstance(roster, SceneRoster)
    assert roster.names() == ("Aria", "Bram", "Imp") and roster.feature_names() == ("Gate",)
    assert roster.side("Imp") == "foes"
    assert roster.groups["Aria"] == roster.groups["Imp"] != roster.groups["Bram"]


def test_a_taken_name_is_refused() -> None:
    assert isinstance(SCENE_ROSTER.setup(_start(), _command("!npc Aria")), Problem)


def test_a_new_thread_keeps_the_cast_and_drops_the_scenery() -> None:
    roster = _set_up(_set_up(_start(), "!feature Gate"), "!group Aria, Bram")
    after = SCENE_ROSTER.carry_over(roster)
    assert after.names() == ("Aria", "Bram") and after.feature_names() == ()
    assert isinstance(after, SceneRoster) and after.groups["Aria"] != after.groups["Bram"]


def test_a_group_that_only_grows_keeps_its_id() -> None:
    # RULES D11: the GM's `!group` of a group and more keeps the group, a new mix makes a new one
    roster = _set_up(_set_up(_start(), "!npc Imp"), "!group Aria, Imp")
    assert isinstance(roster, SceneRoster)
    grown = _set_up(roster, "!group Aria, Imp, Bram")
    assert isinstance(grown, SceneRoster)
    assert grown.groups["Bram"] == grown.groups["Aria"] == roster.groups["Aria"]
    split = _set_up(grown, "!group Aria, Bram")
    assert isinstance(split, SceneRoster) and split.groups["Aria"] != roster.groups["Aria"]


def test_with_distat_the_shared_roster_is_neutral_and_distats_numbers_are_its_part() -> None:
    from dataclasses import fields

    from pbp.engine.registry import ROSTER
    from pbp.rulesets.distat.engine.model import DistatCast, own

    campaign = parse_campaign(
        CAMPAIGN.replace('player = "bob"', 'player = "bob"\nbody = 4\nmind = 2'), path="k.toml"
    )
    roster = ROSTER.start(campaign)
    assert isinstance(roster, SceneRoster)
    shared = {f.name for f in fields(SceneRoster)}
    assert not shared & {"body", "mind", "damage", "bonus_pool", "fighters"}
    cast = roster.parts.get(DistatCast)
    assert cast is not None and [(f.name, f.body, f.mind) for f in cast.fighters] == [
        ("Aria", 0, 0),
        ("Bram", 4, 2),
    ]
    # Distat's scene is built from the two, with the roster's groups
    scene = own(roster)
    assert scene.groups == roster.groups and scene.names() == roster.names()
    # an NPC's numbers go to Distat's part, its name and group to the roster
    imp = ROSTER.setup(roster, _command("!npc Imp body 2 mind 1 group Bram"))
    assert isinstance(imp, SceneRoster) and imp.groups["Imp"] == imp.groups["Bram"]
    npc = imp.parts.get(DistatCast)
    assert npc is not None and (npc.fighters[-1].name, npc.fighters[-1].body) == ("Imp", 2)


def test_a_distat_move_and_a_knock_out_are_the_rosters() -> None:
    from engine_helpers import play

    from pbp.engine.scene_roster import SceneRoster as Shared

    run = play(
        [
            ("post", "p1", "alice", 1, "[move: Goblin]"),
            ("post", "g1", "gm_sam", 2, "!damage Bram body 9\n!close"),
        ]
    )
    roster = run.state.scene
    assert isinstance(roster, Shared)
    assert roster.groups["Aria"] == roster.groups["Goblin"] != roster.groups["Bram"]
    assert roster.is_out("Bram") and not roster.is_out("Aria")
