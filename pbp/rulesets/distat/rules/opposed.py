"""Opposed checks and their consequences (RULES D3, D4, D5, D9, D14, D15)."""

from __future__ import annotations

from pbp.rulesets.distat.rules.effects import (
    AutoFailed,
    BecameRestrained,
    BonusSpent,
    Effect,
    LifewellUsed,
    WentOut,
    Zeroed,
)
from pbp.rulesets.distat.rules.fighter import Restraint, ev, hurt, status
from pbp.rulesets.distat.rules.intents import Stat
from pbp.rulesets.distat.rules.records import CheckRecord, Damage, Verb
from pbp.rulesets.distat.rules.scene import DistatScene, fighter, put
from pbp.rulesets.distat.rules.talents import count, find, situational
from pbp.rulesets.distat.rules.values import Defence, defence
from pbp.values import frozen_value, replace


@frozen_value
class Clash:
    """An opposed check to make: ``base`` is the active value before per-check bonuses."""

    actor: str
    stat: Stat
    target: str
    maneuver: str  # attack | restrain | use
    base: int
    bonus: int = 0
    talent: str | None = None


def verb_of(stat: Stat) -> Verb:
    """The action a stat's checks use."""
    return "physical" if stat == "body" else "mental"


def wins(*, active: int, passive: int, defence_fails: bool = False) -> bool:
    """Whether the initiator wins: strictly higher, a tie fails it (seed: Opposed Checks)."""
    return defence_fails or active > passive


def spend_bonus(scene: DistatScene, name: str, amount: int) -> tuple[DistatScene, list[Effect]]:
    """Bonus-pool points spent at resolution (RULES D15)."""
    if amount <= 0:
        return scene, []
    f = fighter(scene, name)
    pool = f.bonus_pool - amount
    return put(scene, replace(f, bonus_pool=pool)), [
        BonusSpent(character=name, amount=amount, pool=pool)
    ]


def note_defence(
    scene: DistatScene, name: str, stat: Stat, d: Defence
) -> tuple[DistatScene, list[Effect]]:
    """Effects of how a defence stood: Lifewell spent, an automatic failure (RULES D5b)."""
    effects: list[Effect] = []
    if d.lifewell:
        scene = put(scene, replace(fighter(scene, name), lifewell_used=True))
        effects.append(LifewellUsed(character=name))
    if d.auto_fail:
        effects.append(AutoFailed(character=name, stat=stat))
    return scene, effects


def deal_damage(
    scene: DistatScene, name: str, stat: Stat, amount: int
) -> tuple[DistatScene, Damage, list[Effect]]:
    """``amount`` damage to ``stat`` (Eternal applies) and the status changes it made."""
    before = fighter(scene, name)
    after = hurt(before, stat, amount)
    scene = put(scene, after)
    dealt = Damage(
        character=name,
        stat=stat,
        amount=after.damage_body + after.damage_mind - before.damage_body - before.damage_mind,
    )
    effects: list[Effect] = []
    if ev(after, stat) == 0 and ev(before, stat) != 0:
        effects.append(Zeroed(character=name, stat=stat))
    if status(after) == "out" and status(before) != "out":
        effects.append(WentOut(character=name))
    return scene, dealt, effects


def saw_use(scene: DistatScene, user: str, talent: str) -> DistatScene:
    """Everyone else in the scene sees ``user`` use ``talent`` (SPEC §1, RULES D13)."""
    found = find(fighter(scene, user).talents, talent)
    name = found.name if found is not None else talent
    seq = scene.uses + 1
    sightings = dict(scene.sightings)
    for f in scene.fighters:
        if f.name != user:
            seen, _ = sightings.get((f.name, user, name), (0, 0))
            sightings[(f.name, user, name)] = (seen + 1, seq)
    return replace(scene, sightings=sightings, uses=seq)


def restrain(
    scene: DistatScene, *, by: str, target: str, stat: Stat
) -> tuple[DistatScene, list[Effect]]:
    """``target`` restrained by ``by`` (RULES D9): the rest of this round, +1 round per Pin."""
    rounds = 1 + count(fighter(scene, by).talents, "pin")
    restraint = Restraint(by=by, stat=stat, rounds=rounds)
    scene = put(scene, replace(fighter(scene, target), restraint=restraint))
    scene = replace(scene, restrained_this_round=scene.restrained_this_round | {by})
    return scene, [BecameRestrained(character=target, by=by, stat=stat, rounds=restraint.remaining)]


def run_clash(scene: DistatScene, clash: Clash) -> tuple[DistatScene, CheckRecord]:
    """Make one opposed check: spend the bonus, compare, apply the winner's effect.

    Only a losing defender is hurt, and only by an attack: 1 point to the stat it defended
    with (RULES D3, D4). A restrain restrains instead; a ``use`` of an effect-less talent
    only compares.
    """
    scene, effects = spend_bonus(scene, clash.actor, clash.bonus)
    extra = 0
    if clash.maneuver == "restrain" and clash.stat == "body":
        extra = situational(fighter(scene, clash.actor).talents, "pincer")
    active = clash.base + clash.bonus + extra
    d = defence(
        scene,
        defender=clash.target,
        stat=clash.stat,
        maneuver=clash.maneuver,
        initiator=clash.actor,
        talent=clash.talent,
    )
    scene, noted = note_defence(scene, clash.target, clash.stat, d)
    effects += noted
    success = ev(fighter(scene, clash.actor), clash.stat) > 0 and wins(
        active=active, passive=d.value, defence_fails=d.auto_fail
    )
    damage: tuple[Damage, ...] = ()
    if success and clash.maneuver == "attack":
        scene, dealt, hurt_effects = deal_damage(scene, clash.target, clash.stat, 1)
        damage = (dealt,) if dealt.amount else ()
        effects += hurt_effects
    elif success and clash.maneuver == "restrain":
        scene, restrained = restrain(scene, by=clash.actor, target=clash.target, stat=clash.stat)
        effects += restrained
    if clash.talent is not None:
        scene = saw_use(scene, clash.actor, clash.talent)
    record = CheckRecord(
        actor=clash.actor,
        verb=verb_of(clash.stat),
        maneuver=clash.maneuver,
        target=clash.target,
        stat=clash.stat,
        active=active,
        passive=d.value,
        outcome="success" if success else "failure",
        damage=damage,
        talent=clash.talent,
        effects=tuple(effects),
    )
    return scene, record
