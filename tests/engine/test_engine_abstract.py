"""Epic Path abstract encounters in the round engine (SPEC §2.2, RULES §2 E1–E15).

Each ``[abstract:]`` rolls at the close on its own key (post id, tag index): one d20, then its
action dice; ``!oppose`` rolls on (post id, "cmd", line) before every tag. The dice here are
scripted per key; the property tests at the end use seeded dice.
"""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from typing import Any

import pytest
from abstract_run import Run, interval, pool
from engine_helpers import make_campaign
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from pbp.rulesets.abstract.engine.model import AbstractRecord, AbstractReport, AbstractState, Task
from pbp.rulesets.abstract.engine.resolve import all_rolls
from pbp.rulesets.abstract.rules.odds import completion_odds
from pbp.services.verify import verify_text
from pbp.tags.model import SceneKind

# ---------------------------------------------------------------------------------------------
# The skill roll and the action dice (E1–E3)


@pytest.mark.parametrize(
    ("tag", "divisor", "count"),
    [
        ("[abstract: Athletics +41 on Breach the gate, bank]", 5, 12),
        ("[abstract: Warfare +41 on Breach the gate, bailiwick, bank]", 10, 6),
        ("[abstract: Diplomacy +41 on Breach the gate, other, bank]", 12, 5),
    ],
)
def test_action_dice_are_the_result_divided_by_the_sources_divisor(
    tag: str, divisor: int, count: int
) -> None:
    # RULES E1: 19 + 41 = 60 gives 60 // 5, 60 // 10 or 60 // 12 dice
    run = interval(("p2", "alice", tag), dice={("p2", 0): pool(19, *[3] * 12)})
    r = run.records()["Aria"]
    assert (r.roll, r.bonus, r.result, r.divisor, len(r.dice)) == (19, 41, 60, divisor, count)
    assert [x.sides for x in r.rolls] == [20] + [6] * count  # the d20 first, then the d6s


@pytest.mark.parametrize(
    ("tag", "d20", "result"),
    [
        ("[abstract: Athletics -10 on Breach the gate, bank]", 1, -9),
        ("[abstract: Athletics +0 on Breach the gate, bank]", 9, 9),
        ("[abstract: Warfare +5 on Breach the gate, bailiwick, bank]", 14, 19),
        ("[abstract: Diplomacy +3 on Breach the gate, other, bank]", 19, 22),
    ],
)
def test_a_poor_roll_still_gives_two_action_dice(tag: str, d20: int, result: int) -> None:
    # RULES E1: "no matter how poorly you roll", at least 2 dice
    run = interval(("p2", "alice", tag), dice={("p2", 0): pool(d20, 4, 4)})
    r = run.records()["Aria"]
    assert (r.result, r.dice) == (result, (4, 4))
    assert r.banked == 4  # the two dice still bank one


def test_natural_20_adds_five_to_the_result_and_the_summary_says_so() -> None:
    # RULES E2: 20 + 4 + 5 = 29 gives 5 dice, not 24 // 5 = 4
    run = interval(
        ("p2", "alice", "[abstract: Athletics +4 on Breach the gate, bank]"),
        dice={("p2", 0): pool(20, 1, 2, 3, 4, 5)},
    )
    r = run.records()["Aria"]
    assert (r.result, len(r.dice)) == (29, 5)
    assert "Athletics: 20 + 4 + 5 (natural 20) = 29 ÷ 5 on Breach the gate" in run.summaries[1]


def test_natural_1_has_no_extra_effect() -> None:
    # RULES E2: 1 + 9 = 10 gives two dice that still pay the DC of 5 (no automatic failure)
    run = interval(
        ("p2", "alice", "[abstract: Athletics +9 on Breach the gate]"),
        dice={("p2", 0): pool(1, 3, 4)},
        setup="!encounter abstract\n!task Breach the gate dc 5",
    )
    r = run.records()["Aria"]
    assert (r.result, r.pips_paid, r.outcome, r.completed) == (10, 7, "success", True)


@pytest.mark.parametrize(("d20", "count"), [(20, 4), (9, 2)])
def test_spell_slots_roll_an_unmodified_d20_without_the_natural_20_bonus(
    d20: int, count: int
) -> None:
    # RULES E3: five spell slots: d20 ÷ 5, no +5 on a 20, at least two dice
    run = interval(
        ("p2", "alice", "[abstract: spell on Breach the gate, bank]"),
        dice={("p2", 0): pool(d20, *[2] * count)},
    )
    r = run.records()["Aria"]
    assert (r.skill, r.source, r.bonus, r.result, r.divisor) == (None, "spell", 0, d20, 5)
    assert len(r.dice) == count
    assert f"spell slots: {d20} = {d20} ÷ 5 on Breach the gate" in run.summaries[1]


# ---------------------------------------------------------------------------------------------
# Paying and banking (E4–E8)


