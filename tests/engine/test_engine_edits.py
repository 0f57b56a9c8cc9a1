"""Edits and deletes of posts: before the close they count, after it they change nothing."""

from __future__ import annotations

from engine_helpers import ledger, play, thread
from thread_run import actions_of, characters_of

from pbp.engine.effects import EditReply, Reply
from pbp.engine.post_contents import FixedContent, ProblemsContent

SETUP = ("post", "p1", "gm_sam", 1, "The goblin snarls.\n!group Aria, Goblin")


def test_typo_fixed_by_an_edit_before_the_close_acts_and_its_error_reply_says_fixed() -> None:
    run = play([
        SETUP,
        ("post", "p2", "alice", 2, "Aria lunges. [phisical: attack Goblin]"),
        ("edit", "p2", None, 3, "Aria lunges. [physical: attack Goblin]"),
        ("post", "p3", "gm_sam", 4, "!close"),
    ])  # fmt: skip
    first = [e for e in run.per_event[1] if isinstance(e, Reply)]
    assert [(e.key, e.to) for e in first] == [("problems-p2", "p2")]
    assert isinstance(first[0].content, ProblemsContent)
    assert first[0].content.problems[0].code == "verb_typo"
    fixed = [e for e in run.effects if isinstance(e, EditReply) and e.key == "problems-p2"]
    assert fixed and isinstance(fixed[-1].content, FixedContent)
    report = run.closed(1)
    assert [(a.post_id, a.record.actor, a.record.outcome) for a in actions_of(report)] == [
        ("p2", "Aria", "success")
    ]
    assert all(r.post_id != "p2" for r in report.rejected)


def test_fixed_typo_is_not_in_the_ledger_rejected_list() -> None:
    run = thread([
        SETUP,
        ("post", "p2", "alice", 2, "[phisical: attack Goblin]"),
        ("edit", "p2", None, 3, "[physical: attack Goblin]"),
        ("post", "p3", "gm_sam", 4, "!close"),
    ])  # fmt: skip
    data = ledger(run)
    assert data["rejected"] == []
    assert run.posted["problems-p2"].edits >= 1
    assert "fixed" in run.posted["problems-p2"].text.lower()


def test_typo_left_unfixed_stays_rejected_at_the_close() -> None:
    run = thread([
        SETUP,
        ("post", "p2", "alice", 2, "[phisical: attack Goblin]"),
        ("post", "p3", "gm_sam", 4, "!close"),
    ])  # fmt: skip
    data = ledger(run)
    rejected = [(r["post"], r["tag"]) for r in data["rejected"]]
    assert rejected == [("p2", "[phisical: attack Goblin]")]
    assert data["rounds"][0]["actions"] == []


def test_post_deleted_before_the_close_acts_as_if_never_made() -> None:
    run = play([
        SETUP,
        ("post", "p2", "alice", 2, "Aria strikes! [physical: attack Goblin]"),
        ("delete", "p2", None, 3),
        ("post", "p3", "gm_sam", 4, "!close"),
    ])  # fmt: skip
    report = run.closed(1)
    assert actions_of(report) == ()
    assert "Aria" in report.not_acted
    goblin = next(c for c in characters_of(report) if c.name == "Goblin")
    assert goblin.body.damage == 0
    # the text is purged from everything the state keeps
    assert "Aria strikes" not in repr(run.state)


def test_deleted_post_frees_the_action_for_a_later_post() -> None:
    run = play([
        SETUP,
        ("post", "p2", "alice", 2, "[physical: attack Goblin]"),
        ("delete", "p2", None, 3),
        ("post", "p3", "alice", 4, "[physical: attack Goblin]"),
        ("post", "p4", "gm_sam", 5, "!close"),
    ])  # fmt: skip
    assert [a.post_id for a in actions_of(run.closed(1))] == ["p3"]
    assert run.closed(1).rejected == ()


def test_edit_after_the_close_changes_nothing_and_is_flagged_in_ledger_and_next_summary() -> None:
    run = thread([
        SETUP,
        ("post", "p2", "alice", 2, "[physical: attack Goblin]"),
        ("post", "p3", "gm_sam", 3, "!close"),
        ("edit", "p2", None, 4, "[mental: attack Ogre]"),
        ("post", "p4", "gm_sam", 5, "!close"),
    ])  # fmt: skip
    data = ledger(run)
    first, second = data["rounds"][0], data["rounds"][1]
    assert [(a["actor"], a["verb"], a["target"]) for a in first["actions"]] == [
        ("Aria", "physical", "Goblin")
    ]
    assert second["actions"] == []
    assert data["characters"]["Ogre"]["mind"]["damage"] == 0
    assert second["edited_after_resolution"] == ["p2"]
    assert "edited after resolution" in run.summaries[2].lower()
    assert "p2" in run.summaries[2]
    assert "edited after resolution" not in run.summaries[1].lower()


def test_delete_after_the_close_changes_nothing() -> None:
    run = play([
        SETUP,
        ("post", "p2", "alice", 2, "[physical: attack Goblin]"),
        ("post", "p3", "gm_sam", 3, "!close"),
        ("delete", "p2", None, 4),
    ])  # fmt: skip
    assert [a.post_id for a in actions_of(run.closed(1))] == ["p2"]
    goblin = next(c for c in characters_of(run.closed(1)) if c.name == "Goblin")
    assert goblin.body.damage == 1


def test_editing_a_command_line_later_does_nothing() -> None:
    run = play([
        ("post", "p1", "gm_sam", 1, "Scene set."),
        ("edit", "p1", None, 2, "Scene set.\n!close"),
    ])  # fmt: skip
    assert run.state.closed == ()
