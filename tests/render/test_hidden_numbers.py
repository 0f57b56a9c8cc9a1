"""Under hide-npcs no NPC number reaches the players (issue: what the table sees, item 3): a
Threatened check's threatener, its effect line, an Identify that failed (no talent named)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from thread_run import new_run

from pbp.campaign.loader import parse_campaign
from pbp.engine.events import PostArrived
from pbp.services.seeds import round_seeds

KEEP = """
[campaign]
name = "Keep"
gms = ["gm_sam"]
visibility = "hide-npcs"

[[characters]]
name = "Aria"
player = "alice"
body = 5
mind = 3

[[characters]]
name = "Dax"
player = "dan"
body = 3
mind = 4

[[characters]]
name = "Ogre"
body = 2
mind = 7

[[characters.talents]]
name = "Hex"
stat = "mind"
level = 2
kind = "active"
"""


def summary(posts: list[tuple[str, str]]) -> str:
    run = new_run(parse_campaign(KEEP, path="k.toml"), seed_for=round_seeds("1"), bot="pbp_bot")
    start = datetime(2026, 11, 29, 10, 0, tzinfo=UTC)
    for i, (author, body) in enumerate([*posts, ("gm_sam", "!close")]):
        run.feed(PostArrived(post_id=f"p{i}", author=author, body=body,
                             at=start + timedelta(minutes=i)))
    return run.summaries[1]


def test_a_threatened_move_hides_the_npcs_number() -> None:
    text = summary([("gm_sam", "!group Dax, Ogre"), ("dan", "[move: Aria, mind]")])
    row = next(line for line in text.splitlines() if "moves to Aria" in line)
    assert "Mind 4 vs ?" in row
    assert " 7" not in text.replace("2026", "")  # the Ogre's Mind appears nowhere


def test_an_identify_that_failed_names_no_talent_of_an_npc() -> None:
    text = summary([("gm_sam", "!group Aria, Ogre"),
                    ("gm_sam", "[mental: use Hex on Aria | as Ogre]"),
                    ("alice", "[identify: Ogre]")])
    row = next(line for line in text.splitlines() if "identifies Ogre" in line)
    assert "failure" in row and "Hex" not in text