def test_paying_exactly_the_dc_completes_the_task_and_one_pip_short_fails() -> None:
    # RULES E4: meet or exceed; 6 + 6 = 12 meets DC 12, 6 + 5 = 11 does not
    run = interval(
        ("p2", "alice", "[abstract: Athletics +4 on Breach the gate, spend 12]"),
        ("p3", "bob", "[abstract: Athletics +4 on Find the key, spend 11]"),
        dice={("p2", 0): pool(16, 6, 6, 1, 1), ("p3", 0): pool(16, 6, 5, 1, 1)},
        setup="!encounter abstract\n!task Breach the gate dc 12\n!task Find the key dc 12",
    )
    aria, bram = run.records()["Aria"], run.records()["Bram"]
    assert (aria.paid_dice, aria.pips_paid, aria.wasted, aria.dc) == ((6, 6), 12, 0, 12)
    assert (aria.outcome, aria.completed) == ("success", True)
    assert (bram.pips_paid, bram.outcome, bram.completed) == (11, "failure", False)
    assert run.task("Breach the gate") == Task(name="Breach the gate", dc=12, done_by="Aria")
    assert run.task("Find the key") == Task(name="Find the key", dc=12)


def _bank_example() -> Run:
    """RULES E5's example as round 1: 17 + 10 = 27 gives [6, 6, 4, 2, 1]; Aria banks."""
    return interval(
        ("p2", "alice", "[abstract: Athletics +10 on Breach the gate, bank]"),
        dice={("p2", 0): pool(17, 6, 6, 4, 2, 1), ("p5", 0): pool(5, 1, 2),
              ("p6", 0): pool(5, 1, 2)},
        setup="!encounter abstract\n!task Breach the gate dc 10",
    )  # fmt: skip


def test_banking_keeps_the_best_half_and_discards_as_many_lowest() -> None:
    # RULES E5: bank the two 6s (12), discard 2 and 1, the 4 is lost
    run = _bank_example()
    r = run.records()["Aria"]
    assert (r.result, r.dice) == (27, (6, 6, 4, 2, 1))
    assert (r.banked_dice, r.discarded_dice, r.paid_dice) == ((6, 6), (2, 1), ())
    assert (r.banked, r.bank, r.pips_paid, r.bank_used) == (12, 12, 0, 0)
    assert (r.outcome, r.dc) == ("success", None)  # SPEC §5: a bank needs no check
    assert run.bank("Aria") == 12
    assert "banked 12 (6, 6; discarded 2, 1); bank 12" in run.summaries[1]


def test_banked_pips_pay_a_later_interval_and_the_rest_stays_banked() -> None:
    # RULES E6: dice 1 + 2 pay first, the bank adds the 7 they lack; 5 of the 12 stay
    run = _bank_example().post(
        ("p5", "alice", "[abstract: Athletics +0 on Breach the gate, spend 10]"),
        ("c2", "gm_sam", "!close"),
    )
    r = run.records(2)["Aria"]
    assert (r.paid_dice, r.bank_used, r.pips_paid, r.wasted) == ((2, 1), 7, 10, 0)
    assert (r.bank, r.outcome, r.completed) == (5, "success", True)
    assert run.bank("Aria") == 5
    assert "paid 10 (2+1 + 7 banked) vs DC 10: **done**" in run.summaries[2]


def test_dice_cannot_be_split_so_three_fives_pay_fifteen_for_twelve() -> None:
    # RULES E7: cost 12 with three 5s: all three are spent, 3 wasted and not banked
    run = interval(
        ("p2", "alice", "[abstract: Athletics +4 on Breach the gate]"),
        dice={("p2", 0): pool(11, 5, 5, 5)},
        setup="!encounter abstract\n!task Breach the gate dc 12",
    )
    r = run.records()["Aria"]
    assert (r.payment, r.paid_dice, r.pips_paid, r.wasted) == ("auto", (5, 5, 5), 15, 3)
    assert (r.outcome, r.banked, r.bank) == ("success", 0, 0)
    assert "paid 15 (5+5+5) vs DC 12: **done** (3 wasted)" in run.summaries[1]


SECRET = "!encounter abstract\n!task Find the key dc 20 secret"


def test_a_payment_short_of_a_secret_dc_fails_and_its_pips_are_gone() -> None:
    # RULES E8: spend 10 on a hidden DC 20: the payment fails and is spent, nothing banked
    run = interval(
        ("p2", "alice", "[abstract: Athletics +4 on Find the key, spend 10]"),
        dice={("p2", 0): pool(16, 5, 5, 1, 1)},
        setup=SECRET,
    )
    r = run.records()["Aria"]
    assert (r.pips_paid, r.dc, r.dc_secret, r.outcome) == (10, 20, True, "failure")
    assert (r.banked, r.bank) == (0, 0)
    assert run.task("Find the key") == Task(name="Find the key", dc=20, secret=True)


