"""Closing rounds: `!close`, deadlines, reminders, `!undo` and `!void`."""

from __future__ import annotations

from engine_helpers import CAMPAIGN_TOML, at, event_of, ledger, make_campaign, play, thread
from thread_run import actions_of, characters_of

from pbp.campaign.loader import parse_campaign
from pbp.engine.effects import AllActedContent, EditReply, ReminderContent, UndoneContent
from pbp.engine.post_contents import ProblemsContent

GROUP = ("post", "p1", "gm_sam", 1, "!group Aria, Goblin")


def test_close_acts_after_the_posts_own_tags_wherever_it_stands() -> None:
    body = "!close\nThe goblin lashes out. [physical: attack Aria | as Goblin]"
    run = play([GROUP, ("post", "p2", "gm_sam", 2, body)])
    report = run.closed(1)
    assert report.closed_by == "p2"
    assert [(a.post_id, a.record.actor) for a in actions_of(report)] == [("p2", "Goblin")]
    assert run.state.round is not None and run.state.round.posts == ()


def test_gm_posts_without_a_close_do_not_end_the_round() -> None:
    run = play([
        GROUP,
        ("post", "p2", "alice", 2, "[physical: attack Goblin]"),
        ("post", "p3", "gm_sam", 3, "The cave grows dark. Anyone hear that?"),
        ("post", "p4", "gm_sam", 4, "[mental: attack Bram | as Goblin]"),
    ])  # fmt: skip
    assert run.state.closed == ()
    assert run.state.round is not None and run.state.round.number == 1


def test_deadline_tick_closes_a_round_in_which_someone_acted() -> None:
    run = thread([
        ("post", "p1", "gm_sam", 0, "!deadline 48h"),
        ("post", "p2", "bob", 10, "[mental: attack Goblin]"),
        ("tick", None, None, 48 * 60 + 1),
    ])  # fmt: skip
    rounds = ledger(run)["rounds"]
    assert rounds[0]["closed_by"] == "deadline"
    assert rounds[0]["closed_at"] == at(48 * 60).isoformat()
    assert [a["actor"] for a in rounds[0]["actions"]] == ["Bram"]
    assert rounds[1]["closed_by"] is None
    assert rounds[1]["deadline"] == at(96 * 60).isoformat()


def test_round_in_which_no_one_acted_waits_for_the_gm_past_its_deadline() -> None:
    run = play([
        ("post", "p1", "gm_sam", 0, "!deadline 48h"),
        ("tick", None, None, 50 * 60),
        ("post", "p2", "gm_sam", 51 * 60, "Still waiting."),
        ("tick", None, None, 100 * 60),
    ])  # fmt: skip
    assert run.state.closed == ()
    run.feed([("post", "p3", "gm_sam", 101 * 60, "!close")])
    assert run.closed(1).closed_by == "p3"


def test_post_past_the_deadline_first_closes_the_overdue_round() -> None:
    run = play([
        GROUP,
        ("post", "p2", "gm_sam", 2, "!deadline 2h"),
        ("post", "p3", "alice", 10, "[physical: attack Goblin]"),
        ("post", "p4", "bob", 3 * 60, "[mental: attack Goblin]"),
    ])  # fmt: skip
    assert run.closed(1).closed_by == "deadline"
    assert [a.post_id for a in actions_of(run.closed(1))] == ["p3"]
    assert run.state.round is not None and [p.post_id for p in run.state.round.posts] == ["p4"]


def test_half_time_reminder_mentions_the_missing_players_once() -> None:
    run = play([
        ("post", "p1", "gm_sam", 0, "!deadline 48h"),
        ("post", "p2", "alice", 10, "[mental: attack Goblin]"),
        ("tick", None, None, 23 * 60),
        ("tick", None, None, 24 * 60 + 1),
        ("tick", None, None, 30 * 60),
    ])  # fmt: skip
    reminders = run.contents(ReminderContent)
    assert len(reminders) == 1
    assert set(reminders[0].players) == {"bob", "cara"}
    assert set(reminders[0].characters) == {"Bram", "Cora", "Dax"}
    assert reminders[0].deadline == at(48 * 60)


