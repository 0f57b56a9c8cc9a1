"""The thread as players see it: who is read, acknowledgements, the cheat-sheet, the summary."""

from __future__ import annotations

import itertools

from engine_helpers import BOT, ledger, make_campaign, play, thread
from thread_run import actions_of

from pbp.engine.effects import CheatSheetContent, Reply
from pbp.engine.post_contents import AckContent, ProblemsContent
from pbp.rules.dice.seal import seal as seal_of
from pbp.services.seeds import round_seeds

FIGHT = [
    ("post", "p1", "gm_sam", 1, "The goblin snarls.\n!group Aria, Goblin"),
    ("post", "p2", "alice", 2, "Aria lunges. [physical: attack Goblin]"),
    ("post", "p3", "bob", 3, "Bram glares. [mental: attack Goblin]"),
    ("post", "p4", "gm_sam", 4, "It swings back. [physical: attack Aria | as Goblin]\n!close"),
]


def test_bot_never_reads_its_own_posts() -> None:
    run = play([
        ("post", "p1", "gm_sam", 1, "!group Aria, Goblin"),
        ("post", "b1", BOT, 2, "Example: [physical: attack Goblin | as Aria]\n!close"),
        ("post", "b2", BOT.upper(), 3, "[phisical: attack Goblin]"),
    ])  # fmt: skip
    assert run.state.closed == ()
    assert run.contents(ProblemsContent) == []
    assert run.state.round is not None and [p.post_id for p in run.state.round.posts] == ["p1"]


def test_post_seen_twice_is_handled_once() -> None:
    post = ("post", "p2", "alice", 2, "[phisical: attack Goblin] [mental: attack Goblin]")
    run = play([post, post, ("post", "p3", "gm_sam", 3, "!close")])
    assert len(run.contents(ProblemsContent)) == 1
    assert [a.post_id for a in actions_of(run.closed(1))] == ["p2"]
    late = play([post, ("post", "p3", "gm_sam", 3, "!close"), post])
    assert len(late.state.closed) == 1 and late.state.round is not None
    assert late.state.round.posts == ()


def test_ack_none_lists_problems_in_the_summary_instead_of_replying() -> None:
    run = thread([
        ("post", "p1", "alice", 1, "[phisical: attack Goblin]"),
        ("post", "p2", "gm_sam", 2, "!close"),
    ], ack="none")  # fmt: skip
    assert not any(r.key.startswith("problems") for r in run.posted.values())
    assert "[phisical: attack Goblin]" in run.summaries[1]
    assert [r["post"] for r in ledger(run)["rejected"]] == ["p1"]


def test_ack_errors_replies_only_to_problems() -> None:
    run = play([
        ("post", "p1", "alice", 1, "[mental: attack Goblin]"),
        ("post", "p2", "bob", 2, "[mental: atack Goblin]"),
    ])  # fmt: skip
    replies = [e for e in run.effects if isinstance(e, Reply) and e.to is not None]
    assert [(e.to, type(e.content).__name__) for e in replies] == [("p2", "ProblemsContent")]


def test_ack_all_confirms_good_posts() -> None:
    run = play([("post", "p1", "alice", 1, "[mental: attack Goblin]")], ack="all")
    assert len(run.contents(AckContent)) == 1


def test_first_reply_is_the_cheat_sheet_with_each_players_characters_and_the_seal() -> None:
    run = thread([("post", "p1", "alice", 1, "Hello all!")], seed="7")
    first = next(iter(run.posted.values()))
    assert first.key == "cheatsheet" and first.to is None
    text = first.text
    for player, characters in {"alice": ["Aria"], "bob": ["Bram"], "cara": ["Cora", "Dax"]}.items():
        line = next(ln for ln in text.splitlines() if f"| {player} |" in ln)
        assert all(c in line for c in characters)
    assert seal_of(round_seeds("7")(1)) in text
    assert len(play([("post", "p1", "alice", 1, "hi")]).contents(CheatSheetContent)) == 1


def test_summary_shows_each_action_with_numbers_status_table_missing_players_and_deadline() -> None:
    rows = [("post", "p0", "gm_sam", 0, "!deadline 48h"), *FIGHT]
    run = thread(rows, campaign=make_campaign("open"))
    text = run.summaries[1]
    assert "Body 5 vs 3" in text and "Mind 4 vs 1" in text and "Body 2 vs 5" in text
    assert text.count("**success**") == 2 and "failure" in text
    for name in ("Aria", "Bram", "Cora", "Dax", "Goblin", "Ogre"):
        assert f"| {name} |" in text
    assert "Did not act:** Cora, Dax" in text
    assert "2026-12-01 10:04 UTC" in text  # round 2 opened at the close, 48 h later


