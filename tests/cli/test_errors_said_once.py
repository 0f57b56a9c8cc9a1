"""Issue 26 item 19: a replay's mistakes name the file and line; events out of time order are
refused; `pbp verify --ledger` on a file that is no ledger says one clear thing; `pbp poll`
with a missing campaign says its error once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from replayed import edit, post, replay
from sample_campaigns import TEST_KEEP

from pbp.cli import app


@pytest.mark.parametrize(
    ("events", "said"),
    [
        ([post("p1", "alice", "hi", 0), edit("p9", "x", 1)], "events.jsonl:2: there is no post p9"),
        (
            [post("p1", "alice", "hi", 0), post("p1", "bob", "again", 1)],
            "events.jsonl:2: post p1 already exists",
        ),
        (
            [post("p1", "alice", "hi", 60 * 24), post("p2", "gm_sam", "!close", 0)],
            "events.jsonl:2: this event is at 2026-11-29T10:00:00Z, before the one on line 1",
        ),
    ],
)
def test_a_replay_mistake_names_the_file_and_line(
    tmp_path: Path, events: list[dict[str, str]], said: str
) -> None:
    played = replay(tmp_path, TEST_KEEP, events)
    assert played.code == 1 and played.replies == {}
    assert said in played.error and played.error.count("\n") == 1  # one line
    assert "Closed" not in played.output


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ('{"a": 1}', 'its JSON object has no list of "rounds"'),
        ("hello", "not JSON (Expecting value at line 1, column 1)"),
        ("[1, 2]", 'its JSON is list, not an object with "rounds"'),
    ],
)
def test_verify_of_a_file_that_is_no_ledger_says_one_thing(
    tmp_path: Path, text: str, why: str
) -> None:
    path = tmp_path / "not-a-ledger.json"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["verify", "--ledger", str(path)])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (
        f"pbp verify: {path} is not a pbp ledger: {why}; a ledger is what `pbp export --json` "
        "or `pbp replay CAMPAIGN EVENTS --json` writes\n"
    )


def test_verify_of_a_real_ledger_still_checks_it(tmp_path: Path) -> None:
    played = replay(
        tmp_path,
        TEST_KEEP,
        [post("g1", "gm_sam", "!group Aria, Goblin", 0), post("g2", "gm_sam", "!close", 1)],
        as_json=True,
    )
    path = tmp_path / "ledger.json"
    path.write_text(json.dumps(json.loads(played.output)), encoding="utf-8")
    result = CliRunner().invoke(app, ["verify", "--ledger", str(path)])
    assert result.exit_code == 0, result.output
    assert "not a pbp ledger" not in result.output


def test_poll_with_a_missing_campaign_says_its_error_once(site: Path, pbp: object) -> None:
    (site / "sunken-keep.toml").unlink()
    result = pbp(site, "poll", "--once")  # type: ignore[operator]
    assert result.returncode == 1
    assert result.stderr.count("the file does not exist") == 1, result.stderr
    assert "thread keep-1:" in result.stderr and "sunken-keep.toml" in result.stderr
