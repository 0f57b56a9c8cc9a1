"""A d20 refusal's example is a tag of the refused tag's own verb, with the scene's names (an
aid refused shows an aid, never a check), and a refusal that already shows the tag to write
gives no second example."""

from __future__ import annotations

from datetime import UTC, datetime

from thread_run import new_run

from pbp.campaign.loader import parse_campaign
from pbp.engine.events import PostArrived
from pbp.services.seeds import round_seeds

D20 = """
[campaign]
name = "Vault"
gms = ["gm"]
ruleset = "d20"
[[characters]]
name = "Aria"
player = "alice"
skills = { Climb = 4 }
[[characters]]
name = "Bram"
player = "bob"
[[characters]]
name = "Goblin"
"""


def reply_to(author: str, body: str) -> str:
    run = new_run(parse_campaign(D20, path="c.toml"), seed_for=round_seeds("1"), bot="pbp_bot")
    run.feed(PostArrived(post_id="p1", author=author, body=body,
                         at=datetime(2026, 11, 29, 10, 0, tzinfo=UTC)))
    return run.posted["problems-p1"].text


def test_an_aid_refused_shows_an_aid_of_another() -> None:
    text = reply_to("alice", "[aid: Aria Climb +3]")
    assert "cannot aid their own check" in text
    assert "For example: `[aid: Bram Climb +3]`" in text


def test_a_missing_sheet_number_shows_one_example_only() -> None:
    text = reply_to("gm", "[effect: +6 vs Aria Toughness | as Goblin]")
    assert "like `[effect: +6 vs 15]`" in text
    assert "For example" not in text
