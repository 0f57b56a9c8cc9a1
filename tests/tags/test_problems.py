"""A bracket with a colon is meant as a tag: every problem in it is a typed value."""

from __future__ import annotations

import pytest
from tags_roster import context

from pbp.errors import Problem
from pbp.tags import parse_post
from pbp.tags.model import SceneKind
from pbp.tags.problems import (
    AmbiguousName,
    BadDice,
    BadNumber,
    BadOption,
    BonusOnSplit,
    ConflictingOptions,
    DuplicateOption,
    IncompleteTag,
    MissingTarget,
    SplitManeuver,
    SplitOfOnePart,
    SplitWithoutShare,
    UnknownManeuver,
    UnknownName,
    VerbTypo,
    WrongScene,
)

D, A, T, S = SceneKind.DISTAT, SceneKind.ABSTRACT, SceneKind.D20, SceneKind.SKIRMISH

CASES: list[tuple[SceneKind, str, type[Problem]]] = [
    (D, "[physical: attack Zed]", UnknownName),
    (D, "[physical: attack Gob]", AmbiguousName),
    (D, "[move: Dungeon]", UnknownName),
    (D, "[mental: use Fireball on Ogre]", UnknownName),
    (D, "[physical: attack Ogre, as Nobody]", UnknownName),
    (D, "[phisical: attack Ogre]", VerbTypo),
    (D, "[moev: Door]", VerbTypo),
    (D, "[moev]", VerbTypo),
    (D, "[mentl: attack Goblin]", VerbTypo),
    (D, "[abstract: Athletics +4 on Breach the gate]", WrongScene),
    (A, "[move: Door]", WrongScene),
    (D, "[move:]", MissingTarget),
    (D, "[physical: attack]", MissingTarget),
    (D, "[physical: feat]", MissingTarget),
    (D, "[identify:]", MissingTarget),
    (D, "[physical: punch Ogre]", UnknownManeuver),
    (D, "[physical:]", IncompleteTag),
    (D, "[mental: use Mind Spike]", IncompleteTag),
    (D, "[physical: attack Ogre quickly]", BadOption),
    (D, "[physical: attack Ogre, bonus 1, bonus 2]", DuplicateOption),
    (D, "[move: Door, body, mind]", ConflictingOptions),
    (D, "[physical: attack Ogre, bonus two]", BadNumber),
    (D, "[mental: feat vs high]", BadNumber),
    (D, "[physical: attack Imp A with 3; attack Imp B]", SplitWithoutShare),
    (D, "[physical: attack Imp A with 3]", SplitOfOnePart),
    (D, "[physical: attack Imp A with 3; attack Imp B with 2, bonus 1]", BonusOnSplit),
    (D, "[physical: attack Imp A with 3; feat Door with 2]", SplitManeuver),
    (D, "[roll: 2d]", BadDice),
    (D, "[roll: 1000d6]", BadDice),
    (A, "[abstract: Athletics +4]", IncompleteTag),
    (A, "[abstract: Athletics +4 on Fly away]", UnknownName),
    (A, "[abstract: spell on Breach the gate, bailiwick]", ConflictingOptions),
    (A, "[abstract: Athletics on breach, bank, spend 4]", ConflictingOptions),
    (T, "[check: Perception +5]", IncompleteTag),
    (T, "[check: Perception +5 vs 15, take 5]", BadNumber),
    (T, "[check: Perception +5 vs 15, tools broken]", BadNumber),
    (T, "[attack: +6]", IncompleteTag),
    (T, "[aid: Zed Climb +3]", UnknownName),
    (S, "[cast: heal]", MissingTarget),
    (S, "[act:]", IncompleteTag),
]


@pytest.mark.parametrize(("scene", "text", "kind"), CASES)
def test_a_tag_with_a_colon_reports_its_problem(
    scene: SceneKind, text: str, kind: type[Problem]
) -> None:
    parsed = parse_post(f"Prose.\n\nMore prose {text}", context=context(scene))
    assert parsed.tags == ()
    (problem,) = parsed.problems
    assert type(problem) is kind
    assert problem.tag == text
    assert (problem.line, problem.column) == (3, 12)


def test_typos_suggest_the_nearest_verb_of_the_scene() -> None:
    suggestions = {
        "[phisical: attack Goblin]": "physical",
        "[moev: Door]": "move",
        "[mentl: attack Goblin]": "mental",
        "[idnetify: Ogre]": "identify",
    }
    for text, verb in suggestions.items():
        (problem,) = parse_post(text, context=context()).problems
        assert isinstance(problem, VerbTypo) and problem.suggestion == verb


def test_a_typo_needs_a_colon_or_to_stand_alone() -> None:
    assert parse_post("[moev to the door]", context=context()).problems == ()
    assert parse_post("[chek: Perception +5 vs 15]", context=context(T)).problems[0].code == (
        "verb_typo"
    )


def test_the_typo_distance_is_two_only_for_long_words() -> None:
    assert parse_post("[phsicl: attack Ogre]", context=context()).problems  # 7 letters, 2 off
    assert parse_post("[mvo: Door]", context=context()).problems == ()  # 3 letters, 2 off


def test_wrong_scene_names_the_scene_and_where_the_verb_lives() -> None:
    (problem,) = parse_post("[abstract: x on y]", context=context()).problems
    assert isinstance(problem, WrongScene)
    assert (problem.scene, problem.scenes) == ("distat", ("abstract",))


def test_names_problems_list_the_candidates() -> None:
    (problem,) = parse_post("[physical: attack Gob]", context=context()).problems
    assert isinstance(problem, AmbiguousName)
    assert problem.candidates == ("Goblin", "Goblin 1", "Goblin 2", "Goblin Archer")
    (problem,) = parse_post("[move: Dungeon]", context=context()).problems
    assert isinstance(problem, UnknownName) and "Door" in problem.candidates
    assert "Aria" in problem.candidates and problem.kind == "target"


def test_one_rejected_tag_does_not_stop_the_others() -> None:
    text = "[physical: attack Zed] [move: Door]\n[moev: Wall] [pass]"
    parsed = parse_post(text, context=context())
    assert [tag.source.text for tag in parsed.tags] == ["[move: Door]", "[pass]"]
    assert [tag.source.index for tag in parsed.tags] == [0, 1]
    assert [(p.line, p.column) for p in parsed.problems] == [(1, 1), (2, 1)]
