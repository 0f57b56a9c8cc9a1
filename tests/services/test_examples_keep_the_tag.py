"""Issue 26 items 14 and 15, played through `pbp replay`: a problem reply's example is the
writer's own tag with the one fix applied (the GM's `as` naming an NPC, the unknown name put
right with the options kept, the same action in this scene's words, the maneuver or skill a
typo meant, the tag within the limit, the writer's own character, the take left out)."""

from __future__ import annotations

from pathlib import Path

from service_table import at

from pbp.engine.events import PostArrived
from pbp.services.replay import feed_all, replay_run

WARREN = """
[campaign]
name = "Goblin Warrens"
gms = ["gm_sam"]
ruleset = "distat"

[[characters]]
name = "Aria"
player = "alice"
side = "party"
body = 6
mind = 3
bonus_pool = 3

[[characters]]
name = "Bram"
player = "bob"
side = "party"
body = 3
mind = 4

[[characters]]
name = "Shaman"
body = 2
mind = 4

[[characters]]
name = "Goblin Scout"
body = 3
mind = 1
"""
D20 = """
[campaign]
name = "Vault"
gms = ["gm_sam"]
ruleset = "d20"

[[characters]]
name = "Aria"
player = "alice"
skills = { Perception = 5 }

[[characters]]
name = "Goblin"
"""
ABSTRACT = """
[campaign]
name = "Warrens"
gms = ["gm_sam"]
ruleset = "abstract"

[[characters]]
name = "Aria"
player = "alice"
skills = { Stealth = 6 }
"""


def replies(folder: Path, campaign: str, posts: list[tuple[str, str]]) -> dict[str, str]:
    """Each post's reply, by post id (p1, p2…), after ``posts`` were played in order."""
    path = folder / "campaign.toml"
    path.write_text(campaign, encoding="utf-8")
    events = [
        PostArrived(post_id=f"p{i}", author=author, body=body, at=at(i))
        for i, (author, body) in enumerate(posts, start=1)
    ]
    with replay_run(path, seed="s") as run:
        feed_all(run, events)
        transcript = run.transcript()
    found: dict[str, str] = {}
    for block in transcript.split("--- pbp, reply to ")[1:]:
        head, _, text = block.partition("\n")
        found[head.split()[0]] = text
    return found


def distat(folder: Path, author: str, body: str) -> str:
    setup = ("gm_sam", "!group Aria, Shaman, Goblin Scout")
    return replies(folder, WARREN, [setup, (author, body)])["p2"]


def test_the_gms_tag_without_as_is_given_an_npc_they_play(tmp_path: Path) -> None:
    text = distat(tmp_path, "gm_sam", "[physical: attack Aria]")
    assert "For example: `[physical: attack Aria | as Shaman]`" in text


def test_the_gms_example_never_acts_as_the_character_it_attacks(tmp_path: Path) -> None:
    text = distat(tmp_path, "gm_sam", "[physical: attack Shaman]")
    assert "For example: `[physical: attack Shaman | as Goblin Scout]`" in text


def test_an_unknown_name_keeps_the_bonus_and_names_an_enemy(tmp_path: Path) -> None:
    text = distat(tmp_path, "alice", "[p: attack archer | bonus 2]")
    assert "For example: `[p: attack Shaman | bonus 2]`" in text


def test_an_unknown_name_becomes_the_name_holding_that_word(tmp_path: Path) -> None:
    text = distat(tmp_path, "alice", "[p: attack scout | bonus 2]")
    assert "For example: `[p: attack Goblin Scout | bonus 2]`" in text


def test_another_scenes_attack_shows_the_same_attack_in_distat(tmp_path: Path) -> None:
    text = distat(tmp_path, "alice", "[attack Goblin Scout]")
    assert "`attack` is a tag of" in text
    assert "For example: `[physical: attack Goblin Scout]`" in text
    assert "[move:" not in text


def test_a_maneuver_typo_gets_did_you_mean(tmp_path: Path) -> None:
    text = distat(tmp_path, "alice", "[physical: atack Shaman]")
    assert "Did you mean **attack**?" in text
    assert "For example: `[physical: attack Shaman]`" in text


def test_a_split_over_the_eav_gets_the_same_split_within_it(tmp_path: Path) -> None:
    text = distat(tmp_path, "alice", "[physical: attack Shaman with 5; attack Goblin Scout with 4]")
    assert "more than Aria's Body EAV of 6" in text
    assert "For example: `[physical: attack Shaman with 5; attack Goblin Scout with 1]`" in text


def test_a_bonus_over_the_cap_gets_the_same_tag_at_the_cap(tmp_path: Path) -> None:
    text = distat(tmp_path, "alice", "[physical: attack Shaman | bonus 3]")
    assert "At most 2 bonus points" in text
    assert "For example: `[physical: attack Shaman | bonus 2]`" in text


def test_someone_elses_character_gets_the_tag_with_the_writers_own(tmp_path: Path) -> None:
    text = distat(tmp_path, "alice", "[physical: attack Shaman | as Bram]")
    assert "Bram is not your character" in text
    assert "For example: `[physical: attack Shaman | as Aria]`" in text


def test_attacking_oneself_gets_an_enemy_instead(tmp_path: Path) -> None:
    text = distat(tmp_path, "alice", "[mental: attack Aria]")
    assert "For example: `[mental: attack Shaman]`" in text


def test_take_10_under_pressure_keeps_the_writers_check_and_rolls(tmp_path: Path) -> None:
    posts = [
        ("gm_sam", "!encounter d20 pressure on"),
        ("alice", "[check: Perception +5 vs 12 | take 10]"),
    ]
    text = replies(tmp_path, D20, posts)["p2"]
    assert "roll instead" in text
    assert "For example: `[check: Perception +5 vs 12]`" in text


def test_an_abstract_skill_typo_gets_did_you_mean_with_the_tag(tmp_path: Path) -> None:
    posts = [("gm_sam", "!task Breach dc 30"), ("alice", "[abstract: Stealh on Breach]")]
    text = replies(tmp_path, ABSTRACT, posts)["p2"]
    assert "Did you mean **Stealth**?" in text
    assert "`[abstract: Stealth on Breach]`" in text


def test_a_split_written_with_a_comma_is_given_its_semicolon(tmp_path: Path) -> None:
    # the issue's own post: the second `attack` read as an option of the first part
    text = distat(tmp_path, "alice", "[mental: attack Shaman with 3, attack Goblin Scout with 2]")
    assert "For example: `[mental: attack Shaman with 3; attack Goblin Scout with 2]`" in text
    assert "`[mental:]`" not in text  # an example never leaves a tag with nothing in it
