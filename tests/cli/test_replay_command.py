"""`pbp replay --json` in the process that calls it: the ledger as JSON (the same text
however it is cut into chunks), the collector as it was before (what the replay kept out of
its full passes is given back), and an events file without events refused."""

from __future__ import annotations

import gc
import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from sample_campaigns import TEST_KEEP

from pbp.cli import app

EVENTS = [
    {
        "type": "post",
        "id": "p1",
        "author": "gm_sam",
        "at": "2026-11-29T10:00:00Z",
        "body": "!group Aria, Goblin",
    },
    {
        "type": "post",
        "id": "p2",
        "author": "alice",
        "at": "2026-11-29T10:01:00Z",
        "body": "[physical: attack Goblin]",
    },
    {
        "type": "post",
        "id": "p3",
        "author": "gm_sam",
        "at": "2026-11-29T10:02:00Z",
        "body": "!close",
    },
    {
        "type": "post",
        "id": "p4",
        "author": "alice",
        "at": "2026-11-29T10:03:00Z",
        "body": "[physical: atack Goblin]",
    },
]


def _replay(folder: Path, events: list[dict[str, str]]) -> Result:
    (folder / "campaign.toml").write_text(TEST_KEEP, encoding="utf-8")
    (folder / "events.jsonl").write_text(
        "".join(json.dumps(e) + "\n" for e in events), encoding="utf-8"
    )
    return CliRunner().invoke(
        app,
        [
            "replay",
            str(folder / "campaign.toml"),
            str(folder / "events.jsonl"),
            "--json",
            "--seed",
            "1",
        ],
    )


def test_a_replay_prints_its_ledger_and_gives_the_collector_back(tmp_path: Path) -> None:
    frozen = gc.get_freeze_count()
    result = _replay(tmp_path, EVENTS)
    assert result.exit_code == 0, result.output
    assert result.output.endswith("}\n")
    ledger = json.loads(result.output)
    assert [r["number"] for r in ledger["rounds"]] == [1, 2]
    assert ledger["rounds"][0]["closed_by"] == "p3"
    assert gc.get_freeze_count() == frozen


def test_the_ledger_is_the_same_text_in_small_chunks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = _replay(tmp_path, EVENTS)
    monkeypatch.setattr("pbp.cli.replay.CHUNK", 64)
    chunked = _replay(tmp_path, EVENTS)
    assert chunked.exit_code == 0, chunked.output
    assert len(whole.output) > 10 * 64
    assert chunked.output == whole.output


def test_what_the_caller_froze_stays_frozen(tmp_path: Path) -> None:
    # (not the count: an object frozen with the rest may be freed during the replay, one the
    # caches of an earlier test kept, say; the collector lists no object it keeps frozen)
    kept = [["a list the caller froze"]]
    gc.freeze()
    try:
        assert not any(o is kept for o in gc.get_objects())
        assert _replay(tmp_path, EVENTS).exit_code == 0
        assert not any(o is kept for o in gc.get_objects())
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
    assert any(o is kept for o in gc.get_objects())


def test_an_events_file_without_events_is_refused(tmp_path: Path) -> None:
    result = _replay(tmp_path, [])
    assert result.exit_code == 1
    assert "events.jsonl: no events to replay (one event a line, e.g. {" in result.output
    assert "Traceback" not in result.output
