"""Effective values, the 0 state and Out, groups and the crowd penalty (RULES D1, D2, D5, D6,
D11)."""

from __future__ import annotations

from pbp.rulesets.distat.rules import (
    Attack,
    Fighter,
    Move,
    Talent,
    add_feature,
    apply_damage,
    new_scene,
    resolve,
    set_group,
    validate,
    view,
)
from pbp.rulesets.distat.rules.values import crowd_penalty, epv_in_scene
from pbp.rulesets.distat.rules.violations import ActorOut, NotAdjacent, StatTooLow

AGGRESSIVE = Talent(name="Aggressive", stat="body", level=3, kind="active")
HARD_TO_HIT = Talent(name="Hard to Hit", stat="body", level=3, kind="passive")
DEFLECTION = Talent(name="Deflection", stat="body", level=2, kind="passive")


def pc(name: str, body: int = 3, mind: int = 3, *talents: Talent, side: str = "party") -> Fighter:
    return Fighter(name=name, side=side, body=body, mind=mind, talents=talents)


def foe(name: str, body: int = 3, mind: int = 3) -> Fighter:
    return pc(name, body, mind, side="foes")


def test_d1_worked_example_ev_eav_epv_with_three_enemies() -> None:
    hero = Fighter(
        name="Hero", side="party", body=5, mind=2, talents=(AGGRESSIVE, HARD_TO_HIT), damage_body=1
    )
    scene = new_scene([hero, foe("A"), foe("B"), foe("C")])
    scene = set_group(scene, ["Hero", "A", "B", "C"])
    shown = view(scene, "Hero").body
    assert (shown.full, shown.damage, shown.eav, shown.epv) == (5, 1, 5, 5)
    assert epv_in_scene(scene, "Hero", "body") == 3  # 4 + 1 − 2
    from pbp.rulesets.distat.rules.fighter import eav

    assert eav(hero, "body", per_check=1) == 6  # with the sword (a per-check +1)


def test_d1_named_talent_numbers_from_the_sheet_replace_the_built_in_ones() -> None:
    big = Talent(name="aggressive", stat="body", level=3, kind="active", eav=3)
    assert view(new_scene([pc("A", 4, 1, big)]), "A").body.eav == 7


def test_d1_unnamed_talent_numbers_are_always_on_modifiers() -> None:
    odd = Talent(name="Iron Skin", stat="body", level=2, kind="passive", epv=2)
    shown = view(new_scene([pc("A", 4, 1, odd)]), "A").body
    assert (shown.eav, shown.epv) == (4, 6)


def test_d2_damage_lowers_both_active_and_passive_values() -> None:
    scene = apply_damage(new_scene([pc("A", 4, 2)]), name="A", stat="body", amount=2)
    shown = view(scene, "A").body
    assert (shown.eav, shown.epv, shown.damage) == (2, 2, 2)


def test_d4_attack_hurts_losing_defender_by_one_in_the_compared_stat() -> None:
    scene = set_group(new_scene([pc("Aria", 5, 3), foe("Goblin", 3, 1)]), ["Aria", "Goblin"])
    scene, (record,) = resolve(scene, Attack(actor="Aria", stat="body", target="Goblin"))
    assert (record.outcome, record.active, record.passive) == ("success", 5, 3)
    assert view(scene, "Goblin").body.damage == 1
    assert view(scene, "Goblin").mind.damage == 0


def test_d4_failed_attack_costs_the_initiator_nothing() -> None:
    scene = set_group(new_scene([pc("Aria", 5, 3), foe("Goblin", 3, 1)]), ["Aria", "Goblin"])
    scene, (record,) = resolve(scene, Attack(actor="Goblin", stat="body", target="Aria"))
    assert record.outcome == "failure"
    assert view(scene, "Goblin").body.damage == 0 and view(scene, "Aria").body.damage == 0


def test_tie_fails_the_initiator() -> None:
    scene = set_group(new_scene([pc("A", 3, 3), foe("B", 3, 3)]), ["A", "B"])
    _, (record,) = resolve(scene, Attack(actor="A", stat="body", target="B"))
    assert (record.active, record.passive, record.outcome) == (3, 3, "failure")


def test_d5_zero_ev_cannot_act_and_auto_fails_defence() -> None:
    scene = set_group(
        new_scene(
            [
                pc("A", 3, 3),
                foe(
                    "B",
                    3,
                    1,
                ),
            ]
        ),
        ["A", "B"],
    )
    scene = apply_damage(scene, name="B", stat="mind", amount=1)
    assert view(scene, "B").status == "zeroed"
    assert StatTooLow(actor="B", stat="mind") in validate(
        scene, Attack(actor="B", stat="mind", target="A")
    )
    hardy = Talent(name="Thick Skull", stat="mind", level=1, kind="passive", epv=5)
    scene = set_group(new_scene([pc("A", 3, 3), pc("B", 3, 0, hardy, side="foes")]), ["A", "B"])
    _, (record,) = resolve(scene, Attack(actor="A", stat="mind", target="B"))
    assert record.passive == 5 and record.active == 3
    assert record.outcome == "success"  # EV 0 fails whatever its EPV (D5b)


