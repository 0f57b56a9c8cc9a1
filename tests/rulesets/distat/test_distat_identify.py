"""Identify and the bonus for a known talent (RULES D13, D14), and mind talents."""

from __future__ import annotations

from pbp.rulesets.distat.rules import (
    Attack,
    DistatScene,
    Fighter,
    Identify,
    RulesOptions,
    Talent,
    UseTalent,
    add_fighter,
    apply_damage,
    begin_round,
    end_round,
    identify_tn,
    new_scene,
    resolve,
    set_group,
    validate,
)
from pbp.rulesets.distat.rules.violations import NoSuchTalent, NothingToIdentify, TalentNotActive

HEX = Talent(name="Hex", stat="mind", level=3, kind="active")
CURSE = Talent(name="Curse", stat="mind", level=1, kind="active", effect="attack")
DEDUCTION = Talent(name="Deduction", stat="mind", level=1, kind="passive")


def table(
    *, cora_talents: tuple[Talent, ...] = (HEX,), options: RulesOptions | None = None
) -> DistatScene:
    scene = new_scene(
        [
            Fighter(name="Bram", side="party", body=3, mind=4),
            Fighter(name="Cora", side="party", body=2, mind=6, talents=cora_talents),
            Fighter(name="Shaman", side="foes", body=2, mind=6, talents=(HEX, CURSE)),
        ],
        options=options or RulesOptions(),
    )
    return set_group(scene, ["Bram", "Shaman"])


def hex_bram(scene: DistatScene) -> DistatScene:
    scene, (record,) = resolve(
        scene, UseTalent(actor="Shaman", stat="mind", target="Bram", talent="Hex")
    )
    assert record.talent == "Hex" and record.damage == ()  # effect none: no damage
    return end_round(scene)


def test_d13_worked_example_tn_from_level_sightings_and_owning() -> None:
    assert identify_tn(level=3, seen=0, owns=False) == 6
    assert identify_tn(level=3, seen=2, owns=False) == 4
    assert identify_tn(level=3, seen=2, owns=True) == 2
    assert identify_tn(level=1, seen=5, owns=True) == 0  # minimum 0


def test_d13_everyone_in_the_scene_sees_each_use_and_identify_uses_its_count() -> None:
    scene = hex_bram(hex_bram(table()))
    scene, (record,) = resolve(scene, Identify(actor="Cora", target="Shaman"))
    assert (record.verb, record.stat, record.talent) == ("identify", "mind", "Hex")
    assert (record.active, record.passive, record.outcome) == (6, 2, "success")
    assert ("Cora", "Shaman", "Hex") in scene.identified
    assert validate(scene, Identify(actor="Cora", target="Shaman")) == (
        NothingToIdentify(actor="Cora", target="Shaman"),
    )


def test_d13_identify_picks_the_most_recent_unidentified_talent() -> None:
    scene = hex_bram(table())
    scene, _ = resolve(scene, Attack(actor="Shaman", stat="mind", target="Bram", talent="Curse"))
    _, (record,) = resolve(scene, Identify(actor="Bram", target="Shaman"))
    assert (record.talent, record.passive) == ("Curse", 1)  # 2·1 − 1


def test_d13_a_failed_identify_leaves_nothing_known_and_deduction_helps() -> None:
    weak = add_fighter(table(), Fighter(name="Dov", side="party", body=1, mind=3))
    weak = hex_bram(weak)
    weak, (record,) = resolve(weak, Identify(actor="Dov", target="Shaman"))
    assert (record.active, record.passive, record.outcome) == (3, 5, "failure")
    assert not weak.identified
    sharp = add_fighter(
        table(), Fighter(name="Dov", side="party", body=1, mind=4, talents=(DEDUCTION,))
    )
    sharp = hex_bram(sharp)
    _, (record,) = resolve(sharp, Identify(actor="Dov", target="Shaman"))
    assert (record.active, record.passive, record.outcome) == (5, 5, "failure")


def test_d13_a_newcomer_has_not_seen_earlier_uses() -> None:
    scene = hex_bram(table())
    scene = add_fighter(scene, Fighter(name="Dov", side="party", body=1, mind=9))
    assert validate(scene, Identify(actor="Dov", target="Shaman")) == (
        NothingToIdentify(actor="Dov", target="Shaman"),
    )


