"""A ruleset from outside pbp: the coin-flip contest of ``tests/rulesets/coin/`` (its files and
nothing else) is registered through ``pbp.rulesets.register`` and plays a round through
``pbp replay``, in a process of its own as a program embedding pbp would. The rulesets are read
once per process: registered before, a ruleset is in every registry (``tests/conftest.py``
registers the coin for the contract suite); registered after, it fails loudly."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest
from coin import RULESET

from pbp.engine.registry import RULESETS
from pbp.rulesets import LateRegistration, plugins, register
from pbp.tags.model import SceneKind

HERE = Path(__file__).resolve().parent

CAMPAIGN = """
[campaign]
name = "Heads or Tails"
gms = ["gm_sam"]
ruleset = "coin"

[[characters]]
name = "Aria"
player = "alice"
body = 3
mind = 3

[[characters]]
name = "Bram"
player = "bob"
body = 3
mind = 3
"""

EVENTS = [
    {
        "type": "post",
        "id": "p1",
        "author": "alice",
        "at": "2026-11-29T10:01:00Z",
        "body": "Aria calls it. [flip: heads]",
    },
    {
        "type": "post",
        "id": "p2",
        "author": "bob",
        "at": "2026-11-29T10:02:00Z",
        "body": "[flip: sideways]",
    },
    {"type": "edit", "id": "p2", "at": "2026-11-29T10:03:00Z", "body": "[flip: tails]"},
    {
        "type": "post",
        "id": "p3",
        "author": "gm_sam",
        "at": "2026-11-29T10:04:00Z",
        "body": "!close",
    },
]

RUN = """
import sys
sys.path.insert(0, {here!r})
from coin import RULESET
from pbp.rulesets import register
register(RULESET)
from pbp.cli import main
sys.argv = ["pbp", *sys.argv[1:]]
main()
"""


def _replay(tmp_path: Path, *options: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "campaign.toml").write_text(CAMPAIGN, encoding="utf-8")
    (tmp_path / "events.jsonl").write_text(
        "".join(json.dumps(e) + "\n" for e in EVENTS), encoding="utf-8"
    )
    return subprocess.run(
        [sys.executable, "-c", RUN.format(here=str(HERE)), "replay",
         str(tmp_path / "campaign.toml"), str(tmp_path / "events.jsonl"), "--seed", "1",
         *options],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


def test_a_registered_fifth_ruleset_plays_a_round_through_replay(tmp_path: Path) -> None:
    result = _replay(tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Coin flips" in out
    assert "Aria called heads: the coin shows" in out
    assert "Bram called tails: the coin shows" in out
    assert "Aria called heads: the coin shows tails, a loss." in out  # seed 1
    assert (
        "Fixed: the edited post now holds `[flip: tails]`" in out
    )  # its reader refused `sideways`


def test_a_ruleset_registered_before_the_rulesets_are_read_is_in_the_registries() -> None:
    assert RULESET in plugins()  # registered by tests/conftest.py
    assert type(RULESETS[SceneKind("coin")]).__name__ == "CoinRuleset"


def test_a_ruleset_registered_after_the_rulesets_are_read_fails_loudly() -> None:
    late = dataclasses.replace(RULESET, name="late", kinds=("late",), called=(("late", "Late"),))
    with pytest.raises(LateRegistration, match="'late' registered after"):
        register(late)
    assert late not in plugins()
