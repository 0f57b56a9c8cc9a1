"""The scene roster (``engine.scene_roster``): the cast a scene has when no ruleset keeps more
of it, changed by the GM's set-up, a reloaded campaign file and a new thread."""

from __future__ import annotations

from pbp.campaign.loader import parse_campaign
from pbp.engine.roster import Roster
from pbp.engine.scene_roster import SCENE_ROSTER, SceneRoster
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
