"""A summary shows a section's heading only with something under it: a round whose outcome
changed nothing listable (a skirmish won, a round where nobody acted) has no empty "What
changed"."""

from __future__ import annotations

from thread_run import play_posts

SKIRMISH = """
[campaign]
name = "Spire"
gms = ["gm"]
ruleset = "skirmish"
visibility = "open"
[[characters]]
name = "Aria"
player = "alice"
constitution = 2
wisdom = 1
[[characters]]
name = "Goblin"
constitution = 0
wisdom = 1
"""
DISTAT = """
[campaign]
name = "Keep"
gms = ["gm"]
[[characters]]
name = "Aria"
player = "alice"
body = 6
mind = 3
"""


def summaries(campaign: str, posts: list[tuple[str, str]]) -> list[str]:
    return [text for key, text in play_posts(campaign, posts).items() if key.startswith("summary-")]


def empty_headings(text: str) -> list[str]:
    """The bold headings alone on a line that the next line of text does not follow up (the
    next one is another heading, or there is none)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    found = []
    for here, line in enumerate(lines):
        heading = line.startswith("**") and line.endswith("**") and line.count("**") == 2
        if not heading:
            continue
        after = lines[here + 1] if here + 1 < len(lines) else None
        if after is None or (after.startswith("**") and after.endswith("**")):
            found.append(line)
    return found


def test_a_skirmish_won_has_no_empty_what_changed() -> None:
    (summary,) = summaries(
        SKIRMISH,
        [
            ("alice", "Aria hits. [attack: Goblin]"),
            ("gm", "[cast: heal Goblin | as Goblin]\n!close"),
        ],
    )
    assert "The party wins the skirmish" in summary
    assert "**What changed**" not in summary
    assert empty_headings(summary) == []


def test_a_round_where_nobody_acted_has_no_empty_heading() -> None:
    (summary,) = summaries(DISTAT, [("gm", "!close")])
    assert "Nobody acted this round." in summary
    assert empty_headings(summary) == []


def test_what_changed_stays_when_something_changed() -> None:
    (summary,) = summaries(
        SKIRMISH,
        [
            ("gm", "!damage Aria hp 1\n!close"),
        ],
    )
    assert "**What changed**" in summary
    assert empty_headings(summary) == []


def test_a_move_says_who_joins_whom_without_a_group_id() -> None:
    campaign = DISTAT + '\n[[characters]]\nname = "Goblin"\nbody = 3\nmind = 1\n'
    (summary,) = summaries(
        campaign,
        [
            ("alice", "[move: Goblin]"),
            ("gm", "!close"),
        ],
    )
    changes = summary.split("**What changed**", 1)[1].split("**", 1)[0]
    assert "- Aria joins Goblin." in changes
    assert "group g" not in summary
