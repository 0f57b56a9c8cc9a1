"""`pbp check`: ok lines for good files, error sentences for bad ones, and exit codes."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pbp.cli import app

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "sunken-keep.toml"
GOOD = '[campaign]\nname = "Keep"\ngms = ["gm"]\nruleset = "d20"\n[[characters]]\nname = "A"\n'
BAD = '[campaign]\nname = "Keep"\ngms = ["gm"]\n[[characters]]\nname = "A"\nbody = -1\n'


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test runs in an empty working folder (so no ./config.toml is found by chance)."""
    monkeypatch.chdir(tmp_path)


def run(args: list[str]) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["check", *args])
    return result.exit_code, result.output


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_good_campaign_prints_ok_with_counts_and_exits_0(tmp_path: Path) -> None:
    code, output = run([str(EXAMPLE), str(write(tmp_path, "g.toml", GOOD))])
    assert code == 0
    assert f"ok: {EXAMPLE} (5 characters, ruleset distat)" in output
    assert "(1 character, ruleset d20)" in output


def test_bad_campaign_prints_the_error_and_exits_1(tmp_path: Path) -> None:
    bad = write(tmp_path, "bad.toml", BAD)
    code, output = run([str(EXAMPLE), str(bad)])
    assert code == 1
    assert "ok: " in output  # the good file is still reported
    assert f'{bad}: characters[0] "A" .body (line 6): body = -1 is below 0' in output


def test_missing_file_is_a_usage_error(tmp_path: Path) -> None:
    code, output = run([str(tmp_path / "nope.toml")])
    assert code == 2
    assert "nope.toml" in output


def test_a_long_missing_path_is_shown_with_its_file_name(tmp_path: Path) -> None:
    deep = tmp_path.joinpath(*(["campaigns-of-the-sunken-keep"] * 12), "nope.toml")
    code, output = run([str(deep)])
    assert code == 2
    assert "nope.toml" in output and len(output.splitlines()) == 1


def test_nothing_to_check_is_a_usage_error(tmp_path: Path) -> None:
    code, output = run([])
    assert code == 2
    assert "nothing to check" in output


def config_text(*campaigns: str) -> str:
    threads = "".join(
        f'[[threads]]\nid = "t{i}"\ncampaign = "{c}"\n' for i, c in enumerate(campaigns)
    )
    return '[bot]\nusername = "pbp_bot"\n' + threads


def test_config_and_every_campaign_it_names_are_checked(tmp_path: Path) -> None:
    write(tmp_path, "c/good.toml", GOOD)
    config = write(tmp_path, "config.toml", config_text("c/good.toml", "c/good.toml"))
    code, output = run(["--config", str(config)])
    assert code == 0
    assert "ok: config.toml (2 threads, forum local)" in output
    assert output.count("(1 character, ruleset d20)") == 1  # checked once, though run twice


def test_config_naming_a_bad_or_missing_campaign_exits_1(tmp_path: Path) -> None:
    write(tmp_path, "c/bad.toml", BAD)
    config = write(tmp_path, "config.toml", config_text("c/bad.toml", "c/missing.toml"))
    code, output = run(["--config", str(config)])
    assert code == 1
    assert "below 0" in output
    assert "missing.toml: file: the file does not exist" in output


def test_bad_config_exits_1(tmp_path: Path) -> None:
    config = write(tmp_path, "config.toml", '[bot]\nusername = "b"\npassword = "x"\n')
    code, output = run(["--config", str(config)])
    assert code == 1
    assert "bot.password (line 3)" in output
    assert "praw.ini" in output


@pytest.mark.parametrize(("text", "expected_code"), [(config_text(), 0), ("[bot]\n", 1)])
def test_config_toml_in_the_working_folder_is_the_default(text: str, expected_code: int) -> None:
    Path("config.toml").write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["check"])
    assert result.exit_code == expected_code
    assert "config.toml" in result.output


