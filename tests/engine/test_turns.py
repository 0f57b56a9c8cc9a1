"""Standing orders, grace, the early close, reminders, the turn board and private copies
(issue 29), through the engine on the simulated clock."""

from __future__ import annotations

from typing import Any

import pytest
from engine_helpers import CAMPAIGN_TOML, ledger, thread

from pbp.campaign.loader import parse_campaign
from pbp.campaign.model import Campaign
from pbp.engine.effects import PrivateReply, SummaryContent
from pbp.engine.private import gm_copies
from pbp.errors import ConfigError


def campaign(extra: str = "", visibility: str = "hide-npcs") -> Campaign:
    """The test campaign with more keys in its [campaign] table."""
    text = CAMPAIGN_TOML.format(visibility=visibility)
    text = text.replace('visibility = "hide-npcs"', f'visibility = "hide-npcs"\n{extra}', 1)
    return parse_campaign(text, path="t.toml")


def actions(run: Any, number: int) -> list[dict[str, Any]]:
    rounds: list[dict[str, Any]] = ledger(run)["rounds"]
    found: list[dict[str, Any]] = rounds[number - 1]["actions"]
    return found


def test_a_standing_order_acts_for_a_character_who_has_not_acted_in_every_round() -> None:
    run = thread(
        [
            ("post", "g0", "gm_sam", 0, "!group Aria, Goblin"),
            ("post", "a1", "alice", 1, "!standing [physical: attack Goblin]"),
            ("post", "g1", "gm_sam", 2, "!close"),
            ("post", "a2", "alice", 3, "[move: away]"),  # she acts herself: no order this round
            ("post", "g2", "gm_sam", 4, "!close"),
            ("post", "g3", "gm_sam", 5, "!close"),
        ]
    )
    assert "Standing order for **Aria**" in run.posted["done-a1"].text
    first = actions(run, 1)
    assert [(a["post"], a["actor"], a["verb"]) for a in first] == [
        ("standing:a1:1", "Aria", "physical")
    ]
    assert "**Standing orders acted:** Aria `[physical: attack Goblin]`" in run.summaries[1]
    assert [a["verb"] for a in actions(run, 2)] == ["move"]
    # round 3: Aria stands alone now, so the order is refused at the close, with the reason
    assert actions(run, 3) == []
    rejected = [r for r in ledger(run)["rejected"] if r["round"] == 3]
    assert [r["post"] for r in rejected] == ["standing:a1:1"]
    assert "not in the same group" in rejected[0]["error"]


def test_a_standing_order_is_replaced_cancelled_and_refused_when_posted() -> None:
    run = thread(
        [
            ("post", "a1", "alice", 0, "!standing [pass]"),
            ("post", "a2", "alice", 1, "!standing [move: Goblin]"),
            ("post", "b1", "bob", 2, "!standing [move: Nobody]"),
            ("post", "c1", "cara", 3, "!standing [move: Goblin]"),  # two characters: as NAME
            ("post", "c2", "cara", 4, "!standing Dax [move: Goblin]"),
            ("post", "c3", "cara", 5, "!standing Dax off"),
            ("post", "b2", "bob", 6, "[pass]"),
            ("post", "g1", "gm_sam", 7, "!close"),
        ]
    )
    assert "(it replaces the one before)" in run.posted["done-a2"].text
    assert "Nobody" in run.posted["problems-b1"].text
    assert "as" in run.posted["problems-c1"].text
    assert "**Dax** has no standing order now." in run.posted["done-c3"].text
    assert [(a["actor"], a["verb"]) for a in actions(run, 1)] == [
        ("Bram", "pass"),
        ("Aria", "move"),
    ]


def test_each_scene_takes_a_standing_order_in_its_own_syntax() -> None:
    orders = {
        "abstract": ("!task Lock dc 10", "!standing [abstract: Disable Device +7 on Lock]"),
        "d20": ("", "!standing [check: Perception +5 vs 15]"),
        "skirmish": ("", "!standing [act: holds the door]"),
        "battle": ("", "!standing [act: holds the line]"),
    }
    for kind, (setup, order) in orders.items():
        run = thread(
            [
                ("post", "g0", "gm_sam", 0, f"!encounter {kind}\n{setup}".strip()),
                ("post", "a1", "alice", 1, order),
                ("post", "b1", "bob", 2, "[pass]"),
                ("post", "g1", "gm_sam", 3, "!close"),
            ]
        )
        assert "Standing order for **Aria**" in run.posted["done-a1"].text, kind
        number = max(run.summaries)
        acted = [a["post"] for a in actions(run, number)]
        assert "standing:a1:1" in acted, (kind, acted)


