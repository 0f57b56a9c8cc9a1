"""Properties that must hold for any numbers (RULES D2, D5, D7, D16, opposed checks)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pbp.rulesets.distat.rules import (
    STATS,
    Attack,
    Fighter,
    Split,
    Stat,
    Talent,
    apply_damage,
    end_encounter,
    new_scene,
    night_rest,
    resolve,
    set_group,
    view,
)

stats = st.sampled_from(STATS)
points = st.integers(min_value=0, max_value=12)
AGGRESSIVE = Talent(name="Aggressive", stat="body", level=3, kind="active")


@settings(max_examples=200)
@given(
    body=points,
    mind=points,
    stat=stats,
    hurt=st.integers(min_value=0, max_value=20),
    amount=st.integers(min_value=0, max_value=5),
)
def test_damage_never_raises_a_value(
    body: int, mind: int, stat: Stat, hurt: int, amount: int
) -> None:
    scene = new_scene([Fighter(name="A", side="x", body=body, mind=mind)])
    scene = apply_damage(scene, name="A", stat=stat, amount=hurt)
    before = view(scene, "A")
    after = view(apply_damage(scene, name="A", stat=stat, amount=amount), "A")
    for s in STATS:
        old, new = getattr(before, s), getattr(after, s)
        assert new.eav <= old.eav and new.epv <= old.epv


@st.composite
def splits(draw: st.DrawFn) -> tuple[int, bool, list[int]]:
    body = draw(st.integers(min_value=1, max_value=12))
    aggressive = draw(st.booleans())
    full = body + (1 if aggressive else 0)
    shares: list[int] = []
    left = full
    while left > 1 and len(shares) < 5 and draw(st.booleans()):
        share = draw(st.integers(min_value=1, max_value=left - 1))
        shares.append(share)
        left -= share
    return body, aggressive, shares


@settings(max_examples=200)
@given(splits(), st.lists(st.integers(min_value=0, max_value=8), min_size=6, max_size=6))
def test_split_parts_never_exceed_the_eav_and_the_eav_is_restored(
    shape: tuple[int, bool, list[int]], defences: list[int]
) -> None:
    body, aggressive, shares = shape
    talents = (AGGRESSIVE,) if aggressive else ()
    full = body + (1 if aggressive else 0)
    foes = [Fighter(name=f"F{i}", side="foes", body=d, mind=1) for i, d in enumerate(defences)]
    hero = Fighter(name="Hero", side="party", body=body, mind=1, talents=talents)
    scene = set_group(new_scene([hero, *foes]), ["Hero", *(f.name for f in foes)])
    parts = tuple(
        Attack(actor="Hero", stat="body", target=f"F{i}", share=s)
        for i, s in enumerate([*shares, None])
    )
    split = Split(actor="Hero", stat="body", parts=parts)
    after, records = resolve(scene, split)
    if len(parts) < 2 or full < 2:
        assert all(r.outcome == "void" for r in records)
        return
    actives = [r.active for r in records]
    assert all(a is not None and 1 <= a <= full for a in actives)
    assert sum(a for a in actives if a is not None) == full
    assert view(after, "Hero").body.eav == full


@settings(max_examples=200)
@given(
    full_body=points,
    full_mind=points,
    dmg_body=st.integers(0, 20),
    dmg_mind=st.integers(0, 20),
    medic=st.booleans(),
    rally=st.booleans(),
    pool=st.integers(0, 10),
    night=st.booleans(),
)
def test_recovery_never_raises_a_value_above_full_nor_lowers_it(
    full_body: int,
    full_mind: int,
    dmg_body: int,
    dmg_mind: int,
    medic: bool,
    rally: bool,
    pool: int,
    night: bool,
) -> None:
    hero = Fighter(
        name="A",
        side="x",
        body=full_body,
        mind=full_mind,
        damage_body=dmg_body,
        damage_mind=dmg_mind,
        bonus_pool=pool,
    )
    scene = new_scene([hero])
    before = view(scene, "A")
    spend: dict[Stat, int] = {"body": pool // 2, "mind": pool - pool // 2}
    scene = end_encounter(
        scene, medic=["A"] if medic else [], rally=["A"] if rally else [], spend={"A": spend}
    )
    if night:
        scene = night_rest(scene)
    after = view(scene, "A")
    for s in STATS:
        old, new = getattr(before, s), getattr(after, s)
        assert 0 <= new.damage <= old.damage
        assert new.full - new.damage <= new.full
    assert 0 <= after.bonus_pool <= pool


@settings(max_examples=200)
@given(attacker=st.integers(1, 10), defender=st.integers(1, 10), stat=stats)
def test_an_opposed_check_has_one_winner_and_ties_go_to_the_defender(
    attacker: int, defender: int, stat: Stat
) -> None:
    scene = new_scene(
        [
            Fighter(name="A", side="p", body=attacker, mind=attacker),
            Fighter(name="D", side="f", body=defender, mind=defender),
        ]
    )
    scene = set_group(scene, ["A", "D"])
    after, (record,) = resolve(scene, Attack(actor="A", stat=stat, target="D"))
    assert (record.active, record.passive) == (attacker, defender)
    won = record.outcome == "success"
    assert record.outcome in ("success", "failure")
    assert won == (attacker > defender)
    hurt = getattr(view(after, "D"), stat).damage
    assert hurt == (1 if won else 0)
    assert getattr(view(after, "A"), stat).damage == 0  # the initiator never pays
