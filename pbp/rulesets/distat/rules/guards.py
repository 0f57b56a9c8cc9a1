"""What an actor, a target, a talent or a bonus must satisfy (RULES D5, D9, D15, D18)."""

from __future__ import annotations

from pbp.rulesets.distat.rules.fighter import Fighter, bonus_cap, can_act_with, status
from pbp.rulesets.distat.rules.intents import Attack, Escape, Feat, Restrain, Stat, UseTalent
from pbp.rulesets.distat.rules.scene import (
    DistatScene,
    find_feature,
    find_fighter,
    is_member,
    same_group,
)
from pbp.rulesets.distat.rules.talents import find
from pbp.rulesets.distat.rules.violations import (
    ActorOut,
    AlreadyRestrained,
    BonusNegative,
    BonusOverCap,
    BonusOverPool,
    NoSuchTalent,
    NotACharacter,
    NotAdjacent,
    NotAFeature,
    NoTargetNumber,
    NotRestrained,
    Restrained,
    SelfTarget,
    ShareOutsideSplit,
    StatTooLow,
    TalentNotActive,
    TalentWrongStat,
    TargetOut,
    UnknownFeatureTn,
    UnknownName,
    Violation,
)

Check = Attack | Restrain | UseTalent


def actor_problems(scene: DistatScene, actor: str) -> list[Violation]:
    """The actor must be a character of the scene and not Out (RULES D6)."""
    f = find_fighter(scene, actor)
    if f is None:
        return [UnknownName(name=actor)]
    if status(f) == "out":
        return [ActorOut(actor=actor)]
    return []


def action_problems(f: Fighter, stat: Stat, *, escape: bool = False) -> list[Violation]:
    """Taking ``stat``'s action: not restrained in it (escape aside), EV and EAV above 0."""
    found: list[Violation] = []
    if f.restraint is not None and f.restraint.stat == stat and not escape:
        found.append(Restrained(actor=f.name, kind=stat))  # RULES D9
    if not can_act_with(f, stat):
        found.append(StatTooLow(actor=f.name, stat=stat))  # RULES D5
    return found


def bonus_problems(f: Fighter, asked: int, *, pool: int | None = None) -> list[Violation]:
    """A bonus-pool spend: not negative, within the per-check cap and the pool (RULES D15)."""
    pool = f.bonus_pool if pool is None else pool
    if asked < 0:
        return [BonusNegative(actor=f.name, asked=asked)]
    found: list[Violation] = []
    if asked > bonus_cap(f):
        found.append(BonusOverCap(actor=f.name, asked=asked, cap=bonus_cap(f)))
    if asked > pool:
        found.append(BonusOverPool(actor=f.name, asked=asked, pool=pool))
    return found


def target_problems(
    scene: DistatScene, *, actor: str, target: str, stat: Stat, restrain: bool
) -> list[Violation]:
    """The target of an opposed check: a character, not the actor, adjacent for Body (D18)."""
    if not is_member(scene, target):
        return [UnknownName(name=target)]
    if target == actor:
        return [SelfTarget(actor=actor)]
    t = find_fighter(scene, target)
    if t is None:
        return [NotACharacter(target=target)]
    found: list[Violation] = []
    if stat == "body" and not same_group(scene, actor, target):
        found.append(NotAdjacent(actor=actor, target=target))
    if restrain and status(t) == "out":
        found.append(TargetOut(target=target))
    if restrain and t.restraint is not None:
        found.append(AlreadyRestrained(target=target))  # RULES D9
    return found


def talent_problems(f: Fighter, talent: str | None, stat: Stat) -> list[Violation]:
    """A talent used in a check: on the sheet, active, of the action's stat."""
    if talent is None:
        return []
    t = find(f.talents, talent)
    if t is None:
        return [NoSuchTalent(actor=f.name, talent=talent)]
    if t.kind != "active":
        return [TalentNotActive(actor=f.name, talent=t.name)]
    if t.stat != stat:
        return [TalentWrongStat(actor=f.name, talent=t.name, stat=stat)]
    return []


def check_problems(
    scene: DistatScene, check: Check, *, in_split: bool, pool: int | None = None
) -> list[Violation]:
    """Everything an attack, restrain or talent use needs (RULES D5, D9, D14, D18)."""
    found = actor_problems(scene, check.actor)
    if found:
        return found
    f = find_fighter(scene, check.actor)
    assert f is not None
    found += action_problems(f, check.stat)
    if check.share is not None and not in_split:
        found.append(ShareOutsideSplit(actor=check.actor))
    found += target_problems(
        scene,
        actor=check.actor,
        target=check.target,
        stat=check.stat,
        restrain=isinstance(check, Restrain),
    )
    found += talent_problems(f, check.talent, check.stat)
    found += bonus_problems(f, check.bonus, pool=pool)
    return found


def escape_problems(scene: DistatScene, intent: Escape) -> list[Violation]:
    """Escape needs a physical restraint and a usable Body (RULES D9)."""
    found = actor_problems(scene, intent.actor)
    if found:
        return found
    f = find_fighter(scene, intent.actor)
    assert f is not None
    if f.restraint is None or f.restraint.stat != "body":
        found.append(NotRestrained(actor=f.name))
    found += action_problems(f, "body", escape=True)
    found += bonus_problems(f, intent.bonus)
    return found


def feat_problems(scene: DistatScene, intent: Feat) -> list[Violation]:
    """A stat check needs a usable stat and a target number (RULES D19)."""
    found = actor_problems(scene, intent.actor)
    if found:
        return found
    f = find_fighter(scene, intent.actor)
    assert f is not None
    found += action_problems(f, intent.stat)
    found += _tn_problems(scene, intent)
    found += bonus_problems(f, intent.bonus)
    return found


def _tn_problems(scene: DistatScene, intent: Feat) -> list[Violation]:
    if intent.feature is None:
        return [] if intent.tn is not None else [NoTargetNumber(actor=intent.actor)]
    feature = find_feature(scene, intent.feature)
    if feature is None:
        if find_fighter(scene, intent.feature) is not None:
            return [NotAFeature(target=intent.feature)]
        return [UnknownName(name=intent.feature)]
    if intent.tn is None and feature.tn is None:
        return [UnknownFeatureTn(feature=feature.name)]
    return []


def feat_tn(scene: DistatScene, intent: Feat) -> int:
    """The target number of a valid feat: the one given, else the feature's."""
    if intent.tn is not None:
        return intent.tn
    assert intent.feature is not None
    feature = find_feature(scene, intent.feature)
    assert feature is not None and feature.tn is not None
    return feature.tn
