"""Each acknowledgement record's line, as its own template words it (the list a GM's reply,
or under ack = none the round's summary, shows)."""

from __future__ import annotations

import pytest

from pbp.engine.done import (
    DeadlineSet,
    DifficultySet,
    Done,
    EncounterBegun,
    EncounterEnded,
    FeatureAdded,
    Grouped,
    NpcJoined,
    PostVoided,
    Rested,
    TaskSet,
)
from pbp.render.environment import make_environment
from pbp.rulesets.d20.engine.model import InjuryEased
from pbp.rulesets.distat.engine.model import NightRested

ENV = make_environment()
LINES: list[tuple[Done, bool, str]] = [
    (Rested(post_id="p"), False, "A night's rest."),
    (
        NightRested(post_id="p"),
        False,
        "A night's rest: every character recovers 2 Body and 2 Mind damage.",
    ),
    (
        InjuryEased(post_id="p", character="Orc", step="step 1", night=True, npc=True),
        False,
        "The night's rest eases **Orc**'s injury one step (now step 1).",
    ),
    (
        InjuryEased(post_id="p", character="Orc", step="step 1", night=False, npc=True),
        True,
        "Medical care eases **Orc**'s injury one step.",
    ),
    (NpcJoined(post_id="p", name="Orc", side="foes"), False, "**Orc** joins the scene (foes)."),
    (
        NpcJoined(post_id="p", name="Orc", side="allies", group="Gob*"),
        False,
        "**Orc** joins the scene (allies), with Gob\\*.",
    ),
    (Grouped(post_id="p", names=("A", "B", "C")), False, "Now standing together: A, B, C."),
    (FeatureAdded(post_id="p", name="Door"), False, "**Door** is now part of the scene."),
    (
        FeatureAdded(post_id="p", name="Door", target_number=0),
        False,
        "**Door** is now part of the scene (target number 0).",
    ),
    (TaskSet(post_id="p", name="Climb", dc=60), False, "Task **Climb**: DC 60."),
    (
        TaskSet(post_id="p", name="Climb", dc=60, secret=True),
        False,
        "Task **Climb**: its DC is kept secret.",
    ),
    (
        DeadlineSet(post_id="p", when="2026-01-01 10:00 UTC"),
        False,
        "This round's deadline: 2026-01-01 10:00 UTC.",
    ),
    (DeadlineSet(post_id="p"), False, "This round has no deadline now."),
    (
        DifficultySet(post_id="p", target="t1_x", dc=15),
        False,
        "Post t1\\_x: its course rolls against 15 at the close.",
    ),
    (
        DifficultySet(post_id="p", target="t1_x", character="Aria", dc=15),
        True,
        "Post t1\\_x: Aria's course rolls against a difficulty the GM set at the close.",
    ),
    (
        PostVoided(post_id="p", target="t1_x", author="bob", reason="cheat_ing"),
        False,
        "Post t1\\_x by bob is struck: it does not count this round (cheat\\_ing).",
    ),
    (
        PostVoided(post_id="p", target="t1_x", author=""),
        False,
        "Post t1\\_x is struck: it does not count this round.",
    ),
    (
        EncounterBegun(post_id="p", scene="skirmish", ambush="the orcs"),
        False,
        "A new scene: a skirmish, the orcs caught the other side unaware.",
    ),
    (
        EncounterBegun(post_id="p", scene="d20", pressure=True),
        False,
        "A new scene: a d20 scene, under pressure (no taking 10 or 20).",
    ),
    (
        EncounterBegun(post_id="p", scene="abstract", hours=24),
        False,
        "A new scene: an abstract encounter, one interval every day.",
    ),
    (EncounterEnded(post_id="p"), False, "The encounter is over: everyone takes a short rest."),
]


@pytest.mark.parametrize(
    ("record", "hide", "line"),
    LINES,
    ids=[f"{type(r).__name__}-{i}" for i, (r, _, _) in enumerate(LINES)],
)
def test_each_record_is_worded_by_its_own_template(record: Done, hide: bool, line: str) -> None:
    shown = ENV.from_string('{% import "_done.md.j2" as done %}{{ done.line(d, hide)|trim }}')

    assert shown.render(d=record, hide=hide) == line
