"""Commands act in line order (SPEC §2.5): `!status` or `!sheet` above `!close` answers with the
round being closed, as it stood when the command was read; below `!close` with the round the
close opened."""

from __future__ import annotations

from thread_run import play_posts

CAMPAIGN = """
[campaign]
name = "Keep"
gms = ["gm"]
visibility = "open"
[[characters]]
name = "Aria"
player = "alice"
body = 6
mind = 3
[[characters]]
name = "Goblin"
body = 3
mind = 1
"""


def replies(gm_post: str) -> dict[str, str]:
    return play_posts(CAMPAIGN, [("alice", "[mental: attack Goblin]"), ("gm", gm_post)])


def test_status_above_close_shows_the_round_it_closes() -> None:
    got = replies("!status\n!sheet Goblin\n!close")
    status, sheet = got["p2-1"], got["p2-2"]
    assert status.startswith("**Round 1 so far**")
    assert "| Mind | 1 | 0 | 1 | 1 |" in sheet  # as read: Aria's attack resolves after it
    assert "summary-1" in got


def test_status_below_close_shows_the_round_it_opens() -> None:
    got = replies("!close\n!status")
    assert got["p2-2"].startswith("**Round 2 so far**")
    assert "Aria" in got["p2-2"].split("Still to act", 1)[1]  # nobody has acted in round 2
    keys = list(got)
    assert keys.index("summary-1") < keys.index("p2-2")  # the answer follows the summary
