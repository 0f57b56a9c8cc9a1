"""No exception inside one action's resolution loses a close: that action is void with a
reason, the fight or scene stands as it was before it, the others resolve, and the summary is
posted (in each of the four scenes)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from engine_helpers import ledger, make_campaign, thread

from pbp.campaign.loader import parse_campaign
from pbp.rulesets.abstract.engine import resolve as abstract_resolve
from pbp.rulesets.d20.engine import resolve as d20_resolve
from pbp.rulesets.distat import rules as distat
from pbp.rulesets.markhor.engine import resolve as markhor_resolve


def failing_once(real: Callable[..., Any], *, on_call: int = 1) -> Callable[..., Any]:
    """``real``, except that its ``on_call``-th call raises."""
    calls: list[int] = []

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == on_call:
            raise KeyError("something the rules did not expect")
        return real(*args, **kwargs)

    return wrapper


def summary_of(run: Any) -> str:
    return str(run.summaries[1])


def test_a_distat_action_that_fails_to_resolve_is_void_and_the_round_closes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(distat, "resolve", failing_once(distat.resolve, on_call=2))
    run = thread(
        [
            ("post", "p1", "gm_sam", 0, "!group Aria, Bram, Goblin"),
            ("post", "p2", "alice", 1, "[physical: attack Goblin]"),
            ("post", "p3", "bob", 2, "[mental: attack Goblin]"),
            ("post", "p4", "cara", 3, "[pass | as Cora]"),
            ("post", "p5", "gm_sam", 4, "!close"),
        ],
        campaign=make_campaign("open"),
    )
    first, broken, last = ledger(run)["rounds"][0]["actions"]
    assert (first["post"], first["outcome"]) == ("p2", "success")
    assert (broken["post"], broken["outcome"]) == ("p3", "void")
    assert "could not resolve" in broken["reason"] and "KeyError" in broken["reason"]
    assert (last["post"], last["outcome"]) == ("p4", "success")
    assert "the GM settles it by hand" in summary_of(run)


MARKHOR = """
[campaign]
name = "Markhor Keep"
gms = ["gm_sam"]
ruleset = "battle"

[[characters]]
name = "Aria"
player = "alice"
hp = 10
wp = 5

[[characters]]
name = "Goblin"
hp = 6
wp = 2
"""


def test_a_battle_course_that_fails_to_resolve_is_void_and_the_fight_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(
        markhor_resolve, "take_damage", failing_once(markhor_resolve.take_damage, on_call=1)
    )
    run = thread(
        [
            ("post", "p1", "alice", 1, "[attack: Goblin | damage 2] [attack: Goblin | damage 3]"),
            ("post", "p2", "gm_sam", 2, "!close"),
        ],
        campaign=parse_campaign(MARKHOR, path="m.toml"),
    )
    done = ledger(run)
    broken, hit = done["rounds"][0]["actions"]
    assert (broken["outcome"], broken["reason"]) == ("void", "could_not_resolve")
    assert hit["outcome"] == "success" and hit["damage"] == [
        {"character": "Goblin", "stat": "hp", "amount": 3}
    ]
    assert done["characters"]["Goblin"]["battle"]["hp"] == 3  # only the second hit landed
    assert "the GM settles it by hand" in summary_of(run)


D20 = """
[campaign]
name = "d20 Keep"
gms = ["gm_sam"]
ruleset = "d20"

[[characters]]
name = "Aria"
player = "alice"
"""


def test_a_d20_check_that_fails_to_resolve_is_void_and_the_round_closes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    failing = failing_once(d20_resolve.resolve_d20, on_call=1)
    monkeypatch.setattr(d20_resolve, "resolve_d20", failing)
    run = thread(
        [
            ("post", "p1", "alice", 1, "[check: Climb +4 vs 14] [roll: 1d6]"),
            ("post", "p2", "gm_sam", 2, "!close"),
        ],
        campaign=parse_campaign(D20, path="d.toml"),
    )
    broken, roll = ledger(run)["rounds"][0]["actions"]
    assert broken["outcome"] == "void" and roll["outcome"] == "success"
    assert "| void: the bot could not resolve it" in summary_of(run).replace("*", "")


ABSTRACT = """
[campaign]
name = "Siege"
gms = ["gm_sam"]
ruleset = "abstract"

[[characters]]
name = "Aria"
player = "alice"

[[characters]]
name = "Bram"
player = "bob"
"""


def test_an_abstract_action_that_fails_to_resolve_is_void_and_the_interval_closes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = abstract_resolve._Interval.resolve
    monkeypatch.setattr(abstract_resolve._Interval, "resolve", failing_once(real, on_call=1))
    run = thread(
        [
            ("post", "p0", "gm_sam", 0, "!task Breach the gate dc 10"),
            ("post", "p1", "alice", 1, "[abstract: Athletics +12 on Breach the gate]"),
            ("post", "p2", "bob", 2, "[abstract: Athletics +12 on Breach the gate | bank]"),
            ("post", "p3", "gm_sam", 3, "!close"),
        ],
        campaign=parse_campaign(ABSTRACT, path="a.toml"),
    )
    actions = ledger(run)["rounds"][0]["actions"]
    assert [(a["actor"], a["outcome"]) for a in actions] == [("Aria", "void"), ("Bram", "success")]
    assert "the GM settles it by hand" in summary_of(run)