def test_auto_on_a_secret_dc_banks_even_when_the_dice_would_have_paid() -> None:
    # RULES E8: an unknown DC cannot be aimed at; 27 pips would meet 20, the bot banks
    run = interval(
        ("p2", "alice", "[abstract: Athletics +16 on Find the key]"),
        dice={("p2", 0): pool(19, 6, 6, 6, 6, 1, 1, 1)},
        setup=SECRET,
    )
    r = run.records()["Aria"]
    assert (r.pips_paid, r.banked_dice, r.bank, r.dc, r.outcome) == (
        0,
        (6, 6, 6),
        18,
        None,
        "success",
    )
    assert run.done_by("Find the key") is None


def test_spend_beyond_the_dice_and_the_bank_is_void_and_pays_nothing() -> None:
    # SPEC §2.2 `spend N`: 1 + 2 dice and a bank of 12 cannot pay 20: nothing is paid
    run = _bank_example().post(
        ("p5", "alice", "[abstract: Athletics +0 on Breach the gate, spend 20]"),
        ("c2", "gm_sam", "!close"),
    )
    r = run.records(2)["Aria"]
    assert (r.outcome, r.reason) == ("void", "short_of_pips")
    assert (r.pips_paid, r.bank_used, r.banked, r.bank) == (0, 0, 0, 12)
    assert run.bank("Aria") == 12 and run.done_by("Breach the gate") is None
    assert ("the dice (3 pips) and the bank (12) could not pay what was asked; nothing was paid"
            in run.summaries[2])  # fmt: skip


def test_spend_all_pays_every_die_and_the_whole_bank() -> None:
    # SPEC §2.2 `spend all`; RULES E6: the bank is drawn in full, nothing is wasted
    run = _bank_example().post(
        ("p5", "alice", "[abstract: Athletics +0 on Breach the gate, spend all]"),
        ("c2", "gm_sam", "!close"),
    )
    r = run.records(2)["Aria"]
    assert (r.pips_paid, r.bank_used, r.wasted, r.bank, r.outcome) == (15, 12, 0, 0, "success")


# ---------------------------------------------------------------------------------------------
# Opposition, one action per interval, encounters, order (E9–E12)

OPPOSED = "!encounter abstract\n!task Breach the gate dc 10"


def test_gm_opposition_cancels_the_first_payment_toward_its_task() -> None:
    # RULES E9: the GM's 3 + 4 cancel 7 of Aria's 12 (5 < DC 10: failure); the close's
    # !oppose rolls before the tags posted earlier; Bram, after her, meets no opposition
    run = interval(
        ("p2", "alice", "[abstract: Athletics +4 on Breach the gate, spend 12]"),
        ("p3", "bob", "[abstract: Athletics +4 on Breach the gate]"),
        close="!oppose Breach the gate 2d6\n!close",
        dice={("close", "cmd", 1): [3, 4], ("p2", 0): pool(16, 6, 6, 1, 1),
              ("p3", 0): pool(16, 6, 4, 1, 1)},
        setup=OPPOSED,
    )  # fmt: skip
    aria, bram = run.records()["Aria"], run.records()["Bram"]
    assert (aria.pips_paid, aria.opposed, aria.outcome) == (12, 7, "failure")
    assert (bram.pips_paid, bram.opposed, bram.outcome) == (10, 0, "success")
    (opposition,) = run.opposition()
    assert (opposition.task, opposition.dice, opposition.pips) == ("Breach the gate", (3, 4), 7)
    summary = run.summaries[1]
    assert "*The GM opposes Breach the gate: 3, 4 = 7 pips" in summary
    assert "paid 12 (6+6), 7 cancelled by the GM vs DC 10: not enough, spent" in summary
    assert "`close·cmd·1·0` d6 = 3; `close·cmd·1·1` d6 = 4; `p2·0·0` d20 = 16" in summary


def test_auto_pays_the_dc_plus_the_opposition_or_banks() -> None:
    # RULES E9: with 7 pips against DC 10, auto must pay 17; Aria's 16 pips (enough for the
    # DC alone) bank instead, leaving the opposition to Bram, whose 6 + 6 + 5 pay exactly 17
    run = interval(
        ("p2", "alice", "[abstract: Athletics +10 on Breach the gate]"),
        ("p3", "bob", "[abstract: Athletics +14 on Breach the gate]"),
        close="!oppose Breach the gate 2d6\n!close",
        dice={("close", "cmd", 1): [3, 4], ("p2", 0): pool(10, 5, 5, 5, 1),
              ("p3", 0): pool(16, 6, 6, 5, 1, 1, 1)},
        setup=OPPOSED,
    )  # fmt: skip
    aria, bram = run.records()["Aria"], run.records()["Bram"]
    assert (aria.pips_paid, aria.banked, aria.opposed) == (0, 10, 0)
    assert (bram.paid_dice, bram.pips_paid, bram.opposed, bram.wasted) == ((6, 6, 5), 17, 7, 0)
    assert (bram.outcome, run.done_by("Breach the gate")) == ("success", "Bram")


