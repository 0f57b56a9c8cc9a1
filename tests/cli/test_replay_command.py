"""`pbp replay --json` in the process that calls it: the ledger as JSON, and the collector
as it was before (what the replay kept out of its full passes is given back)."""

from __future__ import annotations

import gc
import json
from pathlib import Path

from click.testing import CliRunner
from sample_campaigns import TEST_KEEP

from pbp.cli import app


def test_a_replay_prints_its_ledger_and_gives_the_collector_back(tmp_path: Path) -> None:
    (tmp_path / "campaign.toml").write_text(TEST_KEEP, encoding="utf-8")
    events = [
        {"type": "post", "id": "p1", "author": "gm_sam", "at": "2026-11-29T10:00:00Z",
         "body": "!group Aria, Goblin"},
        {"type": "post", "id": "p2", "author": "alice", "at": "2026-11-29T10:01:00Z",
         "body": "[physical: attack Goblin]"},
        {"type": "post", "id": "p3", "author": "gm_sam", "at": "2026-11-29T10:02:00Z",
         "body": "!close"},
    ]
    (tmp_path / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events),
                                          encoding="utf-8")
    frozen = gc.get_freeze_count()
    result = CliRunner().invoke(app, ["replay", str(tmp_path / "campaign.toml"),
                                      str(tmp_path / "events.jsonl"), "--json", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert result.output.endswith("}\n")
    ledger = json.loads(result.output)
    assert [r["number"] for r in ledger["rounds"]] == [1, 2]
    assert ledger["rounds"][0]["closed_by"] == "p3"
    assert gc.get_freeze_count() == frozen
