"""`pbp check` warns about campaigns that load but that a GM would want told about: names no
tag can match whole, names that crowd every reply or look like template syntax, a PC played
by a GM, a templates folder that overrides nothing. Each warning is one line naming the file,
the key and its line, what is odd and what to do; the check still passes (exit 0)."""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbp.cli import app
from pbp.render.environment import builtin_templates_dir

ROOT = Path(__file__).resolve().parents[2]
# line 1 [campaign], 2 name, 3 gms, 4 blank; 5 [[characters]], 6 name, 7 player, 8 body,
# 9 mind; 11 [[characters]], 12 name, 13 body
SMALL = (
    '[campaign]\nname = "Keep"\ngms = ["gm_sam"]\n\n[[characters]]\nname = "Aria"\n'
    'player = "alice"\nbody = 6\nmind = 3\n\n[[characters]]\nname = "Goblin"\nbody = 3\n'
)


def small(old: str, new: str) -> str:
    """The small campaign with one piece changed."""
    assert old in SMALL
    return SMALL.replace(old, new, 1)


def templates(folder: str) -> str:
    """The small campaign with ``templates = folder``."""
    return small('gms = ["gm_sam"]\n', f'gms = ["gm_sam"]\ntemplates = "{folder}"\n')


@dataclass(frozen=True)
class Warned:
    """A campaign that loads, and the one warning ``pbp check`` must print about it."""

    name: str
    text: str
    where: str  # the key and its line
    says: str  # what is odd, and what to do
    files: dict[str, str] = field(default_factory=dict)  # more files: path -> text