def test_d5_eav_not_above_zero_blocks_the_action() -> None:
    clumsy = Talent(name="Clumsy", stat="body", level=1, kind="passive", eav=-2)
    scene = new_scene([pc("A", 2, 2, clumsy), foe("B")])
    scene = set_group(scene, ["A", "B"])
    assert StatTooLow(actor="A", stat="body") in validate(
        scene, Attack(actor="A", stat="body", target="B")
    )


def test_d6_below_zero_is_out_and_out_cannot_act_or_move() -> None:
    scene = set_group(new_scene([pc("A", 3, 1), foe("B", 3, 3)]), ["A", "B"])
    scene = apply_damage(scene, name="A", stat="mind", amount=2)
    assert view(scene, "A").status == "out"
    assert validate(scene, Attack(actor="A", stat="body", target="B")) == (ActorOut(actor="A"),)
    assert validate(scene, Move(actor="A", target=None)) == (ActorOut(actor="A"),)


def test_d6_attack_that_puts_a_defender_below_zero_marks_it_out() -> None:
    scene = set_group(new_scene([pc("A", 4, 4), foe("B", 3, 1)]), ["A", "B"])
    scene = apply_damage(scene, name="B", stat="mind", amount=1)
    scene, (record,) = resolve(scene, Attack(actor="A", stat="mind", target="B"))
    assert view(scene, "B").status == "out"
    assert any(e.code == "out" for e in record.effects)


def test_d11_crowd_penalty_counts_enemies_beyond_the_first_not_out() -> None:
    scene = new_scene([pc("Hero", 5, 2), foe("A"), foe("B"), foe("C"), pc("Ally")])
    scene = set_group(scene, ["Hero", "A", "B", "C", "Ally"])
    assert crowd_penalty(scene, "Hero") == 2
    scene = apply_damage(scene, name="C", stat="body", amount=4)
    assert crowd_penalty(scene, "Hero") == 1  # C is Out
    assert crowd_penalty(scene, "Ally") == 1


def test_d11_deflection_reduces_the_crowd_penalty_never_below_zero() -> None:
    scene = new_scene([pc("Hero", 5, 2, DEFLECTION), foe("A"), foe("B"), foe("C")])
    scene = set_group(scene, ["Hero", "A", "B", "C"])
    assert crowd_penalty(scene, "Hero") == 1
    scene = set_group(new_scene([pc("Hero", 5, 2, DEFLECTION), foe("A")]), ["Hero", "A"])
    assert crowd_penalty(scene, "Hero") == 0


def test_d11_crowd_penalty_applies_to_body_only() -> None:
    scene = set_group(new_scene([pc("Hero", 5, 5), foe("A"), foe("B")]), ["Hero", "A", "B"])
    _, (record,) = resolve(scene, Attack(actor="A", stat="body", target="Hero"))
    assert record.passive == 4
    _, (record,) = resolve(scene, Attack(actor="A", stat="mind", target="Hero"))
    assert record.passive == 5


def test_d11_move_joins_a_character_group_and_a_feature_group_is_made_at_need() -> None:
    scene = add_feature(new_scene([pc("A"), pc("B")]), name="Door")
    scene, (record,) = resolve(scene, Move(actor="A", target="B"))
    assert record.outcome == "success"
    assert view(scene, "A").group == view(scene, "B").group
    scene, _ = resolve(scene, Move(actor="B", target="Door"))
    assert view(scene, "B").group != view(scene, "A").group
    scene, _ = resolve(scene, Move(actor="A", target="Door"))
    assert view(scene, "A").group == view(scene, "B").group


def test_d18_physical_checks_need_the_same_group_mental_ones_do_not() -> None:
    scene = new_scene([pc("A", 4, 4), foe("B")])
    assert NotAdjacent(actor="A", target="B") in validate(
        scene, Attack(actor="A", stat="body", target="B")
    )
    assert validate(scene, Attack(actor="A", stat="mind", target="B")) == ()


def test_every_character_starts_alone_with_a_stable_group_id() -> None:
    scene = new_scene([pc("A"), pc("B")])
    groups = [view(scene, n).group for n in ("A", "B")]
    assert all(g.startswith("g") for g in groups) and len(set(groups)) == 2


def test_opposed_basics_round_damage_carries_into_later_checks() -> None:
    scene = new_scene([pc("Aria", 5, 3), pc("Bram", 3, 4), foe("Goblin", 3, 1)])
    scene = set_group(scene, ["Aria", "Goblin"])
    scene, (first,) = resolve(scene, Attack(actor="Aria", stat="body", target="Goblin"))
    scene, (second,) = resolve(scene, Attack(actor="Bram", stat="mind", target="Goblin"))
    scene, (third,) = resolve(scene, Attack(actor="Goblin", stat="body", target="Aria"))
    assert [(r.active, r.passive, r.outcome) for r in (first, second, third)] == [
        (5, 3, "success"),
        (4, 1, "success"),
        (2, 5, "failure"),
    ]
    goblin = view(scene, "Goblin")
    assert (goblin.body.damage, goblin.mind.damage, goblin.body.eav) == (1, 1, 2)
    assert goblin.status == "zeroed"


def test_enemies_are_characters_on_different_sides() -> None:
    from pbp.rulesets.distat.rules import enemies

    scene = new_scene([pc("Aria"), pc("Bram"), foe("Goblin")])
    assert enemies(scene, "Aria", "Goblin") and not enemies(scene, "Aria", "Bram")
    assert not enemies(scene, "Aria", "Nobody")