def test_one_skill_roll_and_one_reaction_die_per_character_per_interval() -> None:
    # RULES E10: a second [abstract:] or [reaction] is refused when read, in any post
    run = interval(
        ("p2", "alice", "[abstract: Athletics +4 on Breach the gate, bank] [reaction]"),
        ("p3", "alice", "[abstract: Stealth +2 on Breach the gate] [reaction]"),
        ("p4", "bob", "[abstract: Athletics +4 on Breach the gate, bank]"),
        dice={("p2", 0): pool(10, 3, 3), ("p2", 1): [4], ("p4", 0): pool(10, 3, 3)},
    )
    assert run.codes() == [("action_used", ""), ("action_used", "")]
    used = [
        (getattr(p, "slot", None), getattr(p, "by_post", None))
        for c in run.problems
        for p in c.problems
    ]
    assert used == [("abstract", "p2"), ("reaction", "p2")]
    verbs = [(e.post_id, e.record.actor, e.record.verb) for e in run.entries()]
    assert verbs == [("p2", "Aria", "reaction"), ("p2", "Aria", "abstract"),
                     ("p4", "Bram", "abstract")]  # fmt: skip


def test_a_new_abstract_encounter_has_no_tasks_but_keeps_every_bank() -> None:
    # RULES E11: the banks persist; `!encounter` closes the open round holding Aria's tag
    run = Run({("p2", 0): pool(17, 6, 6, 4, 2, 1), ("p4", 0): pool(5, 1, 2)}).post(
        ("p1", "gm_sam", "!encounter abstract interval 1 hour\n!task Breach the gate dc 10"),
        ("p2", "alice", "[abstract: Athletics +10 on Breach the gate, bank]"),
        ("p3", "gm_sam", "!encounter abstract interval 1 day\n!task Scale the wall dc 10"),
        ("p4", "alice", "[abstract: Athletics +0 on Scale the wall, spend 10]"),
        ("p5", "bob", "[abstract: Athletics +0 on Breach the gate]"),
        ("p6", "gm_sam", "!close"),
    )
    assert run.report(1).closed_by == "p3"
    assert run.state.slot(AbstractState).interval == timedelta(days=1)
    assert [t.name for t in run.state.slot(AbstractState).tasks] == ["Scale the wall"]
    r = run.records(2)["Aria"]
    assert (r.bank_used, r.outcome, r.bank) == (7, "success", 5)  # the old bank paid
    assert run.codes() == [("unknown_name", "")]  # Breach the gate went with its encounter


def test_banks_outlive_the_encounter_and_other_scenes() -> None:
    # RULES E11: `!encounter end` and a d20 scene keep the banks; a later encounter has them
    run = _bank_example().post(
        ("p3", "gm_sam", "!encounter end"),
        ("p4", "gm_sam", "!encounter d20"),
        ("p5", "gm_sam", "!encounter abstract\n!task Breach the gate dc 10"),
    )
    assert run.bank("Aria") == 12
    assert run.state.scene_kind is SceneKind.ABSTRACT
    assert run.task("Breach the gate") == Task(name="Breach the gate", dc=10)
    assert run.ledger()["characters"]["Aria"]["bank"] == 12


REACTING = (
    ("p2", "alice", "[reaction] [abstract: Athletics +10 on Breach the gate]"),
    ("p3", "bob", "[reaction] [abstract: Athletics +10 on Breach the gate]"),
)


@pytest.mark.parametrize(
    ("aria_die", "bram_die", "first", "second"),
    [([2], [6], "Bram", "Aria"), ([5], [1], "Aria", "Bram"), ([4, 2], [4, 5], "Bram", "Aria")],
)
def test_the_reaction_die_decides_who_completes_a_contested_task(
    aria_die: list[int], bram_die: list[int], first: str, second: str
) -> None:
    # RULES E12: highest Reaction Die acts first, ties re-rolled; the second finds the task
    # done, its action void and its dice unused
    run = interval(
        *REACTING,
        dice={("p2", 0): aria_die, ("p3", 0): bram_die,
              ("p2", 1): pool(10, 6, 6, 6, 6), ("p3", 1): pool(10, 6, 6, 6, 6)},
    )  # fmt: skip
    order = [(e.record.actor, e.record.verb) for e in run.entries()]
    assert order == [(first, "reaction"), (second, "reaction"), (first, "abstract"),
                     (second, "abstract")]  # fmt: skip
    won, lost = run.records()[first], run.records()[second]
    assert (won.outcome, won.completed) == ("success", True)
    assert (lost.outcome, lost.reason, lost.done_by) == ("void", "task_done", first)
    assert (lost.pips_paid, lost.banked, lost.bank) == (0, 0, 0)
    assert run.done_by("Breach the gate") == first
    reactions = {e.record.actor: e.record.dice for e in run.entries()
                 if e.record.verb == "reaction"}  # fmt: skip
    assert reactions == {"Aria": tuple(aria_die), "Bram": tuple(bram_die)}
    summary = run.summaries[1]
    assert f"| 1 | {first} | Reaction Die" in summary and "acts 1st" in summary
    assert ("(ties re-rolled)" in summary) == (len(aria_die) > 1)
    assert f"Breach the gate was already completed by {first}; the dice go unused" in summary


