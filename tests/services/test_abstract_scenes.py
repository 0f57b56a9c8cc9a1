"""An abstract encounter played through ``pbp replay`` says what it is in its own words: the
seed's intervals, its tasks as what tags aim at (SPEC §2.2)."""

from __future__ import annotations

from pathlib import Path

from scene_play import play

CAMPAIGN = """
[campaign]
name = "Keep"
gms = ["gm_sam"]
ruleset = "{ruleset}"

[[characters]]
name = "Aria"
player = "alice"
skills = {{ Athletics = 12 }}

[[characters]]
name = "Bram"
player = "bob"
skills = {{ Athletics = 12 }}
"""
TASKS = "!task Breach dc 20\n!task Vault dc 30\n!task Cellar dc 10 secret"


def test_an_abstract_summary_speaks_of_intervals(tmp_path: Path) -> None:
    played = play(tmp_path, CAMPAIGN.format(ruleset="abstract"), [
        ("gm_sam", TASKS),
        ("alice", "[abstract: Athletics +4 on Breach]"),
        ("gm_sam", "!close"),
    ])  # fmt: skip
    summary = played.summary(1)
    assert summary.startswith("## Interval 1: results")
    assert "**Interval 2 is open.**" in summary and "Round" not in summary.split("^(")[0]
    assert "## Keep: interval 1 is open" in played.transcript


def test_a_new_abstract_encounter_says_every_hour_and_every_2_hours(tmp_path: Path) -> None:
    played = play(tmp_path, CAMPAIGN.format(ruleset="distat"), [
        ("gm_sam", "!encounter abstract interval 1 hour"),
        ("gm_sam", "!encounter abstract interval 2 hours"),
    ])  # fmt: skip
    assert "A new scene: an abstract encounter, one interval every hour." in played.reply_to("p1")
    assert "one interval every 2 hours." in played.reply_to("p2")
    assert "1 hours" not in played.transcript and "each interval" not in played.transcript


def test_the_cheat_sheet_lists_the_tasks_as_targets_and_no_placeholder(tmp_path: Path) -> None:
    played = play(tmp_path, CAMPAIGN.format(ruleset="abstract"), [
        ("gm_sam", TASKS),
        ("alice", "[abstract: Athletics +4 on Breach]"),
        ("gm_sam", "!close"),
        ("alice", "!help"),
    ])  # fmt: skip
    (cheatsheet,) = (
        b
        for b in played.transcript.split("--- pbp, ")
        if b.startswith("in the thread") and "[cheatsheet]" in b.split("\n", 1)[0]
    )
    for text in (cheatsheet, played.reply_to("p4")):
        assert "**Tasks:** Breach, Vault, Cellar" in text
        assert "Targets" not in text and "TASK" not in text
    assert "`[abstract: Athletics +12 on Breach]`" in cheatsheet


def test_chance_to_finish_is_shown_for_a_task_nobody_acted_on(tmp_path: Path) -> None:
    played = play(tmp_path, CAMPAIGN.format(ruleset="abstract"), [
        ("gm_sam", TASKS),
        ("alice", "[abstract: Athletics +4 on Breach]"),
        ("gm_sam", "!close"),
    ])  # fmt: skip
    summary = played.summary(1)
    assert "- Aria on Breach (bank" in summary
    assert "- Aria on Vault (bank" in summary  # nobody worked on Vault this interval
    assert "on Cellar" not in summary  # its DC is secret: no odds to give
    outlook = played.ledger["rounds"][0]["abstract"]["outlook"]
    assert [(o["character"], o["task"]) for o in outlook] == [("Aria", "Breach"), ("Aria", "Vault")]


def test_E9_an_oppose_with_the_encounter_opposes_its_first_interval(tmp_path: Path) -> None:
    # RULES E9: the `!oppose` below `!encounter abstract` is accepted and acts in the new
    # scene's first interval, even when the `!encounter` closed a round that had actions
    played = play(tmp_path, CAMPAIGN.format(ruleset="distat"), [
        ("alice", "[pass]"),
        ("gm_sam", f"!encounter abstract interval 1 hour\n{TASKS}\n!oppose Breach 3d6"),
        ("alice", "[abstract: Athletics +4 on Breach]"),
        ("gm_sam", "!close"),
        ("alice", "[abstract: Athletics +4 on Breach]"),
        ("gm_sam", "!close"),
    ])  # fmt: skip
    reply = played.reply_to("p2")
    assert "Task **Breach**: DC 20." in reply
    assert "oppose" not in reply.casefold() and "did nothing" not in reply
    first = played.summary(2)  # round 1 was the Distat scene's, closed by `!encounter`
    assert first.startswith("## Interval 2: results")
    assert "*The GM opposes Breach: " in first and "pips against this interval's payments" in first
    assert "`p2·cmd·5·0` d6" in first
    assert "The GM opposes" not in played.summary(3)  # the first interval only