def test_half_time_reminder_mentions_at_most_three_players_per_comment() -> None:
    extra = "".join(
        f'\n[[characters]]\nname = "Hero{i}"\nplayer = "player{i}"\nbody = 2\nmind = 2\n'
        for i in range(4)
    )
    base = make_campaign()
    campaign = parse_campaign(CAMPAIGN_TOML.format(visibility="open") + extra, path="t.toml")
    assert len(campaign.characters) == len(base.characters) + 4
    run = play([("post", "p1", "gm_sam", 0, "!deadline 2h"), ("tick", None, None, 61)],
               campaign=campaign)  # fmt: skip
    reminders = run.contents(ReminderContent)
    mentioned = [p for r in reminders for p in r.players]
    assert all(len(r.players) <= 3 for r in reminders)
    assert sorted(mentioned) == sorted({"alice", "bob", "cara", *(f"player{i}" for i in range(4))})
    assert len(mentioned) == len(set(mentioned))


def test_gm_is_told_once_when_every_character_has_acted() -> None:
    run = play([
        ("post", "p1", "alice", 1, "[mental: attack Goblin]"),
        ("post", "p2", "bob", 2, "[mental: attack Goblin]"),
        ("post", "p3", "cara", 3, "[mental: attack Ogre | as Cora]"),
    ])  # fmt: skip
    assert run.contents(AllActedContent) == []  # Dax has not acted yet
    run.feed([
        ("post", "p4", "cara", 4, "[mental: attack Ogre | as Dax]"),
        ("post", "p5", "alice", 5, "[move: Ogre]"),
    ])  # fmt: skip
    told = run.contents(AllActedContent)
    assert len(told) == 1 and told[0].gms == ("gm_sam",)


def test_undo_reopens_the_last_closed_round_and_reverts_its_results() -> None:
    run = thread([
        GROUP,
        ("post", "p2", "alice", 2, "[physical: attack Goblin]"),
        ("post", "p3", "gm_sam", 3, "!close"),
        ("post", "p4", "gm_sam", 4, "Oops, wrong round.\n!undo"),
    ])  # fmt: skip
    assert run.state.closed == ()
    assert run.state.round is not None and run.state.round.number == 1
    data = ledger(run)
    assert data["characters"]["Goblin"]["body"]["damage"] == 0
    assert [r["number"] for r in data["rounds"]] == [1]
    assert run.posted["summary-1"].edits == 1
    assert "undone" in run.posted["summary-1"].text.lower()
    run.feed(event_of(("post", "p5", "gm_sam", 5, "!close")))
    again = ledger(run)
    assert [a["post"] for a in again["rounds"][0]["actions"]] == ["p2"]
    assert again["characters"]["Goblin"]["body"]["damage"] == 1


def test_undo_is_refused_when_the_open_round_has_actions() -> None:
    run = play([
        GROUP,
        ("post", "p2", "alice", 2, "[physical: attack Goblin]"),
        ("post", "p3", "gm_sam", 3, "!close"),
        ("post", "p4", "bob", 4, "[mental: attack Goblin]"),
        ("post", "p5", "gm_sam", 5, "!undo"),
    ])  # fmt: skip
    assert len(run.state.closed) == 1
    assert not any(isinstance(e.content, UndoneContent) for e in run.effects)
    assert [p.code for p in run.problems_said("p5")] == ["cannot_undo"]


def test_void_strikes_a_post_of_the_open_round() -> None:
    run = play([
        GROUP,
        ("post", "p2", "alice", 2, "[physical: attack Goblin]"),
        ("post", "p3", "gm_sam", 3, "!void p2"),
        ("post", "p4", "alice", 4, "[mental: attack Goblin]"),
        ("post", "p5", "gm_sam", 5, "!close"),
    ])  # fmt: skip
    report = run.closed(1)
    assert [(a.post_id, a.record.verb) for a in actions_of(report)] == [("p4", "mental")]
    goblin = next(c for c in characters_of(report) if c.name == "Goblin")
    assert goblin.body.damage == 0