def test_characters_without_a_reaction_die_act_after_in_post_order() -> None:
    # RULES E12 (order matters): Bram rolled and goes first; Aria then Cora, as they posted
    run = interval(
        ("p2", "alice", "[abstract: Athletics +10 on Breach the gate, spend 1]"),
        ("p3", "cara", "[abstract: Athletics +10 on Breach the gate, spend 1, as Cora]"),
        ("p4", "bob", "[reaction] [abstract: Athletics +10 on Breach the gate, spend 1]"),
        dice={("p2", 0): pool(10, 1, 1, 1, 1), ("p3", 0): pool(10, 1, 1, 1, 1),
              ("p4", 0): [1], ("p4", 1): pool(10, 1, 1, 1, 1)},
    )  # fmt: skip
    assert [e.record.actor for e in run.entries()] == ["Bram", "Bram", "Aria", "Cora"]


# ---------------------------------------------------------------------------------------------
# Tasks (E13, E14) and personal banks (E15)


def test_a_task_dc_must_be_the_gms_number() -> None:
    # RULES E13: no difficulty words, no table: `dc hard` is refused and no task is made
    run = Run().post(("p1", "gm_sam", "!encounter abstract\n!task Breach the gate dc hard"))
    assert run.codes() == [("bad_command_arguments", "")]
    (problem,) = run.problems[0].problems
    assert (getattr(problem, "found", None), getattr(problem, "expected", None)) == (
        "hard",
        "a number from 1 to 9999",
    )
    assert run.state.slot(AbstractState).tasks == ()


def test_naming_a_task_again_changes_its_dc_or_reveals_it() -> None:
    # RULES E13: the GM's number, changed at will; the new DC applies to later payments
    run = interval(
        ("p2", "gm_sam", "!task find the key dc 12"),
        ("p3", "alice", "[abstract: Athletics +4 on Find the key]"),
        dice={("p3", 0): pool(11, 5, 5, 5)},
        setup=SECRET,
    )
    assert run.task("Find the key") == Task(name="Find the key", dc=12, done_by="Aria")
    r = run.records()["Aria"]
    assert (r.pips_paid, r.dc, r.dc_secret, r.outcome) == (15, 12, False, "success")


def test_meeting_the_dc_marks_the_task_done_and_later_tags_are_refused() -> None:
    # RULES E14: the task is done; the summary says so; a new tag on it is refused when read
    run = interval(
        ("p2", "alice", "[abstract: Athletics +4 on Breach the gate]"),
        dice={("p2", 0): pool(11, 5, 5, 5)},
        setup="!encounter abstract\n!task Breach the gate dc 12\n!task Find the key dc 30",
    ).post(("p5", "bob", "[abstract: Athletics +4 on Breach the gate]"))
    summary = run.summaries[1]
    assert "vs DC 12: **done**" in summary
    assert "**Tasks:** Breach the gate (DC 12, done by Aria) · Find the key (DC 30)" in summary
    # the task done has no odds; the one nobody worked on has them (RULES §7, issue 26)
    assert "on Breach the gate (bank" not in summary
    assert "- Aria on Find the key (bank 0):" in summary
    assert run.codes() == [("abstract_rule", "task_done")]
    (problem,) = run.problems[0].problems
    assert (getattr(problem, "task", None), getattr(problem, "by", None)) == (
        "Breach the gate",
        "Aria",
    )
    text = run.replies.render(run.problems[0], state=run.state)
    assert "Breach the gate was already completed by Aria, so this roll" in text
    tasks = run.ledger()["rounds"][0]["abstract"]["tasks"]
    assert tasks[0] == {"name": "Breach the gate", "dc": 12, "secret": False, "done_by": "Aria"}


def test_banks_are_personal_and_never_pay_for_another_character() -> None:
    # RULES E15: Aria's 12 banked pips cannot make up Bram's shortfall
    run = _bank_example().post(
        ("p6", "bob", "[abstract: Athletics +0 on Breach the gate, spend 10]"),
        ("c2", "gm_sam", "!close"),
    )
    r = run.records(2)["Bram"]
    assert (r.outcome, r.reason, r.bank_used, r.bank) == ("void", "short_of_pips", 0, 0)
    assert (run.bank("Aria"), run.bank("Bram")) == (12, 0)


# ---------------------------------------------------------------------------------------------
# Commands: where `!task` and `!oppose` act, `!undo`


def test_encounter_and_tasks_in_one_post_set_up_the_new_scene() -> None:
    # SPEC §2.5: set-up written below `!encounter` acts in the new scene
    run = Run().post(
        ("p1", "gm_sam", "!encounter abstract interval 1 hour\n!task Breach the gate dc 20\n"
                         "!task Find the key dc 30 secret"),
        ("p2", "alice", "[abstract: Athletics +4 on Find the key, bank]"),
    )  # fmt: skip
    assert run.codes() == []
    assert run.state.scene_kind is SceneKind.ABSTRACT
    assert run.state.slot(AbstractState).tasks == (
        Task(name="Breach the gate", dc=20),
        Task(name="Find the key", dc=30, secret=True),
    )
    assert run.state.round is not None and run.state.round.has_actions


