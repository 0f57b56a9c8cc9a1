"""The summary's "What changed" says what happened: a bonus gives the new pool, a heal and a
damage their amount and what is left, a correction that puts someone out says so, the end of
an encounter each character's recovery, a restraint the rounds it really lasts."""

from __future__ import annotations

from engine_helpers import make_campaign, thread


def _changes(summary: str) -> list[str]:
    lines = summary.split("**What changed**", 1)[1].split("**", 1)[0]
    return [line for line in lines.splitlines() if line.startswith("- ")]


def test_a_bonus_says_the_new_pool() -> None:
    run = thread([("post", "p1", "gm_sam", 1, "!bonus Cora +1\n!bonus Aria -1\n!close")])
    assert _changes(run.summaries[1]) == [
        "- GM correction: Cora's bonus pool +1, now 1.",
        "- GM correction: Aria's bonus pool −1, now 1.",
    ]


def test_a_heal_says_its_amount_and_what_is_left() -> None:
    run = thread([
        ("post", "p1", "gm_sam", 1, "!damage Bram mind 2\n!close"),
        ("post", "p2", "gm_sam", 2, "!heal Bram mind 1\n!close"),
    ])  # fmt: skip
    assert _changes(run.summaries[2]) == [
        "- GM correction: Bram heals 1 Mind damage (Mind damage now 1).",
    ]


def test_a_gm_damage_that_puts_someone_out_says_so() -> None:
    run = thread(
        [("post", "p1", "gm_sam", 1, "!damage Goblin mind 1\n!damage Goblin body 4\n!close")],
        campaign=make_campaign("open"),
    )
    lines = _changes(run.summaries[1])
    assert lines[0].startswith(
        "- GM correction: Goblin takes 1 Mind damage (Mind damage now 1) and is at 0"
    )
    assert lines[1] == (
        "- GM correction: Goblin takes 4 Body damage (Body damage now 4) and is out of the fight."
    )


def test_under_hide_npcs_a_correction_keeps_the_npcs_numbers_but_says_it_is_out() -> None:
    rows = [("post", "p1", "gm_sam", 1, "!damage Goblin mind 1\n!damage Goblin body 4\n!close")]
    lines = _changes(thread(rows, campaign=make_campaign("hide-npcs")).summaries[1])
    assert lines[1] == "- GM correction: Goblin takes Body damage and is out of the fight."
    assert lines[0] == "- GM correction: Goblin takes Mind damage and is at 0: no Mind actions."


def test_the_end_of_an_encounter_says_each_characters_recovery() -> None:
    run = thread([
        ("post", "p1", "gm_sam", 1, "!damage Aria body 4\n!damage Aria mind 4\n!close"),
        ("post", "p2", "gm_sam", 2, "!encounter end rally Aria"),
    ])  # fmt: skip
    lines = _changes(run.summaries[2])
    assert lines == [
        "- The encounter is over: everyone takes a short rest.",
        "- Aria recovers 1 Body and 2 Mind damage (damage left: Body 3, Mind 2).",
    ]


def test_an_encounter_end_with_nothing_to_heal_says_so() -> None:
    run = thread([("post", "p1", "gm_sam", 1, "!encounter end")])
    assert _changes(run.summaries[1]) == [
        "- The encounter is over: everyone takes a short rest (nobody had damage to recover).",
    ]


def test_a_restraint_says_two_rounds_only_when_it_lasts_two() -> None:
    start = [
        ("post", "p1", "gm_sam", 1, "!group Aria, Goblin, Bram"),
        ("post", "p2", "alice", 2, "[physical: restrain Goblin]"),
    ]
    held = thread([*start, ("post", "p3", "gm_sam", 3, "!close")])
    assert "- Goblin is physically restrained by Aria (2 rounds)." in _changes(held.summaries[1])
    acted_after = thread([
        *start, ("post", "p3", "gm_sam", 3, "[mental: attack Bram | as Goblin]\n!close"),
    ])  # fmt: skip
    assert "- Goblin is physically restrained by Aria (this round only)." in _changes(
        acted_after.summaries[1]
    )
