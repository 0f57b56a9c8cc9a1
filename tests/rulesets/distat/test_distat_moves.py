"""Threatened moves, time constraints, action slots and non-actions (RULES D8, D10, D12, D17)."""

from __future__ import annotations

from pbp.rulesets.distat.rules import (
    DistatScene,
    Feat,
    Fighter,
    Identify,
    Move,
    Pass,
    Talent,
    add_feature,
    apply_damage,
    new_scene,
    resolve,
    set_group,
    slots_used,
    validate,
    view,
)
from pbp.rulesets.distat.rules.violations import AlreadyInGroup, SelfTarget, UnknownFeatureTn

MOBILE = Talent(name="Mobile", stat="body", level=1, kind="passive")
CONTROLLER = Talent(name="Controller", stat="body", level=1, kind="passive")
FLEET = Talent(name="Fleet-footed", stat="body", level=2, kind="passive")


def who(name: str, side: str, body: int, mind: int, *talents: Talent) -> Fighter:
    return Fighter(name=name, side=side, body=body, mind=mind, talents=talents)


def fight(*fighters: Fighter) -> DistatScene:
    return set_group(new_scene(fighters), [f.name for f in fighters])


def test_d10_leaving_an_enemy_needs_an_opposed_check_with_the_higher_eav_by_default() -> None:
    scene = fight(who("Aria", "party", 3, 5), who("Ogre", "foes", 6, 2))
    scene, (record,) = resolve(scene, Move(actor="Aria", target=None))
    assert (record.stat, record.active, record.passive, record.outcome) == ("mind", 5, 2, "success")
    assert view(scene, "Aria").group != view(scene, "Ogre").group


def test_d10_failure_loses_only_the_move_and_a_tie_fails_the_mover() -> None:
    scene = fight(who("Aria", "party", 3, 3), who("Ogre", "foes", 3, 3))
    after, (record,) = resolve(scene, Move(actor="Aria", target=None, stat="body"))
    assert (record.active, record.passive, record.outcome) == (3, 3, "failure")
    assert view(after, "Aria").group == view(after, "Ogre").group
    assert view(after, "Aria").body.damage == 0  # no damage from a failed move


def test_d10_the_highest_relevant_epv_opposes_after_its_own_crowd_penalty() -> None:
    scene = fight(
        who("Aria", "party", 6, 1),
        who("Bram", "party", 3, 1),
        who("Ogre", "foes", 5, 1),
        who("Imp", "foes", 4, 1),
    )
    # Ogre and Imp each face two enemies: Body EPV 4 and 3; each has one ally: +1
    _, (record,) = resolve(scene, Move(actor="Aria", target=None, stat="body"))
    assert (record.active, record.passive) == (6 + 1, 4 + 1)


def test_d10_no_check_when_the_movers_allies_outnumber_the_enemies() -> None:
    scene = fight(
        who("Aria", "party", 1, 1),
        who("Bram", "party", 3, 1),
        who("Cora", "party", 3, 1),
        who("Ogre", "foes", 9, 9),
    )
    scene, (record,) = resolve(scene, Move(actor="Aria", target=None))
    assert record.outcome == "success" and record.stat is None and record.active is None


def test_d10_out_enemies_do_not_threaten() -> None:
    scene = fight(who("Aria", "party", 1, 1), who("Ogre", "foes", 9, 9))
    scene = apply_damage(scene, name="Ogre", stat="body", amount=10)
    _, (record,) = resolve(scene, Move(actor="Aria", target=None))
    assert record.outcome == "success" and record.stat is None


def test_mobile_and_controller_modify_the_threatened_check() -> None:
    scene = fight(who("Aria", "party", 4, 1, MOBILE), who("Ogre", "foes", 3, 1, CONTROLLER))
    _, (record,) = resolve(scene, Move(actor="Aria", target=None))
    assert (record.active, record.passive) == (5, 4)


