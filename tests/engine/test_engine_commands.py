"""GM commands in a round: set-up at once, corrections in order, recovery, refusals."""

from __future__ import annotations

from engine_helpers import ledger, play, thread
from thread_run import actions_of, characters_of

from pbp.engine.post_contents import ProblemsContent


def _view(run, name: str):  # type: ignore[no-untyped-def]
    """A character's state after the last closed round."""
    return next(c for c in characters_of(run.state.closed[-1].report) if c.name == name)


def _problems(run, post_id: str) -> list:  # type: ignore[no-untyped-def,type-arg]
    return [p for c in run.contents(ProblemsContent) if c.post_id == post_id for p in c.problems]


def test_npc_then_group_in_one_post_sets_up_the_scene_for_the_same_post() -> None:
    run = play([
        ("post", "p1", "gm_sam", 1,
         "Rats pour in.\n!npc Rat King body 2 mind 1\n!group Aria, Rat King\n"
         "[physical: attack Aria | as Rat King]"),
        ("post", "p2", "alice", 2, "[physical: attack rat]"),
        ("post", "p3", "gm_sam", 3, "!close"),
    ])  # fmt: skip
    assert _problems(run, "p1") == [] and _problems(run, "p2") == []
    report = run.closed(1)
    assert [(a.record.actor, a.record.target) for a in actions_of(report)] == [
        ("Rat King", "Aria"),
        ("Aria", "Rat King"),
    ]
    assert _view(run, "Rat King").group == _view(run, "Aria").group
    assert _view(run, "Rat King").side == "foes"


def test_corrections_act_at_their_place_in_the_resolution_order() -> None:
    # Aria (Body 5) attacks the Ogre's Body 6 before the GM's +2 bonus and after a -3 damage.
    run = play([
        ("post", "p1", "gm_sam", 1, "!group Aria, Ogre\n!damage Ogre body 3"),
        ("post", "p2", "alice", 2, "[physical: attack Ogre]"),
        ("post", "p3", "gm_sam", 3, "!heal Ogre body 3\n!bonus Bram +1"),
        ("post", "p4", "gm_sam", 4, "[physical: attack Aria | as Ogre]\n!close"),
    ])  # fmt: skip
    report = run.closed(1)
    aria, ogre = actions_of(report)
    assert (aria.record.active, aria.record.passive, aria.record.outcome) == (5, 3, "success")
    # healed back to full after Aria's hit: 6 - 1
    assert (ogre.record.active, ogre.record.passive) == (5, 5)
    assert [(c.what, c.character, c.amount) for c in report.corrections] == [
        ("damage", "Ogre", 3),
        ("heal", "Ogre", 3),
        ("bonus", "Bram", 1),
    ]
    assert _view(run, "Bram").bonus_pool == 1


def test_damage_before_an_attack_changes_the_numbers_compared() -> None:
    run = play([
        ("post", "p1", "gm_sam", 1, "!group Bram, Goblin"),
        ("post", "p2", "gm_sam", 2, "!damage Goblin body 1"),
        ("post", "p3", "bob", 3, "[physical: attack Goblin]"),
        ("post", "p4", "gm_sam", 4, "!close"),
    ])  # fmt: skip
    (bram,) = actions_of(run.closed(1))
    assert (bram.record.active, bram.record.passive, bram.record.outcome) == (3, 2, "success")


def test_encounter_end_applies_short_rest_recovery_with_medic_and_rally() -> None:
    # RULES D16: EV below 0 goes to 0, or 1 with medic (Body) / rally (Mind); an EV below
    # half goes up to half ("Body full 6, damage 4 (EV 2) -> EV 3").
    run = play([
        ("post", "p1", "gm_sam", 1,
         "!damage Aria body 6\n!damage Bram mind 5\n!damage Cora mind 3\n!damage Ogre body 4"),
        ("post", "p2", "gm_sam", 2, "The fight is over.\n!encounter end medic Aria rally Bram"),
    ])  # fmt: skip
    report = run.closed(1)
    assert report.closed_by == "p2" and "encounter_end" in report.notes
    assert _view(run, "Aria").body.damage == 4  # EV -1 -> 1 (medic)
    assert _view(run, "Bram").mind.damage == 3  # EV -1 -> 1 (rally)
    assert _view(run, "Cora").mind.damage == 2  # EV -1 -> 0 (no rally)
    assert _view(run, "Ogre").body.damage == 3  # EV 2 -> 3 (half of 6)
    assert run.state.round is not None and run.state.round.number == 2


def test_encounter_end_leaves_a_fresh_scene_without_groups() -> None:
    run = play([
        ("post", "p1", "gm_sam", 1, "!group Aria, Goblin"),
        ("post", "p2", "gm_sam", 2, "!encounter end"),
    ])  # fmt: skip
    assert _view(run, "Aria").group != _view(run, "Goblin").group


def test_rest_night_removes_two_damage_from_each_stat() -> None:
    run = play([
        ("post", "p1", "gm_sam", 1, "!damage Ogre body 3\n!damage Bram mind 1\n!close"),
        ("post", "p2", "gm_sam", 2, "Night falls.\n!rest night"),
        ("post", "p3", "gm_sam", 3, "!close"),
    ])  # fmt: skip
    assert _view(run, "Ogre").body.damage == 1
    assert _view(run, "Bram").mind.damage == 0


def test_player_gm_command_is_refused_with_a_reply_and_does_nothing() -> None:
    run = play([
        ("post", "p1", "alice", 1, "Let's go!\n!close"),
        ("post", "p2", "bob", 2, "!damage Goblin body 9"),
    ])  # fmt: skip
    assert run.state.closed == ()
    assert [p.code for p in _problems(run, "p1")] == ["not_gm"]
    assert [p.code for p in _problems(run, "p2")] == ["not_gm"]
    run.feed([("post", "p3", "gm_sam", 3, "!close")])
    assert run.closed(1).corrections == ()


def test_player_line_starting_with_bang_that_is_no_command_is_prose() -> None:
    run = play([("post", "p1", "alice", 1, "!!! Aria screams. [mental: attack Goblin]")])
    assert _problems(run, "p1") == []


def test_gm_unknown_command_gets_a_suggestion() -> None:
    run = play([("post", "p1", "gm_sam", 1, "!clsoe")])
    (problem,) = _problems(run, "p1")
    assert problem.code == "unknown_command"
    assert problem.suggestion == "close"  # type: ignore[attr-defined]
    assert run.state.closed == ()


def test_refused_command_is_listed_once_in_the_rejected_list() -> None:
    run = thread([
        ("post", "p1", "alice", 1, "[mental: attack Goblin]\n!close"),
        ("post", "p2", "gm_sam", 2, "!clsoe"),
        ("post", "p3", "gm_sam", 3, "!close"),
    ])  # fmt: skip
    rejected = [(r["post"], r["code"]) for r in ledger(run)["rejected"]]
    assert rejected == [("p1", "not_gm"), ("p2", "unknown_command")]