def test_E9_oppose_in_the_post_that_starts_the_encounter_opposes_its_first_interval() -> None:
    # RULES E9: an `!oppose` below `!encounter` is checked against the new scene (the task
    # set up above it) and opposes the new encounter's first interval, not the next one
    run = Run().post(
        ("p1", "gm_sam", "!encounter abstract interval 1 hour\n!task Breach the gate dc 20\n"
                         "!oppose Breach the gate 2d6"),
        ("p2", "alice", "[abstract: Athletics +4 on Breach the gate]"),
        ("c1", "gm_sam", "!close"),
        ("p3", "alice", "[abstract: Athletics +4 on Breach the gate]"),
        ("c2", "gm_sam", "!close"),
    )  # fmt: skip
    assert run.codes() == []
    (opposition,) = run.opposition(1)
    assert (opposition.post_id, opposition.task) == ("p1", "Breach the gate")
    assert run.opposition(2) == ()


@pytest.mark.parametrize("scene", ["", "!encounter d20\n"])
def test_task_and_oppose_outside_an_abstract_scene_are_refused(scene: str) -> None:
    # SPEC §2.5: tasks and opposition belong to an abstract encounter (here distat, d20)
    run = Run().post(("p1", "gm_sam", f"{scene}!task Breach the gate dc 20"))
    run.post(("p2", "gm_sam", "!oppose Breach the gate 2d6"))
    assert run.codes() == [("abstract_rule", "not_abstract")] * 2
    assert run.state.slot(AbstractState).tasks == ()


@pytest.mark.parametrize(
    ("skill", "accepted"),
    [("Athletics", False), ("warfare", True), ("Spellcraft", True), ("Profession (Siege)", False)],
)
def test_a_bailiwick_roll_needs_one_of_the_six_bailiwick_skills(skill: str, accepted: bool) -> None:
    # RULES §2.1 [SRC Bailiwick]: Divinity, Naturalism, Reason, Spellcraft, Spycraft, Warfare
    run = interval(
        ("p2", "alice", f"[abstract: {skill} +4 on Breach the gate, bailiwick]"),
        dice={("p2", 0): pool(10, 2, 2)},
    )
    if accepted:
        assert run.codes() == [] and run.records()["Aria"].divisor == 10
    else:
        assert run.codes() == [("abstract_rule", "not_bailiwick")]
        assert run.records() == {}


def test_undo_restores_the_banks_and_completed_tasks_of_the_interval() -> None:
    # SPEC §2.5 `!undo`: round 2 drew 7 banked pips and completed the task; undone, the bank
    # is 12 again and the task open; a task set up since the close still stands
    run = _bank_example().post(
        ("p5", "alice", "[abstract: Athletics +0 on Breach the gate, spend 10]"),
        ("c2", "gm_sam", "!close"),
        ("p7", "gm_sam", "!task Scale the wall dc 8"),
    )
    assert (run.bank("Aria"), run.done_by("Breach the gate")) == (5, "Aria")
    run.post(("p8", "gm_sam", "!undo"))
    assert sorted(run.reports) == [1] and run.state.round is not None  # round 2 re-opened
    assert run.state.round.number == 2
    assert run.bank("Aria") == 12
    assert [(t.name, t.done_by) for t in run.state.slot(AbstractState).tasks] == [
        ("Breach the gate", None),
        ("Scale the wall", None),
    ]
    run.post(("c3", "gm_sam", "!close"))  # closed again, the same dice give the same result
    assert run.records(2)["Aria"].bank == 5 and run.bank("Aria") == 5


# ---------------------------------------------------------------------------------------------
# What the ledger and the summary show (SPEC §5, §4 step 5)

SPEC_KEYS = ("roll", "bonus", "result", "divisor", "dice", "pips_paid", "bank_used", "banked",
             "bank", "wasted", "dc")  # fmt: skip


