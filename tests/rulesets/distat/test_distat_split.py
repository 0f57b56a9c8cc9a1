"""Split actions (RULES D7) and the bonus pool (RULES D15)."""

from __future__ import annotations

from pbp.rulesets.distat.rules import (
    Attack,
    DistatScene,
    Fighter,
    Restrain,
    Split,
    Stat,
    Talent,
    add_bonus,
    new_scene,
    resolve,
    set_group,
    validate,
    view,
)
from pbp.rulesets.distat.rules.violations import (
    BonusOverCap,
    BonusOverPool,
    SplitPartTooLarge,
    SplitShareMissing,
    SplitTooFewParts,
    SplitTooLarge,
)

AGGRESSIVE = Talent(name="Aggressive", stat="body", level=3, kind="active")
INDISCRIMINATE = Talent(name="Indiscriminate", stat="mind", level=2, kind="passive")


def foe(name: str, body: int, mind: int = 1) -> Fighter:
    return Fighter(name=name, side="foes", body=body, mind=mind)


def d7_scene() -> DistatScene:
    aria = Fighter(name="Aria", side="party", body=6, mind=3, talents=(AGGRESSIVE,))
    scene = new_scene([aria, foe("A", 2), foe("B", 3), foe("C", 1)])
    return set_group(scene, ["Aria", "A", "B", "C"])


def hit(target: str, share: int | None, stat: Stat = "body") -> Attack:
    return Attack(actor="Aria", stat=stat, target=target, share=share)


def test_d7_worked_example_three_parts_of_seven() -> None:
    scene = d7_scene()
    split = Split(actor="Aria", stat="body", parts=(hit("A", 3), hit("B", 2), hit("C", 2)))
    assert validate(scene, split) == ()
    scene, records = resolve(scene, split)
    assert [(r.target, r.active, r.passive, r.outcome) for r in records] == [
        ("A", 3, 2, "success"),
        ("B", 2, 3, "failure"),
        ("C", 2, 1, "success"),
    ]
    assert [view(scene, n).body.damage for n in ("A", "B", "C")] == [1, 0, 1]
    assert view(scene, "Aria").body.eav == 7  # the EAV is E again afterwards


def test_d7_final_part_uses_all_that_is_left_whatever_its_share() -> None:
    scene = d7_scene()
    split = Split(actor="Aria", stat="body", parts=(hit("A", 3), hit("B", 2), hit("C", 1)))
    _, records = resolve(scene, split)
    assert [r.active for r in records] == [3, 2, 2]
    split = Split(actor="Aria", stat="body", parts=(hit("A", 3), hit("C", None)))
    _, records = resolve(scene, split)
    assert [r.active for r in records] == [3, 4]


def test_d7_shares_that_exceed_the_eav_are_rejected_not_clamped() -> None:
    scene = d7_scene()
    split = Split(actor="Aria", stat="body", parts=(hit("A", 4), hit("B", 4)))
    found = validate(scene, split)
    assert SplitTooLarge(actor="Aria", stat="body", total=8, eav=7) in found


def test_d7_a_non_final_part_must_leave_at_least_one() -> None:
    scene = d7_scene()
    split = Split(actor="Aria", stat="body", parts=(hit("A", 7), hit("B", None)))
    assert SplitPartTooLarge(actor="Aria", part=1, share=7, available=6) in validate(scene, split)
    split = Split(actor="Aria", stat="body", parts=(hit("A", 0), hit("B", None)))
    assert SplitPartTooLarge(actor="Aria", part=1, share=0, available=6) in validate(scene, split)


def test_d7_shape_needs_two_parts_and_shares_on_non_final_parts() -> None:
    scene = d7_scene()
    one = Split(actor="Aria", stat="body", parts=(hit("A", 3),))
    assert SplitTooFewParts(actor="Aria", parts=1) in validate(scene, one)
    missing = Split(actor="Aria", stat="body", parts=(hit("A", None), hit("B", 2)))
    assert SplitShareMissing(actor="Aria", part=1) in validate(scene, missing)


