"""Every example a problem reply shows is written in the scene's own syntax with names of that
scene: each one is read again, in that scene, and reads cleanly (no problem, names it knows).
And each is the writer's own tag with the one fix applied (SPEC §2, issue 26): its words are
the tag's but for one stretch, the fix; a tag of another scene's verb, which has no such fix,
keeps the names of this scene it gave.

A campaign with uncommon names (no Goblin, no Aria) plays many mistakes in each scene; every
tag or command a reply offers after "For example:" is parsed as the bot would read it."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from difflib import SequenceMatcher
from typing import Any

import pytest
from thread_run import new_run

from pbp.campaign.loader import parse_campaign
from pbp.engine.events import PostArrived
from pbp.engine.reading import parse_for
from pbp.services.seeds import round_seeds

ROSTER = """
[[characters]]
name = "Zed"
player = "zoe"
body = 5
mind = 4
hp = 12
constitution = 2
wisdom = 2

[[characters.talents]]
name = "Hex"
stat = "mind"
level = 1
kind = "active"

[[characters]]
name = "Quill"
player = "quinn"
body = 3
mind = 5

[[characters]]
name = "Marrow Hound"
body = 3
mind = 1
constitution = 1
wisdom = 1
"""
COMMON = [  # mistakes any scene may meet
    "[phisical: attack Marrow Hound]",
    "[attack]",
    "[cast]",
    "[check]",
    "[abstract]",
    "[roll: 2q6]",
    "[pass | bonus 2]",
    "[move: Nobody]",
    "[aid: Nobody Climb +2]",
    "[attack: Nobody]",
    "[check: Climb +2 vs 15 | take 7]",
    "[identify]",
    "[physical: attack Marrow Hound, flurp]",
    "[mental: use]",
    "[physical: feat]",
    "[physical: attack Marrow Hound with 2]",
    "[physical: attack Marrow Hound | bonus x]",
    "[cast: heal]",
    "[attack: Marrow Hound | damage 2 | damage 3]",
    "[act]",
    "[abstract: Athletics +4 on Nowhere]",
    "[reaction | flurp]",
    "[physical: atack Marrow Hound]",
    "[physical: attack Marrow Hound | as Quill]",
    "[mental: attack Zed]",
    "[attack Marrow Hound]",
    "[physical: attack Marrow Hound with 4; attack Quill with 3]",
    "[p: attack hound | bonus 1]",
    # issue 26 item 14: each of these too is the writer's tag with the one fix
    "[physical: attack | bonus 1]",  # a missing target, named where it was left out
    "[physical: attack Marrow Hound with 2; attack Quill with 2 | bonus 1]",  # bonus on a split
    "[check: Climb +2 | pool]",  # incomplete: the DC added before the options
    "[check: Climb +2 vs 15 | take 10 | take 20]",  # given twice: the second one left out
    "[attack: Marrow Hound | flurp, as Quill]",  # a bad option left out, the rest kept
    "[cast: Zed]",  # Markhorspire: not at oneself, the same verb at a foe
    "[attack: Marrow Hound | react]",  # no reactions in a skirmish
    "[abstract: Climb +2 on Storm the walls | bailiwick]",  # a bailiwick skill
]
OWN = ("Zed",)  # zoe's, who writes COMMON: an example never acts on the writer's own
GM_TAGS = ["[physical: attack Zed]"]  # the GM's, without `as`
GM_LINES = [
    "!clsoe",
    "!damage Nobody hp 1",
    "!difficulty p999 12",
    "!group",
    "!bonus",
    "!npc",
    "!task",
    "!oppose Nowhere 4d6",
    "!encounter sideways",
    "!heal Zed",
    "!heal Quill",  # the command's own character, not another one
    "!bonus Quill",
    "!npc Imp body x",  # the number put right
    "!task Storm dc",  # the number added
]
SETUP = {
    "distat": "!group Zed, Marrow Hound",
    "d20": "",
    "abstract": "!task Storm the walls dc 40",
    "skirmish": "",
    "battle": "",
}
EXAMPLE = re.compile(r"`(\[[^`]*\]|![^`]*)`")


def examples_in(reply: str) -> list[str]:
    """The tags and commands a reply offers as correct examples (after "For example:")."""
    found: list[str] = []
    for part in reply.split("For example:")[1:]:
        found += EXAMPLE.findall(part.split("\n\n")[0])
    return found


def play(ruleset: str) -> tuple[Any, list[str]]:
    head = f'[campaign]\nname = "Den"\ngms = ["gm_gil"]\nruleset = "{ruleset}"\n'
    campaign = parse_campaign(head + ROSTER, path="den.toml")
    run = new_run(campaign, seed_for=round_seeds("1"), bot="pbp_bot")
    start = datetime(2026, 11, 29, 10, 0, tzinfo=UTC)
    posts = [("gm_gil", SETUP[ruleset])] if SETUP[ruleset] else []
    posts += [("zoe", line) for line in COMMON]
    posts += [("gm_gil", line) for line in GM_TAGS + GM_LINES]
    replies: list[tuple[str, str]] = []
    for i, (author, body) in enumerate(posts):
        done = run.feed(
            PostArrived(post_id=f"p{i}", author=author, body=body, at=start + timedelta(minutes=i))
        )
        replies += [(body, r.text) for r in done if r.key.startswith("problems-")]
    return run, replies


TOKEN = re.compile(r"[\[\]:|,/;]|[^\s\[\]:|,/;]+")


def changes(written: str, example: str) -> list[tuple[str, list[str], list[str]]]:
    """The stretches where ``example`` differs from ``written``, word by word (what was
    written there, what the example puts instead)."""
    a, b = TOKEN.findall(written), TOKEN.findall(example)
    ops = SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    return [(op, a[i1:i2], b[j1:j2]) for op, i1, i2, j1, j2 in ops if op != "equal"]


@pytest.mark.parametrize("ruleset", list(SETUP))
def test_every_example_in_a_problem_reply_reads_cleanly_in_that_scene(ruleset: str) -> None:
    run, replies = play(ruleset)
    examples = [e for _, reply in replies for e in examples_in(reply)]
    assert len(examples) >= 10, replies  # the mistakes did draw examples
    for example in examples:
        for stranger in ("Goblin", "Aria", "Bram", "Ogre", "Door", "TASK", "Breach the gate"):
            assert stranger not in example, (ruleset, example)
        parsed = parse_for(run.state, body=example, gm=example.startswith("!")).parsed
        assert parsed.problems == (), (ruleset, example, parsed.problems)
        assert parsed.tags or parsed.commands, (ruleset, example)


@pytest.mark.parametrize("ruleset", list(SETUP))
def test_every_example_is_the_writers_tag_with_one_fix(ruleset: str) -> None:
    run, replies = play(ruleset)
    names = run.state.scene.names()
    checked = 0
    for written, reply in replies:
        for example in examples_in(reply):
            checked += 1
            if "is a tag of" in reply:  # another scene's verb: its target kept, if any
                if "(the same action in" in reply:
                    body = re.split(r"[|,/;]", written)[0]
                    target = [n for n in names if n in body and n not in OWN]
                    assert all(n in example for n in target), (ruleset, written, example)
                continue
            found = changes(written, example)
            assert len(found) == 1, (ruleset, written, example, found)
    assert checked >= 20, replies
