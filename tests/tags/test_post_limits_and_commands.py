"""Post-level rules: limits, commands beside tags, and names (SPEC §2, §2.5)."""

from __future__ import annotations

from tags_roster import context

from pbp.tags import ReadContext, parse_post, resolve_name
from pbp.tags.commands import CloseCommand, GroupCommand
from pbp.tags.post import GM_TAG_LIMIT, PLAYER_TAG_LIMIT, POST_LENGTH_LIMIT
from pbp.tags.problems import AmbiguousName, PostTooLong, TooManyTags, UnknownName


def test_a_player_may_hold_twenty_tags_but_not_twenty_one() -> None:
    assert len(parse_post("[pass] " * PLAYER_TAG_LIMIT, context=context()).tags) == 20
    parsed = parse_post("[pass] " * (PLAYER_TAG_LIMIT + 1) + "\n!close", context=context())
    assert parsed.tags == () and parsed.commands == ()
    (problem,) = parsed.problems
    assert isinstance(problem, TooManyTags) and (problem.count, problem.limit) == (21, 20)


def test_rejected_tags_count_toward_the_limit_and_prose_does_not() -> None:
    text = "[moev: Door] " * 21
    assert isinstance(parse_post(text, context=context()).problems[0], TooManyTags)
    assert parse_post("[sic] " * 50 + "[pass]", context=context()).problems == ()


def test_a_gm_may_hold_a_hundred_tags_and_commands_do_not_count() -> None:
    text = "[pass: as Ogre] " * GM_TAG_LIMIT + "\n\n" + "!close\n" * 3
    parsed = parse_post(text, context=context(gm=True))
    assert len(parsed.tags) == GM_TAG_LIMIT and len(parsed.commands) == 3
    over = parse_post("[pass] " * (GM_TAG_LIMIT + 1), context=context(gm=True))
    assert isinstance(over.problems[0], TooManyTags) and over.tags == ()


def test_a_split_is_one_tag() -> None:
    split = "[physical: attack Imp A with 1; attack Imp B with 1] "
    assert len(parse_post(split * PLAYER_TAG_LIMIT, context=context()).tags) == 20


def test_a_post_over_ten_thousand_characters_acts_not_at_all() -> None:
    text = "[move: Door]\n!close\n" + "x" * POST_LENGTH_LIMIT
    parsed = parse_post(text, context=context(gm=True))
    assert parsed.tags == () and parsed.commands == ()
    (problem,) = parsed.problems
    assert isinstance(problem, PostTooLong) and problem.length == len(text)
    assert parse_post("x" * POST_LENGTH_LIMIT, context=context()).problems == ()


def test_commands_are_read_in_line_order_beside_tags() -> None:
    text = "!group Aria, Ogre\nAria steps in. [move: Ogre]\n!close"
    parsed = parse_post(text, context=context(gm=True))
    assert [type(command) for command in parsed.commands] == [GroupCommand, CloseCommand]
    assert [command.source.line for command in parsed.commands] == [1, 3]
    assert len(parsed.tags) == 1


def test_a_quoted_or_coded_command_is_ignored() -> None:
    text = "> !close\n\n`!close`\n\n    !close\n\n~~!close~~"
    assert parse_post(text, context=context(gm=True)).commands == ()


def test_a_players_bang_line_that_is_no_command_is_prose() -> None:
    parsed = parse_post("!!! watch out [move: Door]", context=context())
    assert parsed.problems == () and len(parsed.tags) == 1


def test_a_player_using_a_gm_command_gets_a_problem() -> None:
    parsed = parse_post("!close", context=context())
    assert parsed.commands == () and len(parsed.problems) == 1


def test_without_names_targets_are_read_as_written() -> None:
    parsed = parse_post("[physical: attack Big Troll 2, bonus 1]", context=ReadContext())
    (tag,) = parsed.tags
    assert tag.parts[0].target == "Big Troll 2"  # type: ignore[union-attr]


def test_resolve_name_exact_first_then_a_unique_prefix() -> None:
    names = ("Goblin", "Goblin Archer", "Ogre")
    assert resolve_name("goblin", candidates=names) == "Goblin"
    assert resolve_name("goblin a", candidates=names) == "Goblin Archer"
    assert resolve_name("OG", candidates=names) == "Ogre"
    ambiguous = resolve_name("gob", candidates=names)
    assert isinstance(ambiguous, AmbiguousName)
    assert ambiguous.candidates == ("Goblin", "Goblin Archer")
    unknown = resolve_name("troll", candidates=names)
    assert isinstance(unknown, UnknownName)
    assert unknown.candidates == ("Goblin", "Goblin Archer", "Ogre")
    assert resolve_name("gob", candidates=("Goblin Archer", "Ogre")) == "Goblin Archer"
    assert isinstance(resolve_name("", candidates=names), UnknownName)
