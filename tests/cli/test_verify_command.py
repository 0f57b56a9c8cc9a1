"""`pbp verify` and reproducible `pbp replay --seed`, run as a user types them."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sample_campaigns import D20_KEEP

pytestmark = pytest.mark.slow

CAMPAIGN = D20_KEEP

# Each post followed by a tick, so the bot answers it as it comes (cheat sheet, summaries).
EVENTS = [
    ("p1", "gm_sam", "10", "!encounter d20"),
    ("p2", "alice", "20", "[check: Climb +4 vs 14]"),
    ("p3", "bob", "30", "[roll: 2d6+1]"),
    ("p4", "gm_sam", "40", "!close"),
    ("p5", "alice", "50", "[attack: +5 vs 12]"),
    ("p6", "gm_sam", "55", "!close"),
]

Pbp = Callable[..., subprocess.CompletedProcess[str]]
Together = Callable[..., list[subprocess.CompletedProcess[str]]]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with the campaign, the events, and what `pbp replay --seed 1` printed."""
    here = tmp_path_factory.mktemp("verify-cli")
    (here / "campaign.toml").write_text(CAMPAIGN, encoding="utf-8")
    lines = []
    for post_id, author, minute, body in EVENTS:
        at = f"2026-11-29T10:{minute}:00Z"
        lines.append({"type": "post", "id": post_id, "author": author, "at": at, "body": body})
        lines.append({"type": "tick", "at": at.replace(":00Z", ":01Z")})
    (here / "events.jsonl").write_text(
        "".join(json.dumps(e) + "\n" for e in lines), encoding="utf-8"
    )
    return here


def _replay(folder: Path, *extra: str) -> list[str]:
    return ["replay", str(folder / "campaign.toml"), str(folder / "events.jsonl"), *extra]


@pytest.fixture(scope="module")
def replayed(folder: Path, pbp_together: Together) -> dict[str, str]:
    """The transcript and the ledgers of `pbp replay` with --seed 1 (twice) and --seed 2."""
    runs = pbp_together(
        (folder, _replay(folder, "--seed", "1")),
        (folder, _replay(folder, "--json", "--seed", "1")),
        (folder, _replay(folder, "--json", "--seed", "1")),
        (folder, _replay(folder, "--json", "--seed", "2")),
    )
    for run in runs:
        assert run.returncode == 0, run.stderr
    out = dict(
        zip(
            ["transcript", "ledger", "ledger_again", "ledger_2"],
            [r.stdout for r in runs],
            strict=True,
        )
    )
    (folder / "transcript.md").write_text(out["transcript"], encoding="utf-8")
    (folder / "ledger.json").write_text(out["ledger"], encoding="utf-8")
    return out


def _rolls(ledger: str) -> list[Any]:
    data = json.loads(ledger)
    return [r for rnd in data["rounds"] for a in rnd["actions"] for r in a.get("rolls", [])]


def test_replay_with_the_same_seed_gives_the_same_ledger(replayed: dict[str, str]) -> None:
    assert replayed["ledger"] == replayed["ledger_again"]
    assert len(_rolls(replayed["ledger"])) == 4


def test_replay_with_another_seed_rolls_other_dice(replayed: dict[str, str]) -> None:
    same_keys = [(r["key"], r["index"]) for r in _rolls(replayed["ledger_2"])]

    assert same_keys == [(r["key"], r["index"]) for r in _rolls(replayed["ledger"])]
    assert [r["value"] for r in _rolls(replayed["ledger_2"])] != [
        r["value"] for r in _rolls(replayed["ledger"])
    ]


def test_verify_a_file_of_summaries(folder: Path, replayed: dict[str, str], pbp: Pbp) -> None:
    result = pbp(folder, "verify", "transcript.md")

    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "round 1: 3 rolls, all match; the seal matches the seed",
        "round 2: 1 roll, it matches; the seal matches the seed",
    ]


def test_verify_reads_standard_input(folder: Path, replayed: dict[str, str], pbp: Pbp) -> None:
    without_cheat_sheet = replayed["transcript"].split("[summary-1]", 1)[1]

    result = pbp(folder, "verify", stdin=without_cheat_sheet)

    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == (
        "round 1: 3 rolls, all match; its seal is not in the text (not checked)"
    )


def test_verify_exits_1_and_names_a_forged_roll(
    folder: Path, replayed: dict[str, str], pbp: Pbp
) -> None:
    (value,) = re.findall(r"`p2·0·0` d20 = (\d+)", replayed["transcript"])
    forged = int(value) % 20 + 1
    text = replayed["transcript"].replace(f"`p2·0·0` d20 = {value}", f"`p2·0·0` d20 = {forged}")

    result = pbp(folder, "verify", "-", stdin=text)

    assert result.returncode == 1
    assert f"p2·0·0 d20: the summary says {forged}, the seed gives {value}" in result.stdout
    assert result.stdout.splitlines()[1].startswith("round 2: 1 roll, it matches")


def test_verify_exits_2_when_the_text_has_no_summary(folder: Path, pbp: Pbp) -> None:
    result = pbp(folder, "verify", stdin="Aria climbs. [check: Climb +4 vs 14]\n")

    assert result.returncode == 2
    assert result.stdout == ""
    assert "holds no round summary with its dice seed" in result.stderr


def test_verify_a_ledger(folder: Path, replayed: dict[str, str], pbp: Pbp) -> None:
    result = pbp(folder, "verify", "--ledger", "ledger.json")

    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0].startswith(
        "round 1: 3 rolls in the summary and 3 in the ledger, all match"
    )


def test_verify_a_forged_ledger_exits_1(folder: Path, replayed: dict[str, str], pbp: Pbp) -> None:
    data = json.loads(replayed["ledger"])
    roll = data["rounds"][0]["actions"][1]["rolls"][1]  # Bram's second d6
    roll["value"] = roll["value"] % 6 + 1
    (folder / "forged.json").write_text(json.dumps(data), encoding="utf-8")

    result = pbp(folder, "verify", "--ledger", "forged.json")

    assert result.returncode == 1
    assert f"p3·0·1 d6: the ledger says {roll['value']}" in result.stdout


def test_verify_a_ledger_that_is_not_json_exits_2(folder: Path, pbp: Pbp) -> None:
    (folder / "broken.json").write_text("{not json", encoding="utf-8")

    result = pbp(folder, "verify", "--ledger", "broken.json")

    assert result.returncode == 2
    assert "is not a pbp ledger: not JSON" in result.stderr
