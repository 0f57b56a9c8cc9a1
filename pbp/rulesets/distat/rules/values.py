"""Effective values in a scene: the crowd penalty and the defence of an opposed check."""

from __future__ import annotations

from pbp.rulesets.distat.rules.fighter import Fighter, eav, epv, ev, status
from pbp.rulesets.distat.rules.intents import Stat
from pbp.rulesets.distat.rules.scene import DistatScene, fighter, group, members
from pbp.rulesets.distat.rules.talents import find, situational, talent_key
from pbp.values import frozen_value

Maneuver = str
"""attack | restrain | escape | use | threaten: what the defence is against."""


def neighbours(scene: DistatScene, name: str) -> tuple[Fighter, ...]:
    """The other characters in ``name``'s group that are not Out."""
    gid = group(scene, name)
    chars = {f.name for f in scene.fighters}
    return tuple(
        fighter(scene, m)
        for m in members(scene, gid)
        if m != name and m in chars and status(fighter(scene, m)) != "out"
    )


def adjacent_enemies(scene: DistatScene, name: str) -> tuple[Fighter, ...]:
    """Enemies in ``name``'s group that are not Out."""
    me = fighter(scene, name)
    return tuple(f for f in neighbours(scene, name) if f.side != me.side)


def adjacent_allies(scene: DistatScene, name: str) -> tuple[Fighter, ...]:
    """Allies in ``name``'s group, itself excluded, that are not Out."""
    me = fighter(scene, name)
    return tuple(f for f in neighbours(scene, name) if f.side == me.side)


def crowd_penalty(scene: DistatScene, name: str) -> int:
    """Body EPV penalty: 1 per not-Out enemy in the group beyond the first, less Deflection,
    never below 0 (RULES D11)."""
    extra = max(0, len(adjacent_enemies(scene, name)) - 1)
    deflection = situational(fighter(scene, name).talents, "deflection")
    return max(0, extra - deflection)


def eav_in_scene(scene: DistatScene, name: str, stat: Stat, *, per_check: int = 0) -> int:
    """EAV with always-on modifiers and ``per_check`` bonuses (RULES D1)."""
    return eav(fighter(scene, name), stat, per_check=per_check)


def epv_in_scene(scene: DistatScene, name: str, stat: Stat, *, per_check: int = 0) -> int:
    """EPV with always-on modifiers, ``per_check`` bonuses and, for Body, the crowd penalty
    (RULES D1, D11)."""
    penalty = crowd_penalty(scene, name) if stat == "body" else 0
    return epv(fighter(scene, name), stat, per_check=per_check) - penalty


@frozen_value
class Defence:
    """How a defender stands in one opposed check."""

    value: int
    auto_fail: bool
    lifewell: bool


def defence(
    scene: DistatScene,
    *,
    defender: str,
    stat: Stat,
    maneuver: Maneuver,
    initiator: str,
    talent: str | None = None,
    extra: int = 0,
) -> Defence:
    """The defender's EPV for this check, every modifier included, and whether it auto-fails.

    An EV of 0 or less fails without a comparison (RULES D5b), unless Lifewell applies: Mind EV
    exactly 0, not used yet this encounter: +1 EPV and a normal comparison.
    """
    me = fighter(scene, defender)
    bonus = extra + _situational_defence(scene, me, stat=stat, maneuver=maneuver)
    bonus += identify_bonus(scene, defender=defender, initiator=initiator, talent=talent)
    lifewell = (
        stat == "mind"
        and ev(me, "mind") == 0
        and not me.lifewell_used
        and situational(me.talents, "lifewell") > 0
    )
    if lifewell:
        bonus += situational(me.talents, "lifewell")
    value = epv_in_scene(scene, defender, stat, per_check=bonus)
    return Defence(value=value, auto_fail=ev(me, stat) <= 0 and not lifewell, lifewell=lifewell)


def _situational_defence(scene: DistatScene, me: Fighter, *, stat: Stat, maneuver: Maneuver) -> int:
    bonus = 0
    if stat == "body" and maneuver == "restrain":
        bonus += situational(me.talents, "anchor")
    if stat == "mind" and me.name not in scene.mental_this_round:
        # Focused Resolve: a round with no Mental action of its own (so far this round)
        bonus += situational(me.talents, "focusedresolve")
    if maneuver == "threaten":
        bonus += situational(me.talents, "controller")
    return bonus


def identify_bonus(scene: DistatScene, *, defender: str, initiator: str, talent: str | None) -> int:
    """+1 EPV for an active talent used in the check that the defender has Identified as used
    by this initiator (RULES D14; with the option, the defender must also own it)."""
    if talent is None:
        return 0
    key = talent_key(talent)
    known = any(
        obs == defender and tgt == initiator and talent_key(t) == key
        for obs, tgt, t in scene.identified
    )
    if not known:
        return 0
    if scene.options.identify_bonus_requires_owning:
        return 1 if find(fighter(scene, defender).talents, talent) is not None else 0
    return 1