def test_void_of_an_unknown_post_is_refused_with_a_reply() -> None:
    run = play([("post", "p1", "gm_sam", 1, "!void nope")])
    assert [p.code for c in run.contents(ProblemsContent) for p in c.problems] == ["no_such_post"]


def test_undone_summary_is_an_edit_of_the_original_reply() -> None:
    run = play([
        GROUP,
        ("post", "p2", "alice", 2, "[physical: attack Goblin]"),
        ("post", "p3", "gm_sam", 3, "!close"),
        ("post", "p4", "gm_sam", 4, "!undo"),
    ])  # fmt: skip
    edits = [e for e in run.effects if isinstance(e, EditReply) and e.key == "summary-1"]
    assert len(edits) == 1 and isinstance(edits[0].content, UndoneContent)


def test_a_deadline_in_the_past_is_refused_with_the_reason() -> None:
    run = play([
        ("post", "p1", "gm_sam", 0, "!deadline 2020-01-01 00:00 UTC"),
        ("post", "p2", "bob", 10, "[mental: attack Goblin]"),
        ("tick", None, None, 20),
    ])  # fmt: skip
    assert run.state.closed == () and run.state.round is not None
    assert run.state.round.deadline is None
    [problems] = run.contents(ProblemsContent)
    [problem] = problems.problems
    assert (problem.code, problem.found) == ("bad_command_arguments", "2020-01-01 00:00 UTC")
    assert problem.expected == "a time after this post (2026-11-29 10:00 UTC)"


def test_a_deadline_missed_while_the_bot_was_stopped_gives_the_next_round_its_whole_time() -> None:
    run = thread([
        ("post", "p1", "gm_sam", 0, "!deadline 48h"),
        ("post", "p2", "bob", 10, "[mental: attack Goblin]"),
        ("tick", None, None, 60 * 60),  # noticed 12 hours late
    ])  # fmt: skip
    rounds = ledger(run)["rounds"]
    assert rounds[0]["closed_at"] == at(48 * 60).isoformat()  # closed at its deadline
    assert rounds[1]["deadline"] == at(60 * 60 + 48 * 60).isoformat()  # 48 h from now


def test_the_state_keeps_only_the_closed_rounds_undo_can_reach() -> None:
    rows = [GROUP]
    for number in range(1, 6):
        rows += [
            ("post", f"a{number}", "alice", number * 10, "[physical: attack Goblin]"),
            ("post", f"c{number}", "gm_sam", number * 10 + 1, "!close"),
        ]
    run = thread(rows)
    assert [c.report.number for c in run.state.closed] == [5]  # the store keeps rounds 1 to 4
    assert [r["number"] for r in ledger(run)["rounds"]] == [1, 2, 3, 4, 5, 6]


def test_undo_goes_back_through_rounds_without_actions() -> None:
    run = thread([
        GROUP,
        ("post", "p2", "alice", 2, "[physical: attack Goblin]"),
        ("post", "p3", "gm_sam", 3, "!close"),
        ("post", "p4", "gm_sam", 4, "Nothing happens.\n!close"),
        ("post", "p5", "gm_sam", 5, "!close"),
    ])  # fmt: skip
    assert [c.report.number for c in run.state.closed] == [1, 2, 3]
    run.feed(event_of(("post", "p6", "gm_sam", 6, "!undo")))
    run.feed(event_of(("post", "p7", "gm_sam", 7, "!undo")))
    run.feed(event_of(("post", "p8", "gm_sam", 8, "!undo")))
    assert run.state.closed == ()
    assert run.state.round is not None and run.state.round.number == 1
    assert ledger(run)["characters"]["Goblin"]["body"]["damage"] == 0
    run.feed(event_of(("post", "p9", "gm_sam", 9, "!undo")))  # nothing left to re-open
    assert run.state.round.number == 1
