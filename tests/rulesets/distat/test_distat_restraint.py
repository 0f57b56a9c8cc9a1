"""Restraining and escaping, with durations in play-by-post rounds (RULES D9)."""

from __future__ import annotations

from pbp.rulesets.distat.rules import (
    Attack,
    DistatScene,
    Escape,
    Fighter,
    Move,
    Pass,
    Restrain,
    Stat,
    Talent,
    apply_damage,
    begin_round,
    end_round,
    new_scene,
    resolve,
    set_group,
    slots_used,
    validate,
    view,
)
from pbp.rulesets.distat.rules.violations import (
    AlreadyRestrained,
    MoveAfterRestrain,
    NotRestrained,
    Restrained,
)

PIN = Talent(name="Pin", stat="body", level=2, kind="passive")
PINCER = Talent(name="Pincer", stat="body", level=1, kind="passive")
ANCHOR = Talent(name="Anchor", stat="body", level=1, kind="passive")


def duel(*grappler_talents: Talent, victim_talents: tuple[Talent, ...] = ()) -> DistatScene:
    scene = new_scene(
        [
            Fighter(name="Grappler", side="party", body=5, mind=5, talents=grappler_talents),
            Fighter(name="Victim", side="foes", body=3, mind=3, talents=victim_talents),
        ]
    )
    return begin_round(set_group(scene, ["Grappler", "Victim"]))


def grab(scene: DistatScene, stat: Stat = "body") -> DistatScene:
    scene, (record,) = resolve(scene, Restrain(actor="Grappler", stat=stat, target="Victim"))
    assert record.outcome == "success"
    assert record.damage == ()  # D4: restraining deals no damage
    return scene


def test_d9_restraint_covers_the_next_round_when_the_target_has_no_turn_after_it() -> None:
    scene = grab(duel())
    restraint = view(scene, "Victim").restrained
    assert restraint is not None and (restraint.by, restraint.stat) == ("Grappler", "body")
    assert restraint.rounds == 2
    scene = end_round(scene)
    assert view(scene, "Victim").restrained is not None
    assert validate(scene, Move(actor="Victim", target=None)) == (
        Restrained(actor="Victim", kind="body"),
    )
    scene = end_round(scene)
    assert view(scene, "Victim").restrained is None


def test_d9_a_turn_after_the_restraint_in_the_same_round_ends_it_with_the_round() -> None:
    scene = grab(duel())
    scene, (record,) = resolve(scene, Attack(actor="Victim", stat="body", target="Grappler"))
    assert record.outcome == "void"  # the turn is denied, but it counts as its turn
    restraint = view(scene, "Victim").restrained
    assert restraint is not None and restraint.rounds == 1
    assert view(end_round(scene), "Victim").restrained is None


def test_d9_even_a_pass_counts_as_the_targets_turn() -> None:
    scene = grab(duel())
    scene, _ = resolve(scene, Pass(actor="Victim"))
    assert view(end_round(scene), "Victim").restrained is None


def test_d9_pin_extends_the_restraint_by_one_round() -> None:
    scene = grab(duel(PIN))
    scene, _ = resolve(scene, Pass(actor="Victim"))
    scene = end_round(scene)
    assert view(scene, "Victim").restrained is not None
    assert view(end_round(scene), "Victim").restrained is None


def test_d9_physically_restrained_may_only_escape_with_its_physical_action() -> None:
    scene = grab(duel())
    assert Restrained(actor="Victim", kind="body") in validate(
        scene, Attack(actor="Victim", stat="body", target="Grappler")
    )
    assert validate(scene, Attack(actor="Victim", stat="mind", target="Grappler")) == ()
    assert validate(scene, Escape(actor="Victim")) == ()
    assert slots_used(scene, Escape(actor="Victim")) == {"physical"}


def test_d9_escape_is_body_eav_against_the_restrainers_body_epv() -> None:
    scene = grab(duel())
    scene, (record,) = resolve(scene, Escape(actor="Victim"))
    assert (record.active, record.passive, record.outcome) == (3, 5, "failure")
    assert record.target is None and record.maneuver == "escape"
    assert view(scene, "Victim").restrained is not None
    scene = apply_damage(scene, name="Grappler", stat="body", amount=3)  # EPV 2
    scene, (record,) = resolve(scene, Escape(actor="Victim"))
    assert (record.active, record.passive, record.outcome) == (3, 2, "success")
    assert view(scene, "Victim").restrained is None
    assert NotRestrained(actor="Victim") in validate(scene, Escape(actor="Victim"))


def test_d9_mental_restraint_takes_the_mental_action_not_the_physical() -> None:
    scene = grab(duel(), "mind")
    assert Restrained(actor="Victim", kind="mind") in validate(
        scene, Attack(actor="Victim", stat="mind", target="Grappler")
    )
    assert NotRestrained(actor="Victim") in validate(scene, Escape(actor="Victim"))


def test_d9_nobody_can_restrain_a_target_already_restrained() -> None:
    scene = grab(duel())
    assert AlreadyRestrained(target="Victim") in validate(
        scene, Restrain(actor="Grappler", stat="mind", target="Victim")
    )


def test_d9_no_move_after_restraining_in_the_same_round_but_move_then_restrain_is_fine() -> None:
    scene = grab(duel())
    assert MoveAfterRestrain(actor="Grappler") in validate(
        scene, Move(actor="Grappler", target=None)
    )
    assert validate(end_round(scene), Move(actor="Grappler", target=None)) == ()


def test_d9_a_restrained_character_cannot_threaten() -> None:
    scene = grab(duel())
    scene, (record,) = resolve(scene, Move(actor="Grappler", target=None))
    assert record.outcome == "void"  # Grappler restrained this round
    scene = begin_round(end_round(scene))
    scene, (record,) = resolve(scene, Move(actor="Grappler", target=None))
    assert record.outcome == "success" and record.stat is None  # no check: Victim restrained


def test_pincer_and_anchor_change_restrain_checks() -> None:
    scene = duel(PINCER, victim_talents=(ANCHOR,))
    scene, (record,) = resolve(scene, Restrain(actor="Grappler", stat="body", target="Victim"))
    assert (record.active, record.passive) == (6, 4)
    scene = duel(PINCER, victim_talents=(ANCHOR,))
    _, (record,) = resolve(scene, Attack(actor="Grappler", stat="body", target="Victim"))
    assert (record.active, record.passive) == (5, 3)
