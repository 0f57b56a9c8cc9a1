"""Every mistake in a campaign file names the file, the key or line, and what was expected."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbp.campaign.loader import parse_campaign
from pbp.errors import ConfigError
from pbp.services.files import load_campaign

HEAD = '[campaign]\nname = "Keep"\ngms = ["gm_sam"]\n'
ARIA = '[[characters]]\nname = "Aria"\nplayer = "alice"\nbody = 6\nmind = 3\n'
TALENT = '[[characters.talents]]\nname = "Aggressive"\nstat = "body"\nlevel = 3\nkind = "active"\n'


def error_of(text: str) -> ConfigError:
    with pytest.raises(ConfigError) as caught:
        parse_campaign(text, path="camp/keep.toml")
    error = caught.value
    assert error.path == "camp/keep.toml"
    assert str(error).startswith("camp/keep.toml: ")
    return error


def line_of(text: str, fragment: str, *, nth: int = 0) -> int:
    """The 1-based line of the nth line of ``text`` that starts with ``fragment``."""
    found = [i for i, line in enumerate(text.splitlines(), 1) if line.startswith(fragment)]
    return found[nth]


# (what is wrong, the text, a piece of `where`, a piece of `problem`, a piece of `expected`)
CASES = [
    (
        "unknown top-level table",
        HEAD + '[campain]\nname = "x"\n',
        "campain",
        'did you mean "campaign"',
        "campaign, characters",
    ),
    (
        "unknown campaign key",
        HEAD + 'rulset = "d20"\n',
        "campaign.rulset",
        'did you mean "ruleset"',
        "ruleset",
    ),
    (
        "unknown character key",
        HEAD + ARIA + "boddy = 3\n",
        'characters[0] "Aria" .boddy',
        'did you mean "body"',
        "body",
    ),
    (
        "unknown talent key",
        HEAD + ARIA + TALENT + "efect = 'attack'\n",
        'characters[0] "Aria" .talents[0] "Aggressive" .efect',
        'did you mean "effect"',
        "effect",
    ),
    (
        "unknown option",
        HEAD + "[campaign.options]\nclose_on_gm_post = true\n",
        "campaign.options.close_on_gm_post",
        'did you mean "close_on_any_gm_post"',
        "identify_bonus_requires_owning",
    ),
    (
        "points as a string",
        HEAD + ARIA.replace("body = 6", 'body = "6"'),
        'characters[0] "Aria" .body',
        "a string",
        "a whole number",
    ),
    (
        "points as a flag",
        HEAD + ARIA.replace("mind = 3", "mind = true"),
        'characters[0] "Aria" .mind',
        "true/false",
        "a whole number",
    ),
    (
        "gms as a string",
        HEAD.replace('["gm_sam"]', '"gm_sam"'),
        "campaign.gms",
        "a string",
        "strings",
    ),
    (
        "a gm that is a number",
        HEAD.replace('["gm_sam"]', '["gm_sam", 7]'),
        "campaign.gms[1]",
        "a whole number",
        "a string",
    ),
    (
        "option as a string",
        HEAD + '[campaign.options]\nclose_on_any_gm_post = "yes"\n',
        "campaign.options.close_on_any_gm_post",
        "a string",
        "true or false",
    ),
    (
        "skirmish pool minimum below 1",  # RULES M1: every entity takes at least one hit
        HEAD + "[campaign.options]\nskirmish_minimum = 0\n",
        "campaign.options.skirmish_minimum",
        "below 1",
        "a whole number ≥ 1",
    ),
    (
        "characters as one table",
        HEAD + '[characters]\nname = "Aria"\n',
        "characters",
        "a table",
        "[[characters]]",
    ),
    (
        "player given as a list",
        HEAD + ARIA.replace('"alice"', '["alice", "alice"]'),
        'characters[0] "Aria" .player',
        "a list",
        "a string",
    ),
    ("missing [campaign]", ARIA, "campaign", "missing", "[campaign]"),
    ("missing name", HEAD.replace('name = "Keep"\n', ""), "campaign", '"name"', "name ="),
    ("missing gms", HEAD.replace('gms = ["gm_sam"]\n', ""), "campaign", '"gms"', "gms ="),
    ("empty gms", HEAD.replace('["gm_sam"]', "[]"), "campaign.gms", "empty", "GM"),
    (
        "duplicate gms",
        HEAD.replace('["gm_sam"]', '["gm_sam", "GM_Sam"]'),
        "campaign.gms[1]",
        "listed twice",
        "each GM once",
    ),
    (
        "unknown ruleset",
        HEAD + 'ruleset = "distatt"\n',
        "campaign.ruleset",
        'did you mean "distat"',
        '"skirmish"',
    ),
    (
        "unknown visibility",
        HEAD + 'visibility = "hidden"\n',
        "campaign.visibility",
        '"hidden"',
        '"hide-npcs" | "open"',
    ),
    (
        "unknown stat",
        HEAD + ARIA + TALENT.replace('"body"', '"strength"'),
        ".talents[0]",
        '"strength"',
        '"body" | "mind"',
    ),
    (
        "unknown kind",
        HEAD + ARIA + TALENT.replace('"active"', '"activ"'),
        ".talents[0]",
        'did you mean "active"',
        '"active" | "passive"',
    ),
    (
        "unknown effect",
        HEAD + ARIA + TALENT + 'effect = "heal"\n',
        ".talents[0]",
        '"heal"',
        '"attack" | "restrain" | "none"',
    ),
    (
        "effect on a passive talent",
        HEAD + ARIA + TALENT.replace('"active"', '"passive"') + 'effect = "attack"\n',
        '.talents[0] "Aggressive" .effect',
        "passive",
        'kind = "active"',
    ),
    (
        "negative points",
        HEAD + ARIA.replace("mind = 3", "mind = -1"),
        'characters[0] "Aria" .mind',
        "below 0",
        "≥ 0",
    ),
    ("negative hp", HEAD + ARIA + "hp = -2\n", '"Aria" .hp', "below 0", "≥ 0"),
    (
        "talent level zero",
        HEAD + ARIA + TALENT.replace("level = 3", "level = 0"),
        ".level",
        "below 1",
        "≥ 1",
    ),
    (
        "talent level above half the stat",
        HEAD + ARIA + TALENT.replace("level = 3", "level = 4"),
        '"Aria" .talents[0] "Aggressive" .level',
        "needs 8 points in body",
        "at most 3",
    ),
    (
        "talent missing kind",
        HEAD + ARIA + TALENT.replace('kind = "active"\n', ""),
        '.talents[0] "Aggressive"',
        '"kind"',
        '"active" or "passive"',
    ),
    (
        "bonus pool above its maximum",
        HEAD + ARIA + "bonus_pool = 4\n",
        '"Aria" .bonus_pool',
        "maximum of 3",
        "at most 3",
    ),
    (
        "name with a bar",
        HEAD + ARIA.replace('"Aria"', '"Aria|2"'),
        "characters[0]",
        "contains |",
        "without any of",
    ),
    (
        "name with a comma",
        HEAD + ARIA.replace('"Aria"', '"Ogre, the Big"'),
        "characters[0]",
        "contains ,",
        "without any of",
    ),
    (
        "name with brackets and a slash",
        HEAD + ARIA.replace('"Aria"', '"[A/B]"'),
        "characters[0]",
        "contains / [ ]",
        "without any of",
    ),
    (
        "talent name with a colon",
        HEAD + ARIA + TALENT.replace('"Aggressive"', '"Hit: hard"'),
        ".talents[0]",
        "contains :",
        "without any of",
    ),
    (
        "bare reserved word",
        HEAD + ARIA.replace('"Aria"', '"Attack"'),
        "characters[0]",
        "word of the tag language",
        "not a verb, maneuver or option word",
    ),
    (
        "empty name",
        HEAD + ARIA.replace('"Aria"', '"  "'),
        "characters[0]",
        "empty",
        "at least one letter",
    ),
    (
        "missing character name",
        HEAD + "[[characters]]\nbody = 2\n",
        "characters[0]",
        '"name"',
        "name =",
    ),
    (
        "duplicate characters",
        HEAD + ARIA + ARIA.replace('"Aria"', '"ARIA"'),
        'characters[1] "ARIA"',
        "listed twice",
        "each character once",
    ),
    (
        "side outside the declared sides",
        HEAD + 'sides = ["party", "foes"]\n' + ARIA + 'side = "monsters"\n',
        '"Aria" .side',
        '"monsters"',
        '"party", "foes"',
    ),
    (
        "default side outside the declared sides",
        HEAD + 'sides = ["heroes", "foes"]\n' + ARIA,
        '"Aria" .side',
        "the default for a PC",
        '"heroes", "foes"',
    ),
    (
        "reserved side name",
        HEAD + ARIA + 'side = "all"\n',
        '"Aria" .side',
        "word of the tag language",
        "not a verb",
    ),
    (
        "username with a space",
        HEAD + ARIA.replace('"alice"', '"al ice"'),
        '"Aria" .player',
        "not a forum username",
        "without spaces",
    ),
]


@pytest.mark.parametrize(
    ("text", "where", "problem", "expected"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_mistake_names_the_key_the_problem_and_the_expectation(
    text: str, where: str, problem: str, expected: str
) -> None:
    error = error_of(text)
    assert where in error.where
    assert problem in error.problem
    assert expected in error.expected


def test_toml_syntax_error_carries_tomllib_line() -> None:
    text = HEAD + ARIA + 'mind = "unterminated\n'
    error = error_of(text)
    line = line_of(text, 'mind = "unterminated')
    assert error.where.startswith(f"line {line}")
    assert error.expected == "valid TOML"


def test_error_inside_a_talent_names_the_line_of_the_key() -> None:
    text = HEAD + ARIA + ARIA.replace("Aria", "Bram") + TALENT.replace("level = 3", "level = 5")
    error = error_of(text)
    assert error.where == (
        f'characters[1] "Bram" .talents[0] "Aggressive" .level (line {line_of(text, "level")})'
    )


def test_error_about_a_whole_character_names_the_line_of_its_table() -> None:
    text = HEAD + ARIA + "[[characters]]\nbody = 2\n"
    assert error_of(text).where == f"characters[1] (line {line_of(text, '[[', nth=1)})"


def test_duplicate_name_points_at_both_characters() -> None:
    text = HEAD + ARIA + ARIA.replace("alice", "bob")
    error = error_of(text)
    assert f"line {line_of(text, '[[', nth=1)}" in error.where
    assert f"line {line_of(text, '[[')}" in error.problem


def test_message_is_one_sentence_with_file_key_and_expectation() -> None:
    error = error_of(HEAD + ARIA.replace("body = 6", 'body = "six"'))
    assert str(error) == (
        'camp/keep.toml: characters[0] "Aria" .body (line 7): body is a string '
        "(expected a whole number ≥ 0)"
    )


def test_missing_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        load_campaign(tmp_path / "nope.toml")
    assert "does not exist" in caught.value.problem


def test_missing_templates_folder_is_a_config_error(tmp_path: Path) -> None:
    path = tmp_path / "keep.toml"
    path.write_text(HEAD + 'templates = "mine/"\n', encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_campaign(path)
    assert caught.value.where == "campaign.templates (line 4)"
    assert "mine/" in caught.value.problem


def test_campaign_table_mistakes_come_before_sheet_mistakes() -> None:
    text = HEAD.replace('"Keep"', '""') + ARIA.replace("body = 6", "body = -6")
    assert error_of(text).where == "campaign.name (line 2)"