def test_d14_defender_gets_plus_one_for_an_identified_talent_of_this_initiator() -> None:
    scene = hex_bram(hex_bram(table()))
    scene, (before,) = resolve(
        scene, UseTalent(actor="Shaman", stat="mind", target="Cora", talent="Hex")
    )
    scene = begin_round(end_round(scene))
    scene, _ = resolve(scene, Identify(actor="Cora", target="Shaman"))
    _, (after,) = resolve(
        scene, UseTalent(actor="Shaman", stat="mind", target="Cora", talent="Hex")
    )
    assert before.passive is not None
    assert after.passive == before.passive + 1


def test_d14_option_requires_the_defender_to_own_the_talent() -> None:
    options = RulesOptions(identify_bonus_requires_owning=True)
    for owned, bonus in (((HEX,), 1), ((), 0)):
        scene = hex_bram(hex_bram(table(cora_talents=owned, options=options)))
        scene, (known,) = resolve(scene, Identify(actor="Cora", target="Shaman"))
        assert known.outcome == "success"
        _, (record,) = resolve(
            scene, UseTalent(actor="Shaman", stat="mind", target="Cora", talent="Hex")
        )
        assert record.passive == 6 + bonus


def test_talent_use_needs_an_active_talent_on_the_sheet() -> None:
    scene = table(cora_talents=(DEDUCTION,))
    assert NoSuchTalent(actor="Bram", talent="Hex") in validate(
        scene, UseTalent(actor="Bram", stat="mind", target="Shaman", talent="Hex")
    )
    assert TalentNotActive(actor="Cora", talent="Deduction") in validate(
        scene, UseTalent(actor="Cora", stat="mind", target="Shaman", talent="deduction")
    )


def test_focused_resolve_adds_to_mind_epv_until_its_own_mental_action() -> None:
    resolve_t = Talent(name="Focused Resolve", stat="mind", level=1, kind="passive")
    scene = begin_round(
        new_scene(
            [
                Fighter(name="Monk", side="party", body=2, mind=3, talents=(resolve_t,)),
                Fighter(name="Imp", side="foes", body=2, mind=5),
            ]
        )
    )
    _, (record,) = resolve(scene, Attack(actor="Imp", stat="mind", target="Monk"))
    assert record.passive == 4
    scene, _ = resolve(scene, Attack(actor="Monk", stat="mind", target="Imp"))
    _, (record,) = resolve(scene, Attack(actor="Imp", stat="mind", target="Monk"))
    assert record.passive == 3
    scene = begin_round(end_round(scene))
    _, (record,) = resolve(scene, Attack(actor="Imp", stat="mind", target="Monk"))
    assert record.passive == 4


def test_lifewell_turns_a_zero_mind_defence_into_a_comparison_once_per_encounter() -> None:
    well = Talent(name="Lifewell", stat="mind", level=1, kind="passive")
    scene = new_scene(
        [
            Fighter(name="Sage", side="party", body=2, mind=2, talents=(well,)),
            Fighter(name="Imp", side="foes", body=2, mind=1),
        ]
    )
    scene = apply_damage(scene, name="Sage", stat="mind", amount=2)
    scene, (record,) = resolve(scene, Attack(actor="Imp", stat="mind", target="Sage"))
    assert (record.active, record.passive, record.outcome) == (1, 1, "failure")
    assert any(e.code == "lifewell_used" for e in record.effects)
    _, (record,) = resolve(scene, Attack(actor="Imp", stat="mind", target="Sage"))
    assert record.outcome == "success"  # used up: the zero state fails again


def test_eternal_stops_a_positive_ev_at_zero() -> None:
    eternal = Talent(name="Eternal", stat="body", level=3, kind="passive")
    scene = new_scene([Fighter(name="Lich", side="foes", body=2, mind=2, talents=(eternal,))])
    scene = apply_damage(scene, name="Lich", stat="body", amount=5)
    assert scene.fighters[0].damage_body == 2
    scene = apply_damage(scene, name="Lich", stat="body", amount=1)
    assert scene.fighters[0].damage_body == 3  # from 0, it goes below