def test_the_ledger_carries_the_spec_keys_of_each_abstract_action() -> None:
    # SPEC §5: RULES E5's bank and E7's overpayment, as the ledger records them
    run = interval(
        ("p2", "alice", "[abstract: Athletics +10 on Breach the gate, bank]"),
        ("p3", "bob", "[abstract: Athletics +4 on Breach the gate]"),
        ("p4", "cara", "[abstract: Athletics +4 on Breach the gate, bailiwick, as Cora]"),
        dice={("p2", 0): pool(17, 6, 6, 4, 2, 1), ("p3", 0): pool(11, 5, 5, 5)},
        setup="!encounter abstract\n!task Breach the gate dc 12",
    )
    book = run.ledger()
    aria, bram = book["rounds"][0]["actions"]
    assert {k: aria[k] for k in SPEC_KEYS} == {
        "roll": 17, "bonus": 10, "result": 27, "divisor": 5, "dice": [6, 6, 4, 2, 1],
        "pips_paid": 0, "bank_used": 0, "banked": 12, "bank": 12, "wasted": 0, "dc": None,
    }  # fmt: skip
    assert {k: bram[k] for k in SPEC_KEYS} == {
        "roll": 11, "bonus": 4, "result": 15, "divisor": 5, "dice": [5, 5, 5],
        "pips_paid": 15, "bank_used": 0, "banked": 0, "bank": 0, "wasted": 3, "dc": 12,
    }  # fmt: skip
    assert [(a["post"], a["actor"], a["verb"], a["outcome"]) for a in (aria, bram)] == [
        ("p2", "Aria", "abstract", "success"),
        ("p3", "Bram", "abstract", "success"),
    ]
    assert [r["key"] for r in bram["rolls"]] == [["p3", 0]] * 4
    (rejected,) = book["rejected"]
    assert (rejected["post"], rejected["code"]) == ("p4", "abstract_rule")
    assert book["rounds"][0]["abstract"]["banks"] == {"Aria": 12, "Bram": 0}


def test_a_void_action_names_its_reason_in_the_ledger() -> None:
    # SPEC §5: a void action has a reason; the rules' code is kept as `because`
    run = interval(*REACTING, dice={
        ("p2", 0): [6], ("p3", 0): [1], ("p2", 1): pool(10, 6, 6, 6, 6),
        ("p3", 1): pool(10, 6, 6, 6, 6),
    })  # fmt: skip
    bram = run.ledger()["rounds"][0]["actions"][-1]
    assert (bram["actor"], bram["outcome"], bram["because"]) == ("Bram", "void", "task_done")
    assert bram["reason"] == ("Breach the gate was already completed by Aria; "
                              "the dice go unused")  # fmt: skip


def _percent(p: float) -> str:
    return "<1%" if 0 < p < 0.01 else ">99%" if 0.99 < p < 1 else f"{round(p * 100)}%"


def test_the_summary_shows_the_banks_and_the_odds_of_finishing_an_open_task() -> None:
    # SPEC §2.2: banked pips and the exact chance of finishing within 1, 3 and 5 intervals
    run = interval(
        ("p2", "alice", "[abstract: Athletics +10 on Breach the gate, bank]"),
        dice={("p2", 0): pool(17, 6, 6, 4, 2, 1)},
        setup="!encounter abstract\n!task Breach the gate dc 40",
    )
    odds = completion_odds(dc=40, bank=12, modifier=10, source="skill", intervals=(1, 3, 5))
    assert 0 < odds[0] < odds[1] < odds[2] < 1
    abstract = run.report().parts.get(AbstractReport)
    assert abstract is not None
    (outlook,) = abstract.outlook
    assert (outlook.character, outlook.bank, outlook.odds) == (
        "Aria",
        12,
        tuple(zip((1, 3, 5), odds, strict=True)),
    )
    summary = run.summaries[1]
    assert "**Banked pips:** Aria 12" in summary
    p1, p3, p5 = (_percent(float(p)) for p in odds)
    assert (f"- Aria on Breach the gate (bank 12): {p1} within 1 interval, {p3} within 3 "
            f"intervals, {p5} within 5 intervals\n") in summary  # fmt: skip
    ledger_odds = run.ledger()["rounds"][0]["abstract"]["outlook"][0]["odds"]
    assert ledger_odds == {"1": float(odds[0]), "3": float(odds[1]), "5": float(odds[2])}


@pytest.mark.parametrize(("visibility", "shown"), [("hide-npcs", "?"), ("open", "20")])
def test_a_secret_dc_is_hidden_from_the_summary_under_hide_npcs(
    visibility: str, shown: str
) -> None:
    # SPEC §4 step 5: secret DCs are hidden in what players see; the GM's ledger keeps them
    run = interval(
        ("p2", "alice", "[abstract: Athletics +4 on Find the key, spend 10]"),
        dice={("p2", 0): pool(16, 5, 5, 1, 1)},
        setup=SECRET,
        campaign=make_campaign(visibility),
    )
    summary = run.summaries[1]
    assert f"paid 10 (5+5) vs DC {shown}: not enough, spent" in summary
    assert f"**Tasks:** Find the key (DC {shown})" in summary
    assert ("DC 20" in summary) == (visibility == "open")
    assert "Chance to finish" not in summary  # no odds on a DC nobody may know
    book = run.ledger()["rounds"][0]
    assert book["actions"][0]["dc"] == 20 and book["abstract"]["tasks"][0]["dc"] == 20


# ---------------------------------------------------------------------------------------------
# Acceptance invariants over random intervals, seeded dice (SPEC §5, §6)

