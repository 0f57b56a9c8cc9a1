"""`pbp parse`: what a GM or player sees of a post, with clear exit codes."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from pbp.cli import app

CAMPAIGN = """\
[campaign]
name = "Test Keep"
gms = ["gm_sam"]
ruleset = "distat"

[[characters]]
name = "Aria"
player = "alice"
side = "party"
body = 5
mind = 3

[[characters]]
name = "Goblin Archer"
side = "foes"
body = 3
mind = 1
"""


def run(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["parse", *args], input=stdin)
    return result.exit_code, result.output


def test_a_clean_post_lists_its_tags_and_exits_zero() -> None:
    code, output = run("Aria lunges. [p attack Goblin bonus 2]")
    assert code == 0
    assert "[physical: attack Goblin, bonus 2]" in output and "Problems (0)" in output


def test_problems_are_shown_as_the_bot_replies_and_exit_one() -> None:
    code, output = run("[mentl: attack Goblin]")
    assert code == 1
    assert "Did you mean **mental**?" in output


def test_the_post_may_come_from_standard_input() -> None:
    code, output = run("-", stdin="[pass]\n")
    assert code == 0 and "[pass]" in output


def test_a_bad_scene_is_a_usage_error() -> None:
    assert run("--scene", "chess", "[pass]")[0] == 2


def test_names_come_from_the_campaign(tmp_path: Path) -> None:
    path = tmp_path / "campaign.toml"
    path.write_text(CAMPAIGN, encoding="utf-8")
    code, output = run("--campaign", str(path), "--gm", "!close\n[physical: attack gob, as Aria]")
    assert code == 0, output
    assert "[physical: attack Goblin Archer, as Aria]" in output and "!close" in output
    code, output = run("--campaign", str(path), "[physical: attack Troll]")
    assert code == 1 and "Goblin Archer" in output