def test_example_config_checks_clean() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["check", "--config", str(ROOT / "config.example.toml")])
    assert result.exit_code == 0, result.output
    assert "ok: " in result.output
    assert "(5 characters, ruleset distat)" in result.output


MANY = """[campaign]
name = "Keep"
gms = ["gm"]
visibilty = "open"

[[characters]]
name = "Aria"
player = "alice"
body = -1
mind = "three"

[[characters]]
name = "Bram"
body = 4

[[characters.talents]]
name = "Aggressive"
stat = "body"
level = 3
kind = "active"

[[characters]]
name = "aria"
"""


def test_every_mistake_of_a_campaign_is_reported_with_its_line(tmp_path: Path) -> None:
    bad = write(tmp_path, "many.toml", MANY)
    code, output = run([str(bad)])
    assert code == 1
    errors = [line for line in output.splitlines() if line.startswith("error: ")]
    assert errors == [
        f'error: {bad}: campaign.visibilty (line 4): unknown key "visibilty" (did you mean '
        '"visibility"?) (expected one of name, gms, ruleset, visibility, templates, sides, '
        "options, standing_default, close_when_all_acted, turn_board, remind, remind_at, "
        "private_copies)",
        f'error: {bad}: characters[0] "Aria" .body (line 9): body = -1 is below 0 '
        "(expected a whole number ≥ 0)",
        f'error: {bad}: characters[0] "Aria" .mind (line 10): mind is a string '
        "(expected a whole number ≥ 0)",
        f'error: {bad}: characters[1] "Bram" .talents[0] "Aggressive" .level (line 19): '
        "level 3 needs 6 points in body, the sheet has 4 (expected level at most 2: RULES §1.2 "
        "allows half the points invested in body, rounded down)",
        f'error: {bad}: characters[2] "aria" (line 22): character "aria" is listed twice '
        '(also at characters[0] "Aria" (line 6)) (expected each character once; names compare '
        "without regard to case)",
    ]


def test_every_mistake_of_a_config_is_reported(tmp_path: Path) -> None:
    text = (
        '[bot]\nusername = "pbp_bot"\npoll_seconds = 1\nclient_secret = "x"\n'
        '[forum]\nkind = "reddit"\n[databse]\nurl = "sqlite:///x.db"\n'
    )
    config = write(tmp_path, "config.toml", text)
    code, output = run(["--config", str(config)])
    assert code == 1
    errors = [line for line in output.splitlines() if line.startswith("error: ")]
    assert len(errors) == 4, output
    assert [e.split(": ")[2].split(" (line")[0] for e in errors] == [
        "bot.poll_seconds",
        "bot.client_secret",
        "forum.reddit.subreddits",
        "databse",
    ]


def test_each_thread_entry_of_a_config_is_checked(tmp_path: Path) -> None:
    text = (
        '[bot]\nusername = "pbp_bot"\n[[threads]]\nid = ""\ncampaign = "a.toml"\n'
        '[[threads]]\nid = "t2"\n[[threads]]\nid = "t3"\ncampain = "a.toml"\n'
    )
    config = write(tmp_path, "config.toml", text)
    code, output = run(["--config", str(config)])
    assert code == 1
    errors = [line for line in output.splitlines() if line.startswith("error: ")]
    assert [e.split(": ", 3)[2:] for e in errors] == [
        [
            'threads[0] "" .id (line 4)',
            "the thread id is empty (expected a Reddit submission id or a name)",
        ],
        [
            'threads[1] "t2" (line 6)',
            'missing "campaign" (expected campaign = "campaigns/sunken-keep.toml")',
        ],
        [
            'threads[2] "t3" (line 8)',
            'missing "campaign" (expected campaign = "campaigns/sunken-keep.toml")',
        ],
        [
            'threads[2] "t3" .campain (line 10)',
            'unknown key "campain" (did you mean "campaign"?) (expected one of id, campaign)',
        ],
    ]