WARNED = [
    Warned(
        "a zero-width space in a name",
        small('"Aria"', '"A\\u200bria"'),
        'characters[0] "A\\u200bria" .name (line 6)',
        'name "A\\u200bria" holds an invisible character (U+200B ZERO WIDTH SPACE): posts '
        "lose it, so a tag never matches the whole name (expected the name without it",
    ),
    Warned(
        "a zero-width joiner in a name",
        small('"Goblin"', '"Gob\\u200dlin"'),
        'characters[1] "Gob\\u200dlin" .name (line 12)',
        "U+200D ZERO WIDTH JOINER",
    ),
    Warned(
        "a byte-order mark in a name",
        small('"Goblin"', '"\\ufeffGoblin"'),
        ".name (line 12)",
        "U+FEFF ZERO WIDTH NO-BREAK SPACE",
    ),
    Warned(
        "a right-to-left override in a name",
        small('"Goblin"', '"Gob\\u202elin"'),
        ".name (line 12)",
        "U+202E RIGHT-TO-LEFT OVERRIDE",
    ),
    Warned(
        "a control character in a name",
        small('"Goblin"', '"Gob\\u001blin"'),
        'characters[1] "Gob\\x1blin" .name (line 12)',
        'name "Gob\\x1blin" holds a control character (U+001B): no one can type it in a '
        "post, so no tag names the whole of it (expected the name without it)",
    ),
    Warned(
        "a curly apostrophe in a name",
        small('"Goblin"', '"O\u2019Brien"'),
        ".name (line 12)",
        'name "O\u2019Brien" reads as "O\'Brien" in a post (posts are read in Unicode NFKC '
        "form, with straight quotes: U+2019 RIGHT SINGLE QUOTATION MARK), so a tag never "
        'matches it as written (expected "O\'Brien" instead)',
    ),
    Warned(
        "a full-width letter in a name",
        small('"Goblin"', '"\uff27oblin"'),
        ".name (line 12)",
        'reads as "Goblin" in a post',
    ),
    Warned(
        "template syntax in a name",
        small('"Goblin"', '"{{ 7*7 }}"'),
        'characters[1] "{{ 7*7 }}" .name (line 12)',
        'name "{{ 7*7 }}" looks like template syntax: replies show it as written and it is '
        "never run",
    ),
    Warned(
        "a template block in a name",
        small('"Goblin"', '"{% if x %}Gob{% endif %}"'),
        ".name (line 12)",
        "looks like template syntax",
    ),
    Warned(
        "template syntax in the campaign's name",
        small('"Keep"', '"{{ campaign }}"'),
        "campaign.name (line 2)",
        'the campaign\'s name "{{ campaign }}" looks like template syntax',
    ),
    Warned(
        "a long name",
        small('"Goblin"', '"' + "Goblin " * 12 + '"'),
        ".name (line 12)",
        "is 83 characters long: players type it (or its start) in tags "
        "and every summary line shows it (expected a shorter name, at most 50 characters)",
    ),
    Warned(
        "an invisible character in a talent's name",
        small(
            "mind = 3\n",
            'mind = 3\n[[characters.talents]]\nname = "Hex\\u200b"\n'
            'stat = "mind"\nlevel = 1\nkind = "passive"\n',
        ),
        '.talents[0] "Hex\\u200b" .name (line 11)',
        'talent name "Hex\\u200b" holds an invisible character',
    ),
    Warned(
        "an invisible character in a side",
        small("body = 3\n", 'body = 3\nside = "fo\\u200ees"\n'),
        ".side (line 14)",
        'side "fo\\u200ees" holds an invisible character (U+200E LEFT-TO-RIGHT MARK)',
    ),
    Warned(
        "an invisible character in a username",
        small('"alice"', '"ali\\u200bce"'),
        ".player (line 7)",
        'username "ali\\u200bce" holds an invisible character (U+200B '
        "ZERO WIDTH SPACE): no forum account's name does, so no post is ever this user's",
    ),
    Warned(
        "a PC played by a GM",
        small('"alice"', '"GM_Sam"'),
        'characters[0] "Aria" .player (line 7)',
        'player "GM_Sam" is one of the GMs: the bot reads a GM\'s tags only with "as Aria", '
        'and reminds the GM of "Aria" as a player who has not acted (expected the username '
        "of the player who plays it, or no player: an NPC, run by the GMs)",
    ),
    Warned(
        "templates = /etc",
        templates("/etc"),
        "campaign.templates (line 4)",
        'the templates folder "/etc" holds no pbp template, so every reply stays pbp\'s own '
        "(expected copies of the templates to change, named as pbp names them, e.g. "
        "summary.md.j2",
    ),
    Warned(
        "templates = /",
        templates("/"),
        "campaign.templates (line 4)",
        'the templates folder "/" holds no pbp template',
    ),
    Warned(
        "a templates folder of something else",
        templates("notes"),
        "campaign.templates (line 4)",
        "holds no pbp template",
        files={"notes/todo.txt": "buy dice"},
    ),
    Warned(
        "a misspelt template",
        templates("tpl"),
        "campaign.templates (line 4)",
        '"effects/zerod.md.j2" in the templates folder is named like no template of pbp, '
        'so it changes no reply (did you mean "effects/zeroed.md.j2"?)',
        files={"tpl/summary.md.j2": "{{ 1 }}", "tpl/effects/zerod.md.j2": "x"},
    ),
]


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test runs in an empty working folder; files are named relative to it."""
    monkeypatch.chdir(tmp_path)


def check(text: str, files: dict[str, str] | None = None) -> tuple[int, list[str]]:
    """``pbp check k.toml`` on ``text`` (with ``files`` beside it): status and lines."""
    for name, content in (files or {}).items():
        Path(name).parent.mkdir(parents=True, exist_ok=True)
        Path(name).write_text(content, encoding="utf-8")
    Path("k.toml").write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["check", "k.toml"])
    return result.exit_code, result.output.splitlines()


@pytest.mark.parametrize("case", WARNED, ids=[case.name for case in WARNED])
def test_check_warns_in_one_line_and_still_passes(case: Warned) -> None:
    status, lines = check(case.text, case.files)
    assert status == 0, lines
    assert lines[0].startswith("ok: k.toml ("), lines
    assert len(lines) == 2, lines  # the ok line, and one warning
    assert lines[1].startswith("warning: k.toml: "), lines
    assert f"{case.where}: " in lines[1], lines  # the key and its line, then what is odd
    assert case.says in lines[1], lines


def test_a_clean_campaign_has_no_warning() -> None:
    status, lines = check(SMALL)
    assert (status, lines) == (0, ["ok: k.toml (2 characters, ruleset distat)"])


def test_a_templates_folder_that_overrides_a_template_has_no_warning() -> None:
    shutil.copytree(builtin_templates_dir() / "effects", "tpl/effects")
    status, lines = check(templates("tpl"), {"tpl/about.md.j2": "About {{ 1 }}"})
    assert (status, lines) == (0, ["ok: k.toml (2 characters, ruleset distat)"])


def test_the_example_campaign_has_no_warning() -> None:
    result = CliRunner().invoke(app, ["check", str(ROOT / "examples" / "sunken-keep.toml")])
    assert result.exit_code == 0
    assert [line for line in result.output.splitlines() if line.startswith("warning")] == []


def test_a_side_on_every_sheet_is_warned_about_once() -> None:
    text = small('player = "alice"\n', 'player = "alice"\nside = "par\\u200bty"\n')
    text = text.replace("body = 3\n", 'body = 3\nside = "par\\u200bty"\n')
    status, lines = check(text)
    assert status == 0
    assert sum("par\\u200bty" in line for line in lines) == 1, lines


REFUSED = [
    (
        "a NUL in a name",
        small('"Aria"', '"Ar\\u0000ia"'),
        'characters[0] "Ar\\x00ia" .name (line 6): name "Ar\\x00ia" holds a NUL character '
        "(U+0000): no post can hold one and PostgreSQL cannot store one",
    ),
    (
        "a NUL in the campaign's name",
        small('"Keep"', '"Ke\\u0000ep"'),
        'campaign.name (line 2): the campaign\'s name "Ke\\x00ep" holds a NUL character',
    ),
    (
        "a name of 100,000 characters",
        small('"Goblin"', '"' + "G" * 100_000 + '"'),
        'name "GGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGG…(100,000 characters)" is 100,000 '
        "characters long (expected at most 200 characters)",
    ),
    (
        "a control character in a username",
        small('"alice"', '"ali\\u0007ce"'),
        'username "ali\\x07ce" holds a control character (U+0007), which no forum account has',
    ),
    *[
        (f"a name with {char}", small('"Goblin"', f'"Gob{char}lin"'), f"contains {char}")
        for char in "[]|,;:/"
    ],
]


@pytest.mark.parametrize(
    ("text", "says"), [row[1:] for row in REFUSED], ids=[row[0] for row in REFUSED]
)
def test_check_refuses_a_name_nothing_could_use_in_one_line(text: str, says: str) -> None:
    status, lines = check(text)
    assert status == 1
    assert len(lines) == 1 and lines[0].startswith("error: k.toml: "), lines
    assert says in lines[0], lines
    assert len(lines[0]) < 400  # the 100,000 characters are not repeated
