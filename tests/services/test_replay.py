"""`pbp replay` runs a thread through the bot as if it had watched from the first post."""

from __future__ import annotations

from pathlib import Path

from sample_campaigns import TEST_KEEP
from service_table import at

from pbp.engine.events import PostArrived
from pbp.services.replay import feed_all, replay_run


def test_a_round_closed_before_any_edit_or_tick_still_gets_its_summary(tmp_path: Path) -> None:
    campaign = tmp_path / "campaign.toml"
    campaign.write_text(TEST_KEEP, encoding="utf-8")
    events = [
        PostArrived(post_id="p1", author="gm_sam", at=at(0), body="!group Aria, Goblin"),
        PostArrived(post_id="p2", author="alice", at=at(1), body="[physical: attack Goblin]"),
        PostArrived(post_id="p3", author="gm_sam", at=at(2), body="!close"),
    ]
    with replay_run(campaign, seed="s") as run:
        feed_all(run, events)
        transcript = run.transcript()
    assert "--- pbp, reply to p3 [summary-1]" in transcript
    assert "Round 1: results" in transcript


def test_the_ledger_written_a_round_at_a_time_is_the_ledger_as_json(tmp_path: Path) -> None:
    import json

    campaign = tmp_path / "campaign.toml"
    campaign.write_text(TEST_KEEP, encoding="utf-8")
    events = [
        PostArrived(post_id="p1", author="gm_sam", at=at(0), body="!group Aria, Goblin"),
        PostArrived(
            post_id="p2",
            author="alice",
            at=at(1),
            body="[physical: atack Goblin]\n[physical: attack Goblin] \u2028 «é»",
        ),
        PostArrived(post_id="p3", author="gm_sam", at=at(2), body="!close"),
        PostArrived(post_id="p4", author="alice", at=at(3), body="[mental: atack Goblin]"),
    ]
    with replay_run(campaign, seed="s") as run:
        feed_all(run, events)
        ledger = run.ledger()
        pieces: list[str] = []
        run.write_ledger(pieces.append)
    # a closed round with its seal, the open round, rejected tags of both
    assert ledger["rounds"][0]["seal"] and ledger["rounds"][1]["closed_by"] is None
    assert [r["round"] for r in ledger["rejected"]] == [1, 2]  # in round order
    assert len(pieces) > 10  # written piece by piece
    assert "".join(pieces) == json.dumps(ledger, indent=1, ensure_ascii=False)


def test_a_ledger_longer_than_a_page_of_rounds_is_written_whole_and_in_order(
    tmp_path: Path,
) -> None:
    import json

    from pbp.store.repository import LEDGER_PAGE

    campaign = tmp_path / "campaign.toml"
    campaign.write_text(TEST_KEEP, encoding="utf-8")
    events = [PostArrived(post_id="p0", author="gm_sam", at=at(0), body="!group Aria, Goblin")]
    rounds = LEDGER_PAGE + 5  # the stored rounds are read a page at a time, twice
    for number in range(1, rounds + 1):
        minute = 2 * number
        events += [
            PostArrived(
                post_id=f"t{number}", author="alice", at=at(minute), body="[physical: atack Goblin]"
            ),
            PostArrived(post_id=f"c{number}", author="gm_sam", at=at(minute + 1), body="!close"),
        ]
    with replay_run(campaign, seed="s") as run:
        feed_all(run, events)
        ledger = run.ledger()
        pieces: list[str] = []
        run.write_ledger(pieces.append)
    assert [r["number"] for r in ledger["rounds"]] == list(range(1, rounds + 2))
    assert [(r["post"], r["round"]) for r in ledger["rejected"]] == [
        (f"t{n}", n) for n in range(1, rounds + 1)
    ]
    assert "".join(pieces) == json.dumps(ledger, indent=1, ensure_ascii=False)