TASKS = ("Breach the gate", "Find the key")
ACTORS = (("alice", "Aria", ""), ("bob", "Bram", ""), ("cara", "Cora", ", as Cora"))
SKILLS = {"skill": "Athletics", "bailiwick": "Warfare", "other": "Diplomacy", "spell": "spell"}
payments = st.one_of(
    st.sampled_from(["", ", auto", ", bank", ", spend all"]),
    st.integers(1, 25).map(lambda n: f", spend {n}"),
)
actions = st.tuples(
    st.sampled_from(TASKS),
    st.integers(-5, 30),
    st.sampled_from(sorted(SKILLS)),
    payments,
    st.booleans(),
)
intervals = st.tuples(
    st.tuples(*[st.none() | actions for _ in ACTORS]),
    st.none() | st.tuples(st.sampled_from(TASKS), st.integers(1, 4)),
)
task_specs = st.tuples(*[st.tuples(st.integers(1, 40), st.booleans()) for _ in TASKS])


def _tag(action: tuple[str, int, str, str, bool], as_name: str) -> str:
    task, modifier, source, payment, reaction = action
    skill = "spell" if source == "spell" else f"{SKILLS[source]} {modifier:+d}"
    kind = f", {source}" if source in ("bailiwick", "other") else ""
    reacts = "[reaction] " if reaction else ""
    return f"{reacts}[abstract: {skill} on {task}{kind}{payment}{as_name}]"


def _random_run(specs: Any, script: Any, seed: int) -> Run:
    setup = "!encounter abstract interval 1 hour\n" + "\n".join(
        f"!task {name} dc {dc}{' secret' if secret else ''}"
        for name, (dc, secret) in zip(TASKS, specs, strict=True)
    )
    run = Run(seed=f"s{seed}").post(("p1", "gm_sam", setup))
    for number, (moves, oppose) in enumerate(script, start=1):
        posts = [(f"i{number}{author}", author, _tag(action, as_name))
                 for (author, _, as_name), action in zip(ACTORS, moves, strict=True)
                 if action is not None]  # fmt: skip
        gm = f"!oppose {oppose[0]} {oppose[1]}d6\n!close" if oppose else "!close"
        run.post(*posts, (f"i{number}gm", "gm_sam", gm))
    return run


def _check_record(r: AbstractRecord, before: int) -> None:
    """SPEC §5's invariants of one abstract action, given the actor's bank before it."""
    assert len(r.dice) == max(2, (r.result or 0) // (r.divisor or 1))  # RULES E1
    assert all(1 <= d <= 6 for d in r.dice)
    if r.outcome == "void":
        assert (r.pips_paid, r.bank_used, r.banked, r.bank) == (0, 0, 0, before)
        return
    assert r.pips_paid + r.banked <= sum(r.dice) + r.bank_used
    assert r.pips_paid == sum(r.paid_dice) + r.bank_used and r.banked == sum(r.banked_dice)
    assert len(r.banked_dice) == len(r.discarded_dice)  # RULES E5
    assert not Counter(r.paid_dice + r.banked_dice + r.discarded_dice) - Counter(r.dice)
    assert 0 <= r.bank_used <= before and r.bank == before - r.bank_used + r.banked >= 0
    assert 0 <= r.wasted <= r.pips_paid
    if r.dc is None:  # a bank
        assert (r.outcome, r.pips_paid) == ("success", 0)
    else:  # RULES E4, E9: success exactly when the payment less the GM's pips meets the DC
        assert r.completed == (r.outcome == "success") == (r.pips_paid - r.opposed >= r.dc)
    if r.outcome == "success" and r.dc is not None:
        assert r.pips_paid >= r.dc


@pytest.mark.slow
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(task_specs, st.lists(intervals, min_size=1, max_size=3), st.integers(0, 10**6))
def test_random_intervals_keep_the_payment_invariants_and_verify(
    specs: Any, script: Any, seed: int
) -> None:
    run = _random_run(specs, script, seed)
    banks: dict[str, int] = {}
    completed: dict[str, str] = {}
    for number in sorted(run.reports):
        report = run.reports[number]
        if report.parts.get(AbstractReport) is None:
            continue
        for entry in report.parts.get(AbstractReport).entries:
            r = entry.record
            if r.verb == "abstract":
                event(f"{r.payment} {r.outcome} {r.reason or ''}{' opposed' if r.opposed else ''}")
                _check_record(r, banks.get(r.actor, 0))
                banks[r.actor] = r.bank
                if r.completed:
                    assert r.task not in completed  # RULES E14: a task completes once
                    completed[r.task or ""] = r.actor
        interval = report.parts.get(AbstractReport)
        for o in interval.opposition:  # RULES E9: no more cancelled than rolled
            cancelled = sum(e.record.opposed for e in interval.entries
                            if e.record.task == o.task)  # fmt: skip
            assert cancelled <= o.pips
        assert all(banks[name] == pips for name, pips in report.parts.get(AbstractReport).banks)
        # SPEC §6: every roll is listed, and `pbp verify` recomputes it from the summary
        checked = verify_text(run.summaries[report.number])
        assert checked.ok, checked.lines()
        assert len(checked.rounds[0].rolls) == len(all_rolls(report.parts.get(AbstractReport)))
    tasks = run.state.slot(AbstractState).tasks
    assert {t.name: t.done_by for t in tasks if t.done_by} == completed