def test_d7_a_void_split_gives_one_void_record_per_part() -> None:
    scene = d7_scene()
    split = Split(actor="Aria", stat="body", parts=(hit("A", 5), hit("B", 5)))
    after, records = resolve(scene, split)
    assert after == scene  # nothing happened
    assert [r.outcome for r in records] == ["void", "void"]
    assert all(r.reason is not None for r in records)


def test_d7_parts_may_mix_attack_and_restrain_and_later_parts_see_earlier_results() -> None:
    scene = d7_scene()
    grab = Restrain(actor="Aria", stat="body", target="C", share=3)
    again = Restrain(actor="Aria", stat="body", target="C", share=None)
    scene, records = resolve(scene, Split(actor="Aria", stat="body", parts=(grab, again)))
    assert records[0].outcome == "success"
    assert records[1].outcome == "void" and records[1].reason is not None
    assert records[1].reason.code == "already_restrained"


def test_d7_indiscriminate_adds_to_each_part_of_a_mental_split_capped_at_e_minus_one() -> None:
    mage = Fighter(name="Aria", side="party", body=2, mind=6, talents=(INDISCRIMINATE,))
    scene = new_scene([mage, foe("A", 1, 9), foe("B", 1, 9)])
    split = Split(actor="Aria", stat="mind", parts=(hit("A", 2, "mind"), hit("B", 4, "mind")))
    _, records = resolve(scene, split)
    assert [r.active for r in records] == [3, 5]  # 2+1; final 4+1 = 5 = E − 1
    split = Split(actor="Aria", stat="mind", parts=(hit("A", 1, "mind"), hit("B", None, "mind")))
    _, records = resolve(scene, split)
    assert [r.active for r in records] == [2, 5]  # 5+1 capped at E − 1 = 5
    same = Split(actor="Aria", stat="mind", parts=(hit("A", 2, "mind"), hit("A", 4, "mind")))
    _, records = resolve(scene, same)
    assert [r.active for r in records] == [2, 4]  # one target: no Indiscriminate


def test_d15_bonus_adds_to_eav_is_spent_and_capped_per_check() -> None:
    aria = Fighter(name="Aria", side="party", body=6, mind=3, bonus_pool=5)  # pool max 3, cap 2
    scene = set_group(new_scene([aria, foe("A", 7)]), ["Aria", "A"])
    assert BonusOverCap(actor="Aria", asked=3, cap=2) in validate(
        scene, Attack(actor="Aria", stat="body", target="A", bonus=3)
    )
    scene, (record,) = resolve(scene, Attack(actor="Aria", stat="body", target="A", bonus=2))
    assert (record.active, record.passive) == (8, 7)
    assert view(scene, "Aria").bonus_pool == 3
    assert any(e.code == "bonus_spent" for e in record.effects)


def test_d15_bonus_over_the_pool_is_rejected() -> None:
    aria = Fighter(name="Aria", side="party", body=6, mind=3, bonus_pool=1)
    scene = set_group(new_scene([aria, foe("A", 2)]), ["Aria", "A"])
    assert BonusOverPool(actor="Aria", asked=2, pool=1) in validate(
        scene, Attack(actor="Aria", stat="body", target="A", bonus=2)
    )
    split = Split(
        actor="Aria",
        stat="body",
        parts=(
            Attack(actor="Aria", stat="body", target="A", share=3, bonus=1),
            Attack(actor="Aria", stat="body", target="A", bonus=1),
        ),
    )
    assert BonusOverPool(actor="Aria", asked=2, pool=1) in validate(scene, split)


def test_d15_gm_bonus_grants_and_the_pool_never_goes_negative() -> None:
    scene = new_scene([Fighter(name="A", side="party", body=4, mind=4)])
    scene = add_bonus(scene, name="A", amount=3)
    assert view(scene, "A").bonus_pool == 3
    assert view(add_bonus(scene, name="A", amount=-9), "A").bonus_pool == 0
