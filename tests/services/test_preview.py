"""`!preview`: the round as it would close now, sent to the GM alone; nothing shown in the
thread, nothing kept, and the real close rolls as if no preview had happened."""

from __future__ import annotations

import re
from pathlib import Path

from sample_campaigns import D20_KEEP
from service_table import Table

SCENE = "!npc Goblin"
CLIMB = "[check: Climb +4 vs 14]"
SNEAK = "[check: Stealth +6 vs 12]"


def _rolls(text: str) -> list[str]:
    return re.findall(r"`(p\d+·\d+·\d+)` d(\d+) = (\d+)", text)  # type: ignore[return-value]


def _play(folder: Path, gm_says: str) -> Table:
    folder.mkdir(exist_ok=True)
    table = Table(folder, campaign=D20_KEEP)
    table.post("gm_sam", SCENE, 0)
    table.post("alice", CLIMB, 1)
    table.post("gm_sam", gm_says, 2)  # p3
    table.post("bob", SNEAK, 3)  # acts after the preview: the close counts it too
    table.poll(4)
    table.post("gm_sam", "!close", 5)
    table.poll(6)
    return table


def test_a_preview_goes_to_the_gm_alone_and_the_close_rolls_the_same_dice(
    tmp_path: Path,
) -> None:
    table = _play(tmp_path, "!preview")

    (preview,) = [m for m in table.forum.inbox("gm_sam") if "-preview-" in m.key]
    assert preview.subject == "Preview of round 1 · keep-1"
    assert "## Round 1: preview" in preview.body
    assert "Dice seed" not in preview.body  # the round's seed stays secret until the close
    assert "is open" not in preview.body
    assert table.reply_to("p3") == []  # nothing in the thread answers the preview
    (summary,) = [r for r in table.replies() if r.reply_key == "summary-1"]
    previewed = _rolls(preview.body)
    assert [k for k, _s, _v in previewed] == ["p2·0·0"]  # bob had not posted yet
    assert previewed == _rolls(summary.body)[:1]
    assert [k for k, _s, _v in _rolls(summary.body)] == ["p2·0·0", "p4·0·0"]
    assert table.forum.inbox("alice") == table.forum.inbox("bob") == []


def test_a_preview_changes_nothing_the_ledger_holds(tmp_path: Path) -> None:
    with_preview = _play(tmp_path / "a", "!preview")
    without = _play(tmp_path / "b", "Let me think about the goblin.")

    assert with_preview.ledger_json() == without.ledger_json()


def test_a_preview_keeps_the_round_open(tmp_path: Path) -> None:
    table = Table(tmp_path, campaign=D20_KEEP)
    table.post("gm_sam", SCENE, 0)
    table.post("alice", CLIMB, 1)
    table.post("gm_sam", "!preview", 2)
    table.poll(3)
    status = table.post("alice", "!status", 4)
    table.poll(5)

    assert [r.reply_key for r in table.replies() if (r.reply_key or "").startswith("summary")] == []
    assert "**Round 1 so far**" in table.reply_to(status)[0].body
    assert table.ledger()["rounds"][0]["closed_by"] is None


def test_a_player_cannot_preview(tmp_path: Path) -> None:
    table = Table(tmp_path, campaign=D20_KEEP)
    table.post("gm_sam", SCENE, 0)
    asked = table.post("alice", "!preview", 1)
    table.poll(2)

    (refused,) = table.reply_to(asked)
    assert "preview" in refused.body and "GM" in refused.body
    assert table.forum.inbox("alice") == []
