"""Problem replies: every tag problem has a template; golden texts for a few replies."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pbp.render.environment import make_environment
from pbp.render.problems import Examples, render_problem, render_problem_reply
from pbp.rulesets.distat.engine.refusals import BonusBudget
from pbp.tags import ReadContext, parse_post
from pbp.tags.model import SceneKind
from pbp.tags.problems import TAG_PROBLEMS

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tags"))
from tags_roster import context

GOLDEN = Path(__file__).resolve().parent / "golden"
ENV = make_environment()

# One post per problem code, so every template renders with real fields.
POSTS = {
    "unknown_name": "[physical: attack Zed]",
    "ambiguous_name": "[physical: attack Gob]",
    "verb_typo": "[mentl: attack Goblin]",
    "wrong_scene": "[abstract: Athletics +4 on Breach the gate]",
    "missing_target": "[move:]",
    "unknown_maneuver": "[physical: punch Ogre]",
    "bad_option": "[physical: attack Ogre quickly]",
    "duplicate_option": "[physical: attack Ogre, bonus 1, bonus 2]",
    "conflicting_options": "[move: Door, body, mind]",
    "bad_number": "[physical: attack Ogre, bonus two]",
    "incomplete_tag": "[mental: use Mind Spike]",
    "split_without_share": "[physical: attack Imp A with 3; attack Imp B]",
    "split_of_one_part": "[physical: attack Imp A with 3]",
    "bonus_on_split": "[physical: attack Imp A with 3; attack Imp B with 2, bonus 1]",
    "split_maneuver": "[physical: attack Imp A with 3; feat Door with 2]",
    "bad_dice": "[roll: 1000d6]",
    "too_many_tags": "[pass] " * 21,
    "post_too_long": "x" * 10_001,
}


def test_every_tag_problem_code_has_a_post_here() -> None:
    assert sorted(POSTS) == sorted(kind.code for kind in TAG_PROBLEMS)


@pytest.mark.parametrize("code", sorted(POSTS))
def test_each_problem_renders_from_its_own_template(code: str) -> None:
    (problem,) = parse_post(POSTS[code], context=context()).problems
    assert problem.code == code
    text = render_problem(problem, env=ENV)
    assert text and "None" not in text
    if problem.tag:
        assert text.startswith("> \\[")  # the tag is quoted, escaped
        assert "`[" in text  # and a correct example is shown


@pytest.mark.parametrize(
    ("name", "post"),
    [
        ("unknown_name", "[physical: attack Zed]"),
        ("several", "[mentl: attack Goblin] [physical: attack Gob]\n[move: Door, body, mind]"),
        ("bad_dice", "[roll: 1000d6]"),
    ],
)
def test_golden_problem_replies(name: str, post: str) -> None:
    reply = render_problem_reply(parse_post(post, context=context()).problems, env=ENV)
    expected = (GOLDEN / f"problems_{name}.md").read_text(encoding="utf-8")
    assert reply == expected


def test_a_reply_escapes_what_the_user_wrote() -> None:
    post = "[physical: attack u/spam *now* https://x.example]"
    (problem,) = parse_post(post, context=context()).problems
    text = render_problem(problem, env=ENV)
    assert "u/spam" not in text and "https://" not in text and "*now*" not in text


def test_wrong_scene_names_the_scene_in_the_reply() -> None:
    ctx = ReadContext(scene=SceneKind.D20, characters=("Aria",))
    (problem,) = parse_post("[move: Aria]", context=ctx).problems
    text = render_problem(problem, env=ENV)
    assert "d20" in text and "distat" in text and "`[check:" in text


@pytest.mark.parametrize(("left", "example"), [
    (0, "For example, without bonus points: `[physical: attack Goblin]`"),
    (2, "For example: `[physical: attack Goblin | bonus 2]`"),
])  # fmt: skip
def test_a_bonus_over_what_is_left_shows_a_tag_that_spends_at_most_that(
    left: int, example: str
) -> None:
    problem = BonusBudget(
        tag="[physical: attack Goblin | bonus 3]", actor="Aria", asked=3, left=left
    )
    text = render_problem(problem, env=ENV, examples=Examples(target="Goblin"))
    assert text.endswith(example)
    assert f"Aria has {left} bonus points left to spend this round, not 3." in text