def test_d12_time_constraint_is_a_body_check_that_spends_the_physical_action() -> None:
    scene = add_feature(new_scene([who("Aria", "party", 4, 1)]), name="Gate", constraint=3)
    move = Move(actor="Aria", target="Gate")
    assert slots_used(scene, move) == {"move", "physical"}
    scene, (record,) = resolve(scene, move)
    assert (record.stat, record.active, record.passive, record.outcome) == ("body", 4, 3, "success")
    assert view(scene, "Aria").group == scene.groups["Gate"]


def test_d12_a_failed_time_constraint_check_does_not_arrive() -> None:
    scene = add_feature(new_scene([who("Aria", "party", 3, 1)]), name="Gate", constraint=3)
    after, (record,) = resolve(scene, Move(actor="Aria", target="Gate"))
    assert record.outcome == "failure" and "Gate" not in after.groups


def test_d12_fleet_footed_makes_the_check_without_the_physical_action() -> None:
    scene = add_feature(new_scene([who("Aria", "party", 4, 1, FLEET)]), name="Gate", constraint=3)
    assert slots_used(scene, Move(actor="Aria", target="Gate")) == {"move"}
    _, (record,) = resolve(scene, Move(actor="Aria", target="Gate"))
    assert record.passive == 3


def test_d12_threatened_then_time_constraint_the_record_carries_the_last_check() -> None:
    scene = fight(who("Aria", "party", 5, 1), who("Ogre", "foes", 3, 1))
    scene = add_feature(scene, name="Gate", constraint=4)
    _, (record,) = resolve(scene, Move(actor="Aria", target="Gate"))
    assert (record.active, record.passive, record.outcome) == (5, 4, "success")
    assert any(e.code == "threatened_check" for e in record.effects)


def test_moves_that_go_nowhere_are_rejected() -> None:
    scene = fight(who("Aria", "party", 3, 3), who("Bram", "party", 3, 3))
    assert validate(scene, Move(actor="Aria", target="Bram")) == (
        AlreadyInGroup(actor="Aria", target="Bram"),
    )
    assert validate(scene, Move(actor="Aria", target="Aria")) == (SelfTarget(actor="Aria"),)
    alone = new_scene([who("Aria", "party", 3, 3)])
    assert validate(alone, Move(actor="Aria", target=None)) == (
        AlreadyInGroup(actor="Aria", target=None),
    )


def test_d8_slots_one_move_one_physical_one_mental() -> None:
    scene = fight(who("Aria", "party", 3, 3), who("Ogre", "foes", 3, 3))
    assert slots_used(scene, Move(actor="Aria", target=None)) == {"move"}
    assert slots_used(scene, Identify(actor="Aria", target="Ogre")) == {"move"}
    assert slots_used(scene, Feat(actor="Aria", stat="mind", tn=2)) == {"mental"}


def test_d17_pass_and_the_threatened_check_are_not_actions() -> None:
    scene = fight(who("Aria", "party", 3, 3), who("Ogre", "foes", 3, 3))
    assert slots_used(scene, Pass(actor="Aria")) == frozenset()
    _, (record,) = resolve(scene, Pass(actor="Aria"))
    assert (record.verb, record.outcome) == ("pass", "success")
    # the Threatened check rides on the move: no physical or mental slot
    assert slots_used(scene, Move(actor="Aria", target=None, stat="body")) == {"move"}


def test_d19_feat_is_eav_against_a_target_number_tie_fails() -> None:
    scene = add_feature(new_scene([who("Aria", "party", 4, 2)]), name="Wall", tn=4)
    _, (record,) = resolve(scene, Feat(actor="Aria", stat="body", feature="Wall"))
    assert (record.maneuver, record.target, record.active, record.passive, record.outcome) == (
        "feat",
        "Wall",
        4,
        4,
        "failure",
    )
    _, (record,) = resolve(scene, Feat(actor="Aria", stat="mind", tn=1))
    assert (record.passive, record.outcome) == (1, "success")
    scene = add_feature(scene, name="Shrine")
    assert validate(scene, Feat(actor="Aria", stat="mind", feature="Shrine")) == (
        UnknownFeatureTn(feature="Shrine"),
    )
