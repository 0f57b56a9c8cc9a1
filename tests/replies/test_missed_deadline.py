"""RULES §7 "a deadline missed while the bot was down": the round closes at the deadline's
time for the post order (posts after it do not count); the next round opens when the summary
is posted, and its deadline counts from then."""

from __future__ import annotations

import json
from pathlib import Path

from replayed import post, replay, tick
from sample_campaigns import TEST_KEEP

EVENTS = [
    post("g1", "gm_sam", "!group Aria, Goblin, Bram\n!deadline 2h", 0),  # due at 12:00
    # the bot is down from here: it polls next at 14:00 (a replay polls at a tick)
    post("p1", "alice", "[physical: attack Goblin]", 30),
    post("p2", "bob", "[physical: attack Goblin]", 180),  # 13:00, after the deadline
    tick(240),  # 14:00: the bot is back
    tick(360),  # 16:00: round 2's deadline, two hours after its summary was posted
]


def test_rules_7_a_deadline_missed_while_the_bot_was_down(tmp_path: Path) -> None:
    played = replay(tmp_path, TEST_KEEP, EVENTS[:4])
    summary = played.replies["summary-1"]
    assert "*Closed by the deadline, 2026-11-29 12:00 UTC.*" in summary
    assert "**Round 2 is open.** Deadline: 2026-11-29 16:00 UTC." in summary
    assert "reminder-2-1" not in played.replies  # its half time is 15:00, not now

    ledger = json.loads(replay(tmp_path, TEST_KEEP, EVENTS, as_json=True).output)
    first, second = ledger["rounds"][:2]
    assert first["closed_by"] == "deadline" and first["closed_at"] == "2026-11-29T12:00:00+00:00"
    assert [a["post"] for a in first["actions"]] == ["p1"]  # the post after it does not count
    assert second["opened_at"] == "2026-11-29T14:00:00+00:00"
    assert second["closed_by"] == "deadline" and second["closed_at"] == "2026-11-29T16:00:00+00:00"
    assert [a["post"] for a in second["actions"]] == ["p2"]