def test_hide_npcs_hides_npc_numbers_in_the_summary_but_keeps_them_in_the_ledger() -> None:
    run = thread(FIGHT, campaign=make_campaign("hide-npcs"))
    text = run.summaries[1]
    assert "Body 5 vs ?" in text and "Mind 4 vs ?" in text and "Body ? vs 5" in text
    goblin_row = next(ln for ln in text.splitlines() if ln.startswith("| Goblin |"))
    assert "2/2" not in goblin_row and "?" in goblin_row
    data = ledger(run)
    goblin = next(a for a in data["rounds"][0]["actions"] if a["actor"] == "Goblin")
    assert (goblin["active"], goblin["passive"]) == (2, 5)
    assert data["characters"]["Goblin"]["body"]["eav"] == 2
    assert data["rounds"][0]["summary"] == text


def test_gm_corrections_are_one_line_each_and_hide_npc_amounts_under_hide_npcs() -> None:
    rows = [("post", "p1", "gm_sam", 1, "!damage Goblin body 2\n!damage Aria body 1\n!close")]
    hidden = thread(rows, campaign=make_campaign("hide-npcs")).summaries[1].splitlines()
    shown = thread(rows, campaign=make_campaign("open")).summaries[1].splitlines()
    assert "- GM correction: Goblin takes Body damage." in hidden
    assert "- GM correction: Aria takes 1 Body damage (Body damage now 1)." in hidden
    assert "- GM correction: Goblin takes 2 Body damage (Body damage now 2)." in shown


def test_open_visibility_shows_npc_numbers_in_the_summary() -> None:
    text = thread(FIGHT, campaign=make_campaign("open")).summaries[1]
    goblin_row = next(ln for ln in text.splitlines() if ln.startswith("| Goblin |"))
    assert "2/2" in goblin_row and "?" not in goblin_row


def test_summary_sections_are_separated_by_blank_lines() -> None:
    run = thread([
        ("post", "p1", "gm_sam", 1, "!group Aria, Goblin\n!damage Goblin body 1"),
        ("post", "p2", "bob", 2, "[physical: attack Ogre]"),
        ("post", "p3", "gm_sam", 3, "!close"),
    ])  # fmt: skip
    lines = run.summaries[1].splitlines()
    for before, line in itertools.pairwise(lines):
        if line.startswith("**"):
            assert before == "", f"no blank line before {line!r}"


def test_late_edit_flag_survives_an_undo_of_the_round_that_showed_it() -> None:
    run = thread([
        ("post", "p1", "alice", 1, "[mental: attack Goblin]"),
        ("post", "p2", "gm_sam", 2, "!close"),
        ("edit", "p1", None, 3, "[mental: attack Ogre]"),
        ("post", "p3", "gm_sam", 4, "!close"),
        ("post", "p4", "gm_sam", 5, "!undo"),
        ("post", "p5", "gm_sam", 6, "!close"),
    ])  # fmt: skip
    data = ledger(run)
    assert data["rounds"][1]["edited_after_resolution"] == ["p1"]
    assert "edited after resolution" in run.summaries[2].lower()


def _reply_to(body: str) -> str:
    run = thread([("post", "p0", "gm_sam", 0, "!npc Ogre Mage body 2 mind 2"),
                  ("post", "p1", "alice", 1, body)], campaign=make_campaign("open"))  # fmt: skip
    return str(run.posted["problems-p1"].text)


def test_verb_typo_reply_shows_the_players_own_tag_corrected() -> None:
    text = _reply_to("[phisical: attack Ogre Mage]")
    assert "physical" in text
    assert "`[physical: attack Ogre Mage]`" in text


def test_ambiguous_name_reply_example_keeps_the_players_verb() -> None:
    text = _reply_to("[mental: attack Og]")
    assert "Ogre Mage" in text and "For example" in text
    assert "[mental: attack" in text.split("For example", 1)[1]


def test_ack_none_does_not_reply_to_a_refused_closing_command() -> None:
    run = thread([("post", "p1", "gm_sam", 1, "!undo")], ack="none")
    assert not any(r.to == "p1" for r in run.posted.values())


def test_ack_none_lists_a_refused_closing_command_in_the_summary() -> None:
    run = thread(
        [("post", "p1", "gm_sam", 1, "!undo"), ("post", "p2", "gm_sam", 2, "!close")],
        ack="none",
    )
    assert not any(r.to == "p1" for r in run.posted.values())
    [summary] = [r for r in run.posted.values() if r.key.startswith("summary")]
    assert "`!undo` (p1)" in summary.text
