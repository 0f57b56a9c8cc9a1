"""Golden files: replies as players read them, compared word for word.

Run with ``PBP_UPDATE_GOLDEN=1`` to rewrite the files after a deliberate change of wording;
then read every changed file as a player would before committing it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from thread_run import ThreadRun, new_run

from pbp.campaign.loader import parse_campaign
from pbp.engine.events import PostArrived
from pbp.rules.dice.seal import seed_from_int
from pbp.services.events_file import read_events
from pbp.services.files import load_campaign
from pbp.services.seeds import round_seeds

HERE = Path(__file__).parent
CASES = Path("/work/shared/acceptance/cases")
UPDATE = os.environ.get("PBP_UPDATE_GOLDEN") == "1"
START = datetime(2026, 11, 29, 10, 0, tzinfo=UTC)

CAMPAIGN = """
[campaign]
name = "Test Keep"
gms = ["gm_sam"]

[[characters]]
name = "Aria"
player = "alice"
body = 5
mind = 3

[[characters]]
name = "Bram"
player = "bob"
body = 3
mind = 4

[[characters]]
name = "Goblin Archer"
body = 3
mind = 1

[[characters]]
name = "Goblin Chief"
body = 4
mind = 2
"""


def check_golden(name: str, text: str) -> None:
    """Compare ``text`` with ``tests/golden/NAME``, or rewrite the file when updating."""
    path = HERE / name
    if UPDATE or not path.exists():
        if not UPDATE:
            pytest.fail(f"{path} is missing: run with PBP_UPDATE_GOLDEN=1 to create it")
        path.write_text(text, encoding="utf-8")
        return
    assert text == path.read_text(encoding="utf-8"), f"{name} differs (PBP_UPDATE_GOLDEN=1?)"


def _error_reply(posts: list[tuple[str, str, str]], post_id: str) -> str:
    """The reply to ``post_id`` after feeding ``posts`` (id, author, body) to a thread."""
    run = new_run(parse_campaign(CAMPAIGN, path="t.toml"), seed_for=round_seeds("golden"))
    for i, (pid, author, body) in enumerate(posts):
        run.feed(PostArrived(post_id=pid, author=author, body=body,
                             at=START + timedelta(minutes=i)))  # fmt: skip
    return run.posted[f"problems-{post_id}"].text


def _acceptance_run(case: str) -> ThreadRun:
    folder = CASES / case
    campaign = load_campaign(folder / "campaign.toml")
    run = new_run(campaign, seed_for=round_seeds(seed_from_int(1)))
    for event in read_events(folder / "events.jsonl"):
        run.feed(event)
    return run


@pytest.mark.skipif(not (CASES / "distat-opposed-basics").exists(), reason="no acceptance cases")
def test_summary_of_distat_opposed_basics_matches_its_golden_file() -> None:
    run = _acceptance_run("distat-opposed-basics")
    check_golden("summary_distat_opposed_basics.md", run.summaries[1])


ERRORS: dict[str, Callable[[], str]] = {
    "error_verb_typo.md": lambda: _error_reply(
        [("p1", "alice", "Aria charges! [phisical: attack Goblin Archer]")], "p1"),
    "error_unknown_name.md": lambda: _error_reply(
        [("p1", "alice", "Aria shouts. [mental: attack Goblin]")], "p1"),
    "error_action_used.md": lambda: _error_reply(
        [("p1", "bob", "[mental: attack Goblin Archer]"),
         ("p2", "bob", "And again! [mental: attack Goblin Chief]")], "p2"),
    "error_not_adjacent.md": lambda: _error_reply(
        [("p1", "bob", "Bram swings. [physical: attack Goblin Chief]")], "p1"),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_error_reply_matches_its_golden_file(name: str) -> None:
    check_golden(name, ERRORS[name]())
