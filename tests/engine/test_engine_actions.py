"""Who may act for whom, what each character may do per round, and resolution in post order."""

from __future__ import annotations

from engine_helpers import ledger, play, thread
from thread_run import actions_of

from pbp.campaign.loader import parse_campaign
from pbp.engine.effects import EditReply
from pbp.engine.post_contents import ProblemsContent

GROUP = ("post", "p1", "gm_sam", 1, "!group Aria, Goblin")


def _codes(run, post_id: str) -> list[str]:  # type: ignore[no-untyped-def]
    """The problem codes of every error reply to ``post_id``."""
    return [p.code for e in run.effects if isinstance(e.content, ProblemsContent)
            and e.content.post_id == post_id for p in e.content.problems]  # fmt: skip


def test_player_acting_as_someone_elses_character_is_refused() -> None:
    run = play([GROUP, ("post", "p2", "alice", 2, "[mental: attack Goblin | as Bram]"),
                ("post", "p3", "gm_sam", 3, "!close")])  # fmt: skip
    assert _codes(run, "p2") == ["not_your_character"]
    assert actions_of(run.closed(1)) == ()


def test_player_with_two_characters_must_say_as_name() -> None:
    run = play([
        ("post", "p2", "cara", 2, "[mental: attack Goblin]"),
        ("post", "p3", "cara", 3, "[mental: attack Goblin | as Dax]"),
        ("post", "p4", "gm_sam", 4, "!close"),
    ])  # fmt: skip
    assert _codes(run, "p2") == ["need_as"]
    assert [(a.post_id, a.record.actor, a.on_behalf) for a in actions_of(run.closed(1))] == [
        ("p3", "Dax", False)
    ]


def test_gm_must_say_as_name_and_may_act_for_anyone_recorded_on_behalf() -> None:
    run = thread([
        GROUP,
        ("post", "p2", "gm_sam", 2, "[physical: attack Aria]"),
        ("post", "p3", "gm_sam", 3, "[physical: attack Aria | as Goblin]\n"
                                    "[mental: attack Goblin | as Bram]\n!close"),
    ])  # fmt: skip
    data = ledger(run)
    assert [r["code"] for r in data["rejected"]] == ["need_as"]
    acts = [(a["actor"], a["on_behalf"]) for a in data["rounds"][0]["actions"]]
    assert acts == [("Goblin", True), ("Bram", True)]


def test_second_physical_action_is_refused_naming_the_earlier_post() -> None:
    run = play([
        GROUP,
        ("post", "p2", "alice", 2, "[physical: attack Goblin]"),
        ("post", "p3", "alice", 3, "[physical: restrain Goblin]"),
        ("post", "p4", "gm_sam", 4, "!close"),
    ])  # fmt: skip
    problem = next(p for e in run.effects if isinstance(e.content, ProblemsContent)
                   and e.content.post_id == "p3" for p in e.content.problems)  # fmt: skip
    assert problem.code == "action_used"
    assert (problem.slot, problem.by_post) == ("physical", "p2")  # type: ignore[attr-defined]
    assert [a.post_id for a in actions_of(run.closed(1))] == ["p2"]


def test_one_move_one_physical_one_mental_per_round_all_act() -> None:
    run = play([
        ("post", "p2", "alice", 2,
         "[move: Goblin] [physical: attack Goblin] [mental: attack Ogre]"),
        ("post", "p3", "alice", 3, "[move: Ogre]"),
        ("post", "p4", "gm_sam", 4, "!close"),
    ])  # fmt: skip
    assert [a.record.verb for a in actions_of(run.closed(1))] == ["move", "physical", "mental"]
    assert _codes(run, "p3") == ["action_used"]


def test_pass_uses_every_action_of_the_round() -> None:
    run = play([
        ("post", "p2", "bob", 2, "Bram waits. [pass]"),
        ("post", "p3", "bob", 3, "[mental: attack Goblin]"),
        ("post", "p4", "gm_sam", 4, "!close"),
    ])  # fmt: skip
    report = run.closed(1)
    assert [(a.record.actor, a.record.verb, a.record.outcome) for a in actions_of(report)] == [
        ("Bram", "pass", "success")
    ]
    assert _codes(run, "p3") == ["action_used"]
    assert "Bram" not in report.not_acted


def test_physical_attack_on_someone_in_another_group_is_refused() -> None:
    run = play([("post", "p2", "bob", 2, "[physical: attack Goblin]"),
                ("post", "p3", "gm_sam", 3, "!close")])  # fmt: skip
    problem = run.closed(1).rejected[0].problem
    assert problem.code == "rule"
    assert problem.violation.code == "not_adjacent"  # type: ignore[attr-defined]
    assert actions_of(run.closed(1)) == ()


def test_move_then_physical_attack_in_one_post_is_accepted() -> None:
    run = play([("post", "p2", "bob", 2, "[move: Goblin] then [physical: attack Goblin]"),
                ("post", "p3", "gm_sam", 3, "!close")])  # fmt: skip
    report = run.closed(1)
    assert report.rejected == ()
    # Bram's Body 3 meets the Goblin's Body 3: a real check, not a void one
    assert [(a.record.verb, a.record.outcome, a.record.active, a.record.passive)
            for a in actions_of(report)] == [("move", "success", None, None),
                                         ("physical", "failure", 3, 3)]  # fmt: skip


def test_mental_attack_needs_no_shared_group() -> None:
    run = play([("post", "p2", "bob", 2, "[mental: attack Ogre]"),
                ("post", "p3", "gm_sam", 3, "!close")])  # fmt: skip
    assert [a.record.outcome for a in actions_of(run.closed(1))] == ["success"]


