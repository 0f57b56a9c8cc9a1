"""Split actions: several opposed checks from one action (RULES D7)."""

from __future__ import annotations

from pbp.rulesets.distat.rules.fighter import eav
from pbp.rulesets.distat.rules.guards import (
    Check,
    action_problems,
    actor_problems,
    check_problems,
)
from pbp.rulesets.distat.rules.intents import Restrain, Split, UseTalent
from pbp.rulesets.distat.rules.opposed import Clash, run_clash, verb_of
from pbp.rulesets.distat.rules.records import CheckRecord
from pbp.rulesets.distat.rules.scene import DistatScene, fighter
from pbp.rulesets.distat.rules.talents import situational
from pbp.rulesets.distat.rules.violations import (
    BonusOverPool,
    SplitMixed,
    SplitPartTooLarge,
    SplitShareMissing,
    SplitTooFewParts,
    SplitTooLarge,
    Violation,
)


def maneuver_of(check: Check) -> str:
    """attack, restrain or use."""
    if isinstance(check, Restrain):
        return "restrain"
    return "use" if isinstance(check, UseTalent) else "attack"


def split_problems(scene: DistatScene, split: Split) -> list[Violation]:
    """A split's shape (RULES D7), then each part as a check of its own."""
    found = actor_problems(scene, split.actor)
    if found:
        return found
    f = fighter(scene, split.actor)
    found += action_problems(f, split.stat)
    if len(split.parts) < 2:
        found.append(SplitTooFewParts(actor=split.actor, parts=len(split.parts)))
    for i, part in enumerate(split.parts, start=1):
        if part.actor != split.actor or part.stat != split.stat:
            found.append(SplitMixed(actor=split.actor, part=i))
    found += share_problems(split, eav(f, split.stat))
    for part in split.parts:
        found += [v for v in check_problems(scene, part, in_split=True) if v not in found]
    asked = sum(p.bonus for p in split.parts)
    if asked > f.bonus_pool:  # the parts together must fit the pool too (RULES D15)
        over = BonusOverPool(actor=split.actor, asked=asked, pool=f.bonus_pool)
        found += [] if over in found else [over]
    return found


def share_problems(split: Split, full: int) -> list[Violation]:
    """Each non-final part uses 1 to (left − 1); the shares given add up to at most E."""
    found: list[Violation] = []
    left = full
    total = 0
    last = len(split.parts)
    for i, part in enumerate(split.parts, start=1):
        if part.share is None:
            if i < last:
                found.append(SplitShareMissing(actor=split.actor, part=i))
            continue
        total += part.share
        available = left if i == last else left - 1
        if part.share < 1 or (i < last and part.share > available):
            found.append(
                SplitPartTooLarge(actor=split.actor, part=i, share=part.share, available=available)
            )
        left -= part.share
    if total > full:
        found.append(SplitTooLarge(actor=split.actor, stat=split.stat, total=total, eav=full))
    return found


def void_part(part: Check, reason: Violation) -> CheckRecord:
    """The record of a part that could not be made."""
    return CheckRecord(
        actor=part.actor,
        verb=verb_of(part.stat),
        maneuver=maneuver_of(part),
        target=part.target,
        stat=part.stat,
        active=None,
        passive=None,
        outcome="void",
        reason=reason,
        talent=part.talent,
    )


def run_split(scene: DistatScene, split: Split) -> tuple[DistatScene, tuple[CheckRecord, ...]]:
    """Make the parts in order. E = EAV with always-on bonuses; each non-final part uses its
    share, the final one all that is left; nothing is kept: the EAV is E again afterwards.

    Indiscriminate adds to each part of a Mental split with several targets, no part above
    E − 1.
    """
    full = eav(fighter(scene, split.actor), split.stat)
    spread = len({p.target for p in split.parts}) > 1
    boost = situational(fighter(scene, split.actor).talents, "indiscriminate")
    boost = boost if split.stat == "mind" and spread else 0
    left = full
    records: list[CheckRecord] = []
    for i, part in enumerate(split.parts):
        final = i == len(split.parts) - 1
        share = left if final else (part.share or 0)
        base = max(share, min(share + boost, full - 1)) if boost else share
        problems = check_problems(scene, part, in_split=True)
        if problems:
            records.append(void_part(part, problems[0]))
        else:
            scene, record = run_clash(
                scene,
                Clash(
                    actor=part.actor,
                    stat=part.stat,
                    target=part.target,
                    maneuver=maneuver_of(part),
                    base=base,
                    bonus=part.bonus,
                    talent=part.talent,
                ),
            )
            records.append(record)
        left -= share
    return scene, tuple(records)
