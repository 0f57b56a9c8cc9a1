"""Under hide-npcs no NPC number reaches the players (issue: what the table sees, item 3): a
Threatened check's threatener, its effect line, an Identify that failed (no talent named), and a
problem reply to the GM's tag for an NPC. The whole thread of every scene is searched in
tests/services/test_hide_npcs_everywhere.py."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from thread_run import new_run

from pbp.campaign.loader import parse_campaign
from pbp.engine.events import PostArrived
from pbp.engine.problems import RuleBroken
from pbp.errors import Problem
from pbp.render.disclosure import Hidden
from pbp.render.environment import make_environment
from pbp.render.problems import render_problem
from pbp.render.registry import NPC_NUMBERS
from pbp.rulesets.d20.engine.refusals import PoolEmpty
from pbp.rulesets.distat.engine.refusals import BonusBudget
from pbp.rulesets.distat.rules.violations import (
    BonusOverCap,
    BonusOverPool,
    SplitPartTooLarge,
    SplitTooLarge,
)
from pbp.rulesets.markhor.engine.refusals import ApShort
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
        run.feed(
            PostArrived(post_id=f"p{i}", author=author, body=body, at=start + timedelta(minutes=i))
        )
    return run.summaries[1]


def test_a_threatened_move_hides_the_npcs_number() -> None:
    text = summary([("gm_sam", "!group Dax, Ogre"), ("dan", "[move: Aria, mind]")])
    row = next(line for line in text.splitlines() if "moves to Aria" in line)
    assert "Mind 4 vs ?" in row
    assert " 7" not in text.replace("2026", "")  # the Ogre's Mind appears nowhere


def test_an_identify_that_failed_names_no_talent_of_an_npc() -> None:
    text = summary(
        [
            ("gm_sam", "!group Aria, Ogre"),
            ("gm_sam", "[mental: use Hex on Aria | as Ogre]"),
            ("alice", "[identify: Ogre]"),
        ]
    )
    row = next(line for line in text.splitlines() if "identifies Ogre" in line)
    assert "failure" in row and "Hex" not in text


# A problem reply to the GM's tag for an NPC: players read it too (SPEC §4.5). The numbers
# are unlike any other of the reply, so finding the word is finding the number.
NPC_PROBLEMS: list[tuple[Problem, str]] = [
    (
        RuleBroken(
            tag="[physical: attack Aria | as Ogre | bonus 3]",
            violation=BonusOverPool(actor="Ogre", asked=3, pool=2),
        ),
        "2",
    ),
    (
        RuleBroken(
            tag="[physical: attack Aria | as Ogre | bonus 3]",
            violation=BonusOverCap(actor="Ogre", asked=3, cap=2),
        ),
        "2",
    ),
    (
        RuleBroken(
            tag="[mental: attack Aria with 9; attack Dax with 1 | as Ogre]",
            violation=SplitTooLarge(actor="Ogre", stat="mind", total=10, eav=7),
        ),
        "7",
    ),
    (
        RuleBroken(
            tag="[mental: attack Aria with 9; attack Dax with 1 | as Ogre]",
            violation=SplitPartTooLarge(actor="Ogre", part=1, share=9, available=6),
        ),
        "6",
    ),
    (
        BonusBudget(
            tag="[physical: attack Aria | as Ogre | bonus 3]", actor="Ogre", asked=3, left=1
        ),
        "1",
    ),
    (PoolEmpty(tag="[check: Stealth vs 30 | as Ogre | pool]", actor="Ogre", size=0), "0"),
    (ApShort(tag="[attack: Aria | as Ogre]", actor="Ogre", budget=5), "5"),
]


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text))


@pytest.mark.parametrize(
    ("problem", "number"),
    NPC_PROBLEMS,
    ids=[getattr(p, "cause", None) or getattr(p, "violation", p).code for p, _ in NPC_PROBLEMS],
)
def test_a_problem_with_an_npcs_tag_leaves_its_numbers_out(problem: Problem, number: str) -> None:
    env = make_environment()
    hidden = Hidden(npcs=frozenset({"Ogre"}), numbers=NPC_NUMBERS)
    shown = render_problem(problem, env=env)  # an open table, or the GM's full copy
    players = render_problem(problem, env=env, hidden=hidden)

    assert number in _words(shown)
    assert number not in _words(players), players
    assert "Ogre" in players and players.startswith("> ")  # still says what was wrong
    # a player character's numbers stay, hide-npcs or not
    own = render_problem(
        problem, env=env, hidden=Hidden(npcs=frozenset({"Goblin"}), numbers=NPC_NUMBERS)
    )
    assert own == shown


def test_a_summary_lists_the_gms_refused_tag_without_the_npcs_number() -> None:
    text = summary(
        [
            ("gm_sam", "!group Aria, Dax, Ogre"),
            ("gm_sam", "[mental: attack Aria with 5; attack Dax with 4 | as Ogre]"),
        ]
    )
    line = _refused_line(text)
    assert "more than Ogre's Mind EAV (`!sheet Ogre private` shows the GM the EAV)." in line
    assert "7" not in _words(text.replace("2026", ""))


def _refused_line(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("- `[mental:"))
