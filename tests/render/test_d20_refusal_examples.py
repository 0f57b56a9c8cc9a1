"""A d20 refusal's example is a tag of the refused tag's own verb, with the scene's names (an
aid refused shows an aid, never a check), and a refusal that already shows the tag to write
gives no second example."""

from __future__ import annotations

from thread_run import play_posts

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
    return play_posts(D20, [(author, body)])["problems-p1"]


def test_an_aid_refused_shows_an_aid_of_another() -> None:
    text = reply_to("alice", "[aid: Aria Climb +3]")
    assert "cannot aid their own check" in text
    assert "For example: `[aid: Bram Climb +3]`" in text


def test_a_missing_sheet_number_shows_one_example_only() -> None:
    text = reply_to("gm", "[effect: +6 vs Aria Toughness | as Goblin]")
    assert "like `[effect: +6 vs 15]`" in text
    assert "For example" not in text