def test_action_of_an_actor_taken_out_earlier_in_the_round_is_void_with_a_reason() -> None:
    # Goblin has Mind 1: Bram's Mind 4 attack first puts it at 0; the GM's damage then puts
    # its Body below 0 (out), so the Goblin's later attack cannot happen.
    run = thread([
        GROUP,
        ("post", "p2", "bob", 2, "[mental: attack Goblin]"),
        ("post", "p3", "gm_sam", 3, "!damage Goblin body 4"),
        ("post", "p4", "gm_sam", 4, "[physical: attack Aria | as Goblin]\n!close"),
    ])  # fmt: skip
    actions = ledger(run)["rounds"][0]["actions"]
    goblin = next(a for a in actions if a["actor"] == "Goblin")
    assert goblin["outcome"] == "void"
    assert goblin["reason"] and "out" in goblin["reason"].lower()
    assert ledger(run)["characters"]["Aria"]["body"]["damage"] == 0


def test_resolution_follows_post_order_not_arrival_of_the_close() -> None:
    # Aria's attack comes first, so the Goblin (Body 3) is already hurt when it strikes back.
    run = play([
        GROUP,
        ("post", "p2", "alice", 2, "[physical: attack Goblin]"),
        ("post", "p3", "gm_sam", 3, "[physical: attack Aria | as Goblin]\n!close"),
    ])  # fmt: skip
    goblin = next(a for a in actions_of(run.closed(1)) if a.record.actor == "Goblin")
    assert (goblin.record.active, goblin.record.passive, goblin.record.outcome) == (2, 5, "failure")


def test_an_attack_on_a_target_declared_moving_away_earlier_is_refused_and_stays_so() -> None:
    # RULES §6: read against what earlier posts declared (Aria's move away); at the close
    # her Threatened check passes (Body 5 vs the Goblin's 3) and she is gone, so at its turn
    # the attack is still impossible: the refusal stands
    run = play([
        ("post", "p1", "gm_sam", 1, "!group Aria, Bram, Goblin"),
        ("post", "p2", "alice", 2, "[move: away]"),
        ("post", "p3", "gm_sam", 3, "[physical: attack Aria | as Goblin]\n!close"),
    ])  # fmt: skip
    report = run.closed(1)
    assert [a.record.verb for a in actions_of(report)] == ["move"]
    [refused] = report.rejected
    assert (refused.post_id, refused.problem.violation.code) == ("p3", "not_adjacent")


def test_an_action_refused_when_read_acts_if_it_is_valid_at_its_turn() -> None:
    # RULES §6: the close is authoritative. Aria declares a move away from the Ogre, so its
    # attack on her is refused when read; at the close her Threatened check fails (Body 5 vs
    # the Ogre's 6), she stays, and at its turn the attack is valid: it acts, and its error
    # reply is edited to say so
    run = play([
        ("post", "p1", "gm_sam", 1, "!group Aria, Ogre"),
        ("post", "p2", "alice", 2, "[move: away, body]"),
        ("post", "p3", "gm_sam", 3, "[physical: attack Aria | as Ogre]"),
        ("post", "p4", "gm_sam", 4, "!close"),
    ])  # fmt: skip
    assert [type(p).__name__ for p in run.state.closed[0].reopen.posts[2].problems] == [
        "RuleBroken"
    ]  # refused when it was read
    report = run.closed(1)
    move, attack = actions_of(report)
    assert (move.record.verb, move.record.outcome) == ("move", "failure")
    assert (attack.post_id, attack.record.outcome, attack.record.target) == (
        "p3",
        "success",
        "Aria",
    )
    assert report.rejected == ()
    edits = [e for e in run.effects if isinstance(e, EditReply) and e.key == "problems-p3"]
    assert [type(e.content).__name__ for e in edits] == ["ActedContent"]


def test_a_refused_action_whose_slot_another_accepted_tag_takes_does_not_act() -> None:
    run = play([
        ("post", "p1", "gm_sam", 1, "!group Aria, Ogre"),
        ("post", "p2", "alice", 2, "[move: away, body]"),
        ("post", "p3", "gm_sam", 3, "[physical: attack Aria | as Ogre]"),
        ("post", "p4", "gm_sam", 4, "[physical: feat vs 2 | as Ogre]\n!close"),
    ])  # fmt: skip
    report = run.closed(1)
    assert [a.post_id for a in actions_of(report)] == ["p2", "p4"]
    assert [r.post_id for r in report.rejected] == ["p3"]


SHAMAN = """
[campaign]
name = "Den"
gms = ["gm_sam"]

[[characters]]
name = "Cora"
player = "cara"
body = 2
mind = 6

[[characters]]
name = "Shaman"
body = 2
mind = 4

[[characters.talents]]
name = "Hex"
stat = "mind"
level = 2
kind = "active"
"""


def test_identify_of_a_talent_declared_used_earlier_in_the_round_is_accepted() -> None:
    # RULES §6: read against the talents earlier posts declared used, never their outcome;
    # resolved in post order after the use, the Identify sees it (L2: TN 4, seen once: 3)
    run = play([
        ("post", "p1", "gm_sam", 1, "[mental: use Hex on Cora | as Shaman]"),
        ("post", "p2", "cara", 2, "[identify: Shaman]"),
        ("post", "p3", "gm_sam", 3, "!close"),
    ], campaign=parse_campaign(SHAMAN, path="den.toml"))  # fmt: skip
    assert run.contents(ProblemsContent) == []  # accepted when read
    identify = actions_of(run.closed(1))[-1].record
    assert (identify.verb, identify.outcome, identify.passive) == ("identify", "success", 3)
