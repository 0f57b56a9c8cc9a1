"""Round and encounter bookkeeping: restraint durations, recovery, GM corrections
(RULES D9, D15, D16)."""

from __future__ import annotations

from collections.abc import Collection, Mapping

from pbp.rulesets.distat.rules.fighter import Fighter, damage, hurt, invested, with_damage
from pbp.rulesets.distat.rules.intents import STATS, Stat
from pbp.rulesets.distat.rules.scene import DistatScene, fighter, new_scene, put
from pbp.values import replace

POINTS_PER_DAMAGE = 2  # RULES D16 step 3: every 2 bonus points remove 1 damage


def begin_round(scene: DistatScene) -> DistatScene:
    """Clear the per-round flags (who restrained, who took a Mental action)."""
    return replace(scene, restrained_this_round=frozenset(), mental_this_round=frozenset())


def end_round(scene: DistatScene) -> DistatScene:
    """Count restraints down and clear the per-round flags (RULES D9).

    A restraint whose target took no turn after it this round also covers the whole next
    round; otherwise it ends with the round (Pin adds rounds).
    """
    fighters = tuple(_count_down(f) for f in scene.fighters)
    return begin_round(replace(scene, fighters=fighters))


def _count_down(f: Fighter) -> Fighter:
    if f.restraint is None:
        return f
    left = f.restraint.remaining - 1
    if left <= 0:
        return replace(f, restraint=None)
    return replace(f, restraint=replace(f.restraint, rounds=left, pending=False))


def apply_damage(scene: DistatScene, *, name: str, stat: Stat, amount: int) -> DistatScene:
    """A GM's correction: ``amount`` damage to ``stat`` (Eternal applies); negative heals."""
    f = fighter(scene, name)
    if amount >= 0:
        return put(scene, hurt(f, stat, amount))
    return put(scene, with_damage(f, stat, damage(f, stat) + amount))


def add_bonus(scene: DistatScene, *, name: str, amount: int) -> DistatScene:
    """The GM adds (or takes, if negative) bonus-pool points; the pool never goes below 0.

    A GM's grant may exceed the pool maximum: the GM saying so is the exception (RULES D15).
    """
    f = fighter(scene, name)
    return put(scene, replace(f, bonus_pool=max(0, f.bonus_pool + amount)))


def short_rest_damage(*, full: int, damage: int, helped: bool) -> int:
    """A stat's damage after an encounter's short rest (RULES D16 steps 1 and 2).

    Below 0: back to 0, or 1 with medical attention / rallying if its full value is above 0.
    Else below half of full (rounded down): back to half.
    """
    value = full - damage
    if value < 0:
        return full - (1 if helped and full > 0 else 0)
    half = full // 2
    return full - half if value < half else damage


def short_rest(f: Fighter, *, medic: bool, rally: bool, spend: Mapping[Stat, int]) -> Fighter:
    """D16 for one fighter: steps 1 and 2 per stat, then bonus points, 2 per damage point.

    Only the points that heal are spent (the rest stay in the pool).
    """
    helped = {"body": medic, "mind": rally}
    for stat in STATS:
        f = with_damage(
            f,
            stat,
            short_rest_damage(full=invested(f, stat), damage=damage(f, stat), helped=helped[stat]),
        )
    asked = sum(spend.values())
    if any(points < 0 for points in spend.values()) or asked > f.bonus_pool:
        raise ValueError(f"{f.name} cannot spend {asked} of {f.bonus_pool} bonus points")
    for stat, points in spend.items():
        healed = min(points // POINTS_PER_DAMAGE, damage(f, stat))
        spent = POINTS_PER_DAMAGE * healed
        f = replace(with_damage(f, stat, damage(f, stat) - healed), bonus_pool=f.bonus_pool - spent)
    return f


def end_encounter(
    scene: DistatScene,
    *,
    medic: Collection[str] = (),
    rally: Collection[str] = (),
    spend: Mapping[str, Mapping[Stat, int]] | None = None,
) -> DistatScene:
    """The short rest for everyone (RULES D16), then a fresh scene: everyone alone, no
    features, no restraints, Lifewell ready again; damage, pools and knowledge kept."""
    spend = spend or {}
    unknown = set(spend) - {f.name for f in scene.fighters}
    if unknown:
        raise KeyError(sorted(unknown)[0])
    rested = [
        replace(
            short_rest(
                f, medic=f.name in medic, rally=f.name in rally, spend=spend.get(f.name, {})
            ),
            restraint=None,
            lifewell_used=False,
        )
        for f in scene.fighters
    ]
    fresh = new_scene(rested, options=scene.options)
    return replace(fresh, sightings=scene.sightings, identified=scene.identified, uses=scene.uses)


def night_rest(scene: DistatScene) -> DistatScene:
    """A full night's rest: 2 damage less on each stat of everyone (RULES D16)."""
    fighters = tuple(
        with_damage(with_damage(f, "body", f.damage_body - 2), "mind", f.damage_mind - 2)
        for f in scene.fighters
    )
    return replace(scene, fighters=fighters)
