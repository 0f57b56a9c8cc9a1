"""Issue 26 item 17: a GM's `!help` lists the GM commands (from the table of commands); a
player's does not."""

from __future__ import annotations

from pathlib import Path

from replayed import post, replay
from sample_campaigns import TEST_KEEP

from pbp.engine.commands import COMMANDS


def test_a_gms_help_lists_every_gm_command_of_the_table(tmp_path: Path) -> None:
    played = replay(
        tmp_path,
        TEST_KEEP,
        [post("g1", "gm_sam", "!help", 0), post("p1", "alice", "!help", 1)],
    )
    (gm,) = played.to("g1")
    assert "**GM commands**" in gm
    words = {r.word for r in COMMANDS if r.command.gm_only}
    assert {"close", "undo", "encounter", "npc", "void", "difficulty", "task"} <= words
    for word in words:
        assert f"- `!{word}" in gm, word
    assert "`!close`: resolve the round" in gm and "`!encounter end medic" in gm
    (player,) = played.to("p1")
    assert "How to act, alice" in player and "GM commands" not in player
