"""Recovery after an encounter and a night's rest (RULES D16), and the scene's set-up calls."""

from __future__ import annotations

import pytest

from pbp.rulesets.distat.rules import (
    Attack,
    Fighter,
    Restrain,
    Talent,
    add_feature,
    add_fighter,
    apply_damage,
    end_encounter,
    feature_names,
    names,
    new_scene,
    night_rest,
    replace_sheet,
    resolve,
    set_group,
    talent_names,
    view,
)
from pbp.rulesets.distat.rules.rounds import short_rest_damage


def aria(bonus_pool: int = 0) -> Fighter:
    return Fighter(name="Aria", side="party", body=6, mind=3, bonus_pool=bonus_pool)


def test_d16_worked_example_body_half_then_bonus_points_then_night() -> None:
    scene = apply_damage(new_scene([aria(bonus_pool=4)]), name="Aria", stat="body", amount=4)
    rested = end_encounter(scene)
    assert view(rested, "Aria").body.eav == 3  # EV 2 < floor(6/2): back to 3
    spent = end_encounter(scene, spend={"Aria": {"body": 4}})
    assert view(spent, "Aria").body.eav == 5 and view(spent, "Aria").bonus_pool == 0
    assert view(night_rest(spent), "Aria").body.eav == 6


def test_d16_worked_example_mind_below_zero_back_to_zero_or_one_with_a_rally() -> None:
    scene = apply_damage(new_scene([aria()]), name="Aria", stat="mind", amount=4)
    assert view(scene, "Aria").status == "out"
    plain = end_encounter(scene)
    assert view(plain, "Aria").mind.eav == 0 and view(plain, "Aria").status == "zeroed"
    rallied = end_encounter(scene, rally=["Aria"])
    assert view(rallied, "Aria").mind.eav == 1
    assert view(night_rest(rallied), "Aria").mind.eav == 3  # capped at full


def test_d16_acceptance_case_recovery_sequence() -> None:
    scene = apply_damage(new_scene([aria()]), name="Aria", stat="body", amount=4)
    scene = apply_damage(scene, name="Aria", stat="mind", amount=4)
    scene = night_rest(end_encounter(scene, rally=["Aria"]))
    shown = view(scene, "Aria")
    assert (shown.body.damage, shown.body.eav, shown.mind.damage, shown.mind.eav) == (1, 5, 0, 3)
    assert shown.status == "active"


def test_d16_medic_helps_body_only_and_never_a_stat_with_no_points() -> None:
    assert short_rest_damage(full=4, damage=6, helped=True) == 3
    assert short_rest_damage(full=0, damage=1, helped=True) == 0
    assert short_rest_damage(full=5, damage=1, helped=False) == 1  # at or above half: unchanged


def test_d16_spending_more_than_the_pool_is_an_error() -> None:
    scene = apply_damage(new_scene([aria(bonus_pool=1)]), name="Aria", stat="body", amount=1)
    with pytest.raises(ValueError):
        end_encounter(scene, spend={"Aria": {"body": 2}})


def test_end_encounter_gives_a_fresh_scene_state_kept() -> None:
    scene = new_scene([aria(), Fighter(name="Ogre", side="foes", body=3, mind=1)])
    scene = add_feature(set_group(scene, ["Aria", "Ogre"]), name="Door", tn=2)
    scene, _ = resolve(scene, Restrain(actor="Aria", stat="body", target="Ogre"))
    scene, _ = resolve(scene, Attack(actor="Aria", stat="mind", target="Ogre"))
    fresh = end_encounter(scene)
    assert feature_names(fresh) == ()
    assert view(fresh, "Aria").group != view(fresh, "Ogre").group
    assert view(fresh, "Ogre").restrained is None
    assert view(fresh, "Ogre").mind.damage == 1  # Mind 1, damage 1: EV 0 stays (not below half)


def test_add_fighter_replace_sheet_and_names() -> None:
    scene = add_feature(new_scene([aria()]), name="Altar", tn=3)
    scene = add_fighter(scene, Fighter(name="Imp", side="foes", body=1, mind=1), group_with="Altar")
    assert scene.groups["Imp"] == scene.groups["Altar"]
    scene = add_fighter(scene, Fighter(name="Bat", side="foes", body=1, mind=1), group_with="Aria")
    assert view(scene, "Bat").group == view(scene, "Aria").group
    assert names(scene) == ("Aria", "Imp", "Bat") and feature_names(scene) == ("Altar",)
    scene = apply_damage(scene, name="Aria", stat="body", amount=2)
    wing = Talent(name="Aggressive", stat="body", level=3, kind="active")
    scene = replace_sheet(
        scene, Fighter(name="Aria", side="party", body=8, mind=3, talents=(wing,))
    )
    shown = view(scene, "Aria").body
    assert (shown.full, shown.damage, shown.eav) == (8, 2, 7)
    assert talent_names(scene) == ("Aggressive",)
    with pytest.raises(ValueError):
        add_fighter(scene, Fighter(name="Imp", side="foes", body=1, mind=1))


def test_set_group_keeps_the_id_when_a_group_only_grows() -> None:
    scene = new_scene(
        [
            aria(),
            Fighter(name="Ogre", side="foes", body=3, mind=1),
            Fighter(name="Bram", side="party", body=3, mind=1),
        ]
    )
    first = view(scene, "Aria").group
    scene = set_group(scene, ["Aria", "Ogre"])
    assert view(scene, "Aria").group == first == view(scene, "Ogre").group
    scene = set_group(scene, ["Bram", "Ogre"])
    assert view(scene, "Aria").group != view(scene, "Ogre").group


def test_d3_damage_goes_to_the_stat_the_defender_defended_with() -> None:
    scene = new_scene([aria(), Fighter(name="Ogre", side="foes", body=9, mind=1)])
    scene, (record,) = resolve(scene, Attack(actor="Aria", stat="mind", target="Ogre"))
    assert [(d.character, d.stat, d.amount) for d in record.damage] == [("Ogre", "mind", 1)]
    assert view(scene, "Ogre").body.damage == 0
