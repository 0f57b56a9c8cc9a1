"""Each scene kind has its own words in its ruleset's ``templates/scenes/<kind>/`` (its example
tags, its cheat-sheet list, what it is called), and the generic templates name no scene: a new
ruleset's scene adds its folder and nothing else changes."""

from __future__ import annotations

import re

import pytest

from pbp.render.environment import builtin_templates_dir, make_environment
from pbp.render.problems import Examples
from pbp.tags.model import SceneKind
from pbp.tags.registry import SCENE_VERBS

TEMPLATES = builtin_templates_dir()
# the templates of one ruleset's own part (its summary section, its refusals) may name its scenes
OWN_PART = re.compile(r"^(scenes/|refusals/|_distat|_markhor|_d20|_abstract|problems/markhor_rule)")
SCENE_SWITCH = re.compile(r"""scene\s*(==|in\s*\()|["'](distat|d20|abstract|skirmish|battle)["']""")


@pytest.mark.parametrize("kind", list(SceneKind))
def test_every_scene_kind_has_its_words(kind: SceneKind) -> None:
    env = make_environment()
    ex = Examples.named(
        scene=kind.value,
        target="Goblin",
        other="Ogre",
        ally="Aria",
        own="Bram",
        task="Breach the gate",
        feature="Door",
        talent="Rage",
    )
    own = env.get_template(f"scenes/{kind.value}/tags.j2").make_module({"ex": ex})
    assert str(own.called()).startswith("a")
    assert str(own.first()).startswith("`[")
    for verb in SCENE_VERBS[kind]:
        assert str(own.example(verb)).startswith(f"`[{verb}")
    assert "!damage Goblin" in str(own.damage("Goblin"))
    assert "!heal Aria" in str(own.heal("Aria"))
    listing = env.get_template(f"scenes/{kind.value}/cheatsheet.md.j2").render(
        scene=kind.value, example_target="Goblin", example_ally="Aria"
    )
    assert listing.startswith("- `[")


def test_the_generic_templates_name_no_scene() -> None:
    named = []
    for path in sorted(TEMPLATES.rglob("*.j2")):
        relative = path.relative_to(TEMPLATES).as_posix()
        if OWN_PART.match(relative):
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if SCENE_SWITCH.search(line):
                named.append(f"{relative}:{number}: {line.strip()[:80]}")
    assert named == []
