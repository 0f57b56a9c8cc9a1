"""Finding the line of a key in TOML text, and naming keys in error messages."""

from __future__ import annotations

import pytest

from pbp.campaign.loader import parse_campaign
from pbp.campaign.tables import LineIndex, Reader, did_you_mean
from pbp.errors import ConfigError
from pbp.rulesets.distat.sheet import DistatSheet

TEXT = """\
# a comment [not a header]
[campaign]
name = "Keep"   # trailing comment
notes = \"\"\"
[characters]
name = "not a key"
\"\"\"
options.close_on_any_gm_post = true

[[characters]]
name = "Aria"

[[characters.talents]]
"name" = "Aggressive"

[[characters]]
name = "Goblin"
  [[ characters.talents ]]
  name = "Hex"
  level = 2
"""


def number_of(line: str, *, nth: int = 0) -> int:
    return [i for i, text in enumerate(TEXT.splitlines(), 1) if text.strip() == line][nth]


@pytest.mark.parametrize(
    ("at", "line", "nth"),
    [
        (("campaign",), "[campaign]", 0),
        (("campaign", "name"), 'name = "Keep"   # trailing comment', 0),
        (("campaign", "options", "close_on_any_gm_post"),
         "options.close_on_any_gm_post = true", 0),
        (("characters", 0), "[[characters]]", 0),
        (("characters", 0, "talents", 0, "name"), '"name" = "Aggressive"', 0),
        (("characters", 1), "[[characters]]", 1),
        (("characters", 1, "talents", 0), "[[ characters.talents ]]", 0),
        (("characters", 1, "talents", 0, "level"), "level = 2", 0),
        (("characters", 1, "talents", 0, "eav"), "[[ characters.talents ]]", 0),
    ],
)  # fmt: skip
def test_line_index_finds_headers_keys_and_array_elements(
    at: tuple[str | int, ...], line: str, nth: int
) -> None:
    assert LineIndex(TEXT).line_of(at) == number_of(line, nth=nth)


def test_lines_inside_multiline_strings_are_not_keys() -> None:
    index = LineIndex(TEXT)
    assert index.line_of(("characters",)) is None  # the [characters] inside notes is text
    assert index.line_of(("characters", 0, "name")) == number_of('name = "Aria"')


def test_where_names_array_elements_by_their_name() -> None:
    reader = Reader.of(TEXT, path="t.toml")
    where = reader.where(("characters", 1, "talents", 0, "level"))
    assert (
        where == f'characters[1] "Goblin" .talents[0] "Hex" .level (line {number_of("level = 2")})'
    )


def test_did_you_mean_only_when_close() -> None:
    assert did_you_mean("boddy", ["body", "mind"]) == ' (did you mean "body"?)'
    assert did_you_mean("xyz", ["body", "mind"]) == ""


SHEET = '[campaign]\nname = "K"\ngms = ["gm"]\n[[characters]]\nname = "A"\n'


@pytest.mark.parametrize(("invested", "level"), [(9, 5), (13, 7), (5, 3), (1, 1)])
def test_talent_one_level_above_half_the_investment_is_refused(invested: int, level: int) -> None:
    # RULES §1.2: minimum investment for level L = 2·L
    text = SHEET + f"mind = {invested}\n[[characters.talents]]\nname = 'T'\nstat = 'mind'\n"
    text += f"level = {level}\nkind = 'passive'\n"
    with pytest.raises(ConfigError, match=f"level at most {invested // 2}"):
        parse_campaign(text, path="c.toml")


def test_bonus_pool_may_start_at_its_maximum() -> None:
    # RULES §1.2 / D15: 13 invested -> a pool of 6
    text = SHEET + "body = 2\nmind = 13\nbonus_pool = 6\n"
    sheet = parse_campaign(text, path="c.toml").characters[0]
    assert sheet.part(DistatSheet).bonus_pool == 6
    with pytest.raises(ConfigError, match="maximum of 6"):
        parse_campaign(text.replace("bonus_pool = 6", "bonus_pool = 7"), path="c.toml")