def test_a_deleted_post_takes_its_standing_order_back_and_an_edit_changes_nothing() -> None:
    run = thread(
        [
            ("post", "a1", "alice", 0, "!standing [pass]"),
            ("post", "b1", "bob", 1, "!standing [pass]"),
            ("edit", "b1", None, 2, "!standing [move: Goblin]"),
            ("delete", "a1", None, 3),
            ("post", "g1", "gm_sam", 4, "!close"),
        ]
    )
    assert [(a["actor"], a["verb"]) for a in actions(run, 1)] == [("Bram", "pass")]
    assert "written by an edit,\ndid nothing" in run.posted["done-b1"].text


def test_hold_by_default_passes_for_the_characters_without_an_order() -> None:
    text = CAMPAIGN_TOML.format(visibility="open").replace(
        'visibility = "open"', 'visibility = "open"\nstanding_default = "hold"'
    )
    text = text.replace(
        'name = "Dax"\nplayer = "cara"', 'name = "Dax"\nplayer = "cara"\nstanding = "none"'
    )
    run = thread(
        [("post", "a1", "alice", 0, "[pass]"), ("post", "g1", "gm_sam", 1, "!close")],
        campaign=parse_campaign(text, path="t.toml"),
    )
    assert [(a["actor"], a["post"]) for a in actions(run, 1)] == [
        ("Aria", "a1"),
        ("Bram", "hold:Bram"),
        ("Cora", "hold:Cora"),
    ]


def test_a_grace_nudges_the_missing_once_and_closes_when_everyone_has_acted() -> None:
    run = thread(
        [
            ("post", "g0", "gm_sam", 0, "!deadline 2h grace 1h"),
            ("post", "a1", "alice", 1, "[pass]"),
            ("post", "c1", "cara", 2, "[pass as Cora]\n[pass as Dax]"),
            ("tick", None, None, 121),
            ("tick", None, None, 130),
            ("post", "b1", "bob", 140, "[pass]"),
        ]
    )
    nudges = [k for k in run.posted if k.startswith("grace-1")]
    assert nudges == ["grace-1-1"]
    assert "u/bob" in run.posted["grace-1-1"].text
    assert "waits for you until 2026-11-29 13:00 UTC" in run.posted["grace-1-1"].text
    assert ledger(run)["rounds"][0]["closed_by"] == "all-acted"
    assert "Closed when everyone had acted, 2026-11-29 12:20 UTC" in run.summaries[1]


def test_a_grace_ends_with_a_close_at_its_end() -> None:
    run = thread(
        [
            ("post", "g0", "gm_sam", 0, "!deadline 2h grace 1h"),
            ("post", "a1", "alice", 1, "[pass]"),
            ("tick", None, None, 121),
            ("tick", None, None, 181),
        ]
    )
    assert ledger(run)["rounds"][0]["closed_by"] == "deadline"
    assert "Closed by the deadline, 2026-11-29 13:00 UTC" in run.summaries[1]


def test_close_when_all_acted_closes_at_the_last_action() -> None:
    run = thread(
        [
            ("post", "a1", "alice", 0, "[pass]"),
            ("post", "c1", "cara", 1, "!standing Cora [pass]\n!standing Dax [pass]"),
            ("post", "b1", "bob", 2, "[pass]"),
        ],
        campaign=campaign("close_when_all_acted = true"),
    )
    assert 1 in run.summaries
    assert [a["actor"] for a in actions(run, 1)] == ["Aria", "Bram", "Cora", "Dax"]


