"""A bracket without a colon that starts with a verb and names someone almost right is a tag
with a problem listing the candidates, not prose that silently does nothing (issue 15)."""

from __future__ import annotations

import pytest
from tags_roster import context

from pbp.tags import ReadContext, parse_post
from pbp.tags.problems import AmbiguousName, UnknownName, VerbTypo, WrongScene

TWO_GOBLINS = ReadContext(characters=("Aria", "Goblin 1", "Goblin 2", "Goblin Brute"))


def only_problem(text: str, read_in: ReadContext) -> object:
    parsed = parse_post(f"Aria swings. {text}", context=read_in)
    assert parsed.tags == ()
    assert len(parsed.problems) == 1, parsed.problems
    return parsed.problems[0]


@pytest.mark.parametrize(
    "text", ["[p attack gob | bonus 2]", "[p attack Goblin]", "[physical attack gob]",
             "[m restrain Gob]", "[move Gobl]"],
)  # fmt: skip
def test_a_name_several_characters_start_with_lists_them(text: str) -> None:
    problem = only_problem(text, TWO_GOBLINS)
    assert isinstance(problem, AmbiguousName)
    assert set(problem.candidates) >= {"Goblin 1", "Goblin 2"}
    assert (problem.tag, problem.line, problem.column) == (text, 1, 14)


def test_a_typo_of_a_whole_name_is_reported_with_the_names() -> None:
    problem = only_problem("[p attack Gobiln Brute]", TWO_GOBLINS)
    assert isinstance(problem, UnknownName)
    assert problem.name == "Gobiln Brute" and "Goblin Brute" in problem.candidates


def test_a_verb_of_another_scene_naming_a_character_is_reported() -> None:
    problem = only_problem("[attack Goblin Brute]", TWO_GOBLINS)
    assert isinstance(problem, WrongScene)
    assert problem.verb == "attack" and "physical" in problem.verbs


def test_a_typo_of_a_verb_naming_a_character_is_reported() -> None:
    problem = only_problem("[phisical attack Goblin Brute]", TWO_GOBLINS)
    assert isinstance(problem, VerbTypo)
    assert problem.suggestion == "physical"


def test_the_same_bracket_naming_one_character_acts() -> None:
    parsed = parse_post("[p attack Goblin Brute | bonus 2]", context=TWO_GOBLINS)
    assert parsed.problems == () and len(parsed.tags) == 1


@pytest.mark.parametrize(
    "text",
    ["[move along]", "[p attack the air]", "[attack the air]", "[roll eyes]", "[pass the salt]",
     "[p attack Go]", "[check the rules thread]", "[phisical stuff]", "[p attack Ogre bonus x]"],
)  # fmt: skip
def test_prose_that_names_no_one_stays_prose(text: str) -> None:
    for read_in in (TWO_GOBLINS, context()):
        parsed = parse_post(f"She shrugs. {text}", context=read_in)
        assert parsed.tags == () and parsed.problems == (), (text, read_in.scene)


def reply(text: str) -> str:
    from pbp.render.environment import make_environment
    from pbp.render.problems import render_problem_reply

    return render_problem_reply(
        parse_post(text, context=TWO_GOBLINS).problems, env=make_environment(None)
    )


def test_the_reply_to_an_ambiguous_name_lists_the_candidates_in_plain_words() -> None:
    text = reply("[p attack gob | bonus 2]")
    assert '"gob" could be any of: Goblin 1, Goblin 2, Goblin Brute' in text
    assert "`[p attack Goblin 1 | bonus 2]`" in text


def test_the_reply_to_a_typo_of_a_name_says_which_name_was_meant() -> None:
    text = reply("[p attack Gobiln Brute]")
    assert "did nothing. Did you mean **Goblin Brute**?\n" in text
    assert "`[p attack Goblin Brute]`" in text
