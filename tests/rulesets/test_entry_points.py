"""The rulesets' entry points are read from the distributions' metadata as
importlib.metadata reads them (without importing it: it costs every command that reads tags
20-30 ms at start)."""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

import pytest

from pbp.entry_points import group_entries
from pbp.rulesets import GROUP


@pytest.mark.parametrize("group", [GROUP, "console_scripts", "pytest11"])
def test_the_installed_entry_points_are_the_ones_importlib_metadata_finds(group: str) -> None:
    theirs = sorted((e.name, e.value) for e in importlib.metadata.entry_points(group=group))
    assert sorted(group_entries(group)) == theirs
    assert theirs  # this environment has some of each


def _dist(folder: Path, name: str, text: str, suffix: str = "dist-info") -> None:
    meta = folder / f"{name}.{suffix}"
    meta.mkdir(parents=True)
    (meta / "entry_points.txt").write_text(text, encoding="utf-8")


def test_the_first_distribution_of_a_name_on_the_path_wins(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    _dist(first, "Dice_Games-1.0", "[pbp.rulesets]\ncoin = dice_games:COIN\n")
    _dist(second, "dice.games-2.0", "[pbp.rulesets]\ncoin = old_dice_games:COIN\n")
    _dist(
        second,
        "cards-0.1",
        "[pbp.rulesets]\n# a comment\n; another\npoker = cards.poker:RULESET\n"
        "[console_scripts]\ncards = cards:main\n",
        suffix="egg-info",
    )
    paths = [str(tmp_path / "missing"), str(first), str(second)]
    assert group_entries(GROUP, paths) == [
        ("coin", "dice_games:COIN"),
        ("poker", "cards.poker:RULESET"),
    ]
    assert group_entries("console_scripts", paths) == [("cards", "cards:main")]
    assert group_entries("nothing", paths) == []