def test_reminders_by_private_message_at_each_time_once() -> None:
    run = thread(
        [
            ("post", "g0", "gm_sam", 0, "!deadline 4h"),
            ("post", "a1", "alice", 1, "[pass]"),
            ("tick", None, None, 121),
            ("tick", None, None, 125),
            ("tick", None, None, 181),
            ("tick", None, None, 185),
        ],
        campaign=campaign('remind = "private"\nremind_at = ["50%", "1h before"]'),
    )
    keys = [key for _, key, _ in run.private]
    assert keys == [
        "private-bob-reminder-1",
        "private-cara-reminder-1",
        "private-bob-reminder-1-1h-before",
        "private-cara-reminder-1-1h-before",
    ]
    assert not [k for k in run.posted if k.startswith("reminder")]


def test_reminders_off_send_nothing() -> None:
    run = thread(
        [("post", "g0", "gm_sam", 0, "!deadline 4h"), ("tick", None, None, 200)],
        campaign=campaign('remind = "off"'),
    )
    assert not [k for k in run.posted if k.startswith("reminder")] and not run.private


def test_the_turn_board_shows_who_is_still_to_act_after_every_post_and_close() -> None:
    run = thread(
        [
            ("post", "a1", "alice", 0, "[pass]"),
            ("post", "c1", "cara", 1, "!standing Cora [pass]"),
            ("post", "g1", "gm_sam", 2, "!close"),
        ],
    )
    texts = [[r.text for r in done if r.key == "cheatsheet"] for _, done in run.log]
    assert "Still to act: Bram, Cora, Dax" in texts[0][0]
    assert "Acted: Aria" in texts[0][0]
    assert "Still to act: Bram, Dax" in texts[1][0] and "standing order: Cora" in texts[1][0]
    assert "**Round 2 now**" in texts[2][0] and "Acted: nobody yet" in texts[2][0]
    assert all(len(t) == 1 for t in texts)  # one edit of the opening post an event at most


def test_the_turn_board_is_on_by_default_and_turn_board_false_turns_it_off() -> None:
    events = [("post", "a1", "alice", 0, "[pass]"), ("post", "g1", "gm_sam", 1, "!close")]
    shown = thread(events)
    assert "**Round 2 now**" in shown.posted["cheatsheet"].text
    assert "Still to act: Aria, Bram, Cora, Dax" in shown.posted["cheatsheet"].text
    off = thread(events, campaign=campaign("turn_board = false"))
    assert "Still to act" not in off.posted["cheatsheet"].text
    assert off.posted["cheatsheet"].edits == 0


@pytest.mark.parametrize(("copies", "sent"), [("off", 0), ("summaries", 1), ("all", 1)])
def test_private_copies_of_summaries(copies: str, sent: int) -> None:
    run = thread(
        [("post", "a1", "alice", 0, "[pass]"), ("post", "g1", "gm_sam", 1, "!close\n!status")],
        campaign=campaign(f'private_copies = "{copies}"'),
    )
    keys = [key for _, key, _ in run.private]
    assert len([k for k in keys if k.endswith("summary-1")]) == sent
    assert any(k.endswith("g1-2") for k in keys) == (copies == "all")


def test_an_undone_round_closed_again_replaces_its_private_copy() -> None:
    c = campaign()
    summary = SummaryContent(report=None, again=True)  # type: ignore[arg-type]
    from pbp.engine.effects import Reply

    (_, copy) = gm_copies(c, [Reply(key="summary-1", to=None, content=summary)])
    assert isinstance(copy, PrivateReply) and copy.replaces
    run = thread(
        [
            ("post", "a1", "alice", 0, "[pass]"),
            ("post", "g1", "gm_sam", 1, "!close"),
            ("post", "g2", "gm_sam", 2, "!undo"),
            ("post", "g3", "gm_sam", 3, "!close"),
        ],
        campaign=c,
    )
    assert [key for _, key, _ in run.private] == ["private-gm_sam-summary-1"] * 2


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('remind = "pm"', 'remind = "pm" is not known'),
        ('remind_at = ["soon"]', 'remind_at[0] = "soon" is no reminder time'),
        ('private_copies = "some"', 'private_copies = "some" is not known'),
        ('standing_default = "wait"', 'standing_default = "wait" is not known'),
    ],
)
def test_bad_turn_options_are_refused_with_an_example(line: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace("[", r"\[").replace("]", r"\]")):
        campaign(line)
