"""Resolving a skirmish or battle round at the close, in initiative order (SPEC §4.4, RULES §4).

At the encounter's first close every entity gets its pools (RULES M1 in a skirmish, the sheet's
HP and WP in a battle) and rolls initiative with the round's own key ``("r<round>",
"initiative", <entity>)`` (RULES M4, M5); an entity added later rolls at the next close. Each
entity then takes its turn: its courses in post order, skipped when it is out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pbp.campaign.model import Campaign
from pbp.engine.problems import COULD_NOT_RESOLVE
from pbp.engine.report import CorrectionEntry
from pbp.engine.ruleset import guarded
from pbp.engine.state import Accepted, PostRecord
from pbp.errors import Problem
from pbp.rules.dice.notation import evaluate, parse_notation
from pbp.rules.dice.seeded import RecordingDice
from pbp.rules.dice.source import Roller
from pbp.rulesets.markhor.engine.model import (
    Course,
    MarkhorEntry,
    MarkhorRecord,
    MarkhorReport,
    MarkhorState,
)
from pbp.rulesets.markhor.rules.actions import Cost, react, spend_on_turn, start_turn
from pbp.rulesets.markhor.rules.advantage import clamp_net, roll_with
from pbp.rulesets.markhor.rules.errors import MarkhorError
from pbp.rulesets.markhor.rules.initiative import (
    InitiativeRoll,
    battle_initiative,
    skirmish_initiative,
)
from pbp.rulesets.markhor.rules.pools import (
    Pools,
    SkirmishFormula,
    battle_pools,
    cast_cost,
    heal,
    heal_by,
    skirmish_pools,
    take_damage,
)
from pbp.rulesets.markhor.rules.skirmish import Outcome, needs_roll, skirmish_outcome
from pbp.rulesets.markhor.sheet import MarkhorOptions
from pbp.tags import resolve_name
from pbp.tags.commands import DamageCommand, HealCommand
from pbp.values import frozen_value, replace

Scores = Callable[[str], Mapping[str, int | None]]


@frozen_value
class MarkhorItem:
    """An accepted skirmish or battle tag of a live post, in post order."""

    post: PostRecord
    accepted: Accepted


def skirmish_formula(campaign: Campaign) -> SkirmishFormula:
    """The campaign's formula for skirmish pools (RULES M1: a per-campaign setting)."""
    options = campaign.options.part(MarkhorOptions)
    return SkirmishFormula(minimum=options.skirmish_minimum, per_point=options.skirmish_per_point)


def _pools_for(mode: str, scores: Mapping[str, int | None], formula: SkirmishFormula) -> Pools:
    if mode == "skirmish":  # RULES M1
        return skirmish_pools(
            constitution=scores.get("constitution") or 0, wisdom=scores.get("wisdom") or 0,
            formula=formula,
        )  # fmt: skip
    return battle_pools(hp=scores.get("hp"), wp=scores.get("wp"))


def with_pools(
    markhor: MarkhorState,
    entities: Sequence[tuple[str, str]],
    scores: Scores,
    *,
    formula: SkirmishFormula,
) -> MarkhorState:
    """Every entity of the scene given its pools, at full, if it has none yet; a foe fallen
    in a won skirmish has none (RULES M8: it is not back in the fight)."""
    for name, _side in entities:
        if markhor.pool(name) is None and markhor.fate(name) is None:
            full = _pools_for(markhor.mode, scores(name), formula)
            markhor = replace(markhor.with_pool(name, full), full=(*markhor.full, (name, full)))
    return markhor


PoolFix = tuple[PostRecord, DamageCommand | HealCommand]


def correct_pools(
    markhor: MarkhorState, fixes: Sequence[PoolFix]
) -> tuple[MarkhorState, list[CorrectionEntry], list[tuple[str, Problem]]]:
    """The GM's ``!damage NAME hp N`` / ``!heal NAME wp N`` on the fight's pools, before the
    turns (a fight resolves in initiative order, where a GM post has no place); a pool stays
    between 0 and full. Returns the corrections made and (post id, problem) for the refused."""
    done: list[CorrectionEntry] = []
    refused: list[tuple[str, Problem]] = []
    names = tuple(name for name, _ in markhor.pools)
    for post, command in fixes:
        name = resolve_name(command.name, candidates=names)
        if not isinstance(name, str):
            src = command.source
            refused.append(
                (post.post_id, replace(name, tag=src.text, line=src.line, column=src.column))
            )
            continue
        now, full = markhor.pool(name), markhor.full_pool(name)
        assert now is not None and full is not None
        delta = -command.amount if isinstance(command, DamageCommand) else command.amount
        shifted = _shifted(now, full, command.stat, delta)
        markhor = markhor.with_pool(name, shifted)
        what = "damage" if isinstance(command, DamageCommand) else "heal"
        changed = abs(getattr(shifted, command.stat) - getattr(now, command.stat))
        done.append(CorrectionEntry(post_id=post.post_id, command=command.source.text,
                                    character=name, what=what, stat=command.stat,
                                    amount=command.amount, changed=changed))  # fmt: skip
    return markhor, done, refused


def _shifted(now: Pools, full: Pools, stat: str, delta: int) -> Pools:
    if stat == "hp":
        return replace(now, hp=min(max(now.hp + delta, 0), max(full.hp, now.hp)))
    return replace(now, wp=min(max(now.wp + delta, 0), max(full.wp, now.wp)))


def _initiative(
    markhor: MarkhorState,
    entities: Sequence[tuple[str, str]],
    *,
    scores: Scores,
    dice: RecordingDice,
    round_number: int,
) -> tuple[MarkhorState, tuple[InitiativeRoll, ...]]:
    """Roll for the entities not in the order yet; merge them in by total."""
    placed = {r.name for r in markhor.order}
    index = {name: i for i, (name, _side) in enumerate(entities)}
    new = [(n, s) for n, s in entities if n not in placed]
    if not new:
        return markhor, ()
    rollers: dict[str, Roller] = {
        n: dice.for_key(f"r{round_number}", "initiative", index[n]) for n, _ in new
    }
    if markhor.mode == "skirmish":  # RULES M4: a straight d24, +24 for the ambushing side
        rolled = skirmish_initiative(new, ambush=markhor.ambush, roller_for=rollers.__getitem__)
    else:  # RULES M5: d24 + Intuition
        with_intuition = [(n, scores(n).get("intuition") or 0) for n, _ in new]
        rolled = battle_initiative(with_intuition, roller_for=rollers.__getitem__)
    merged = sorted((*markhor.order, *rolled), key=lambda r: -r.total)  # stable: ties keep order
    return replace(markhor, order=tuple(merged)), rolled


@dataclass(slots=True)
class _Round:
    markhor: MarkhorState
    dice: RecordingDice
    scores: Scores

    def start_turn(self, name: str, turn: int) -> None:
        """A battle turn begins: the entity regains all its AP (the seed's Battle Turns)."""
        stamina = self.scores(name).get("stamina") or 0
        budget = start_turn(self.markhor.budget(name), stamina=stamina, turn=turn)
        self.markhor = self.markhor.with_budget(name, budget)

    def pay(self, name: str, *, reaction_turn: int | None) -> str | None:
        """Spend 1 AP on a standard action (RULES M7 for a reaction); the refusal code if the
        rules refuse it."""
        budget = self.markhor.budget(name)
        try:
            if reaction_turn is None:
                budget = spend_on_turn(budget, Cost.STANDARD)
            else:
                budget = react(budget, Cost.STANDARD, turn=reaction_turn)
        except MarkhorError as refused:
            return refused.code
        self.markhor = self.markhor.with_budget(name, budget)
        return None

    def safely(self, item: MarkhorItem, course: Course, turn: int) -> MarkhorRecord:
        """A course in turn ``turn``; one whose resolution fails is void, the fight as it was
        before it, and the round goes on (no exception inside one action may lose a close)."""
        before = self.markhor

        def void(why: str) -> MarkhorRecord:
            self.markhor = before
            return replace(
                self.bare(course, turn),
                reaction=course.react,
                outcome="void",
                reason=COULD_NOT_RESOLVE,
            )

        return guarded(lambda: self.act(item, course, turn), void)

    def act(self, item: MarkhorItem, course: Course, turn: int) -> MarkhorRecord:
        """A course in turn ``turn``: its AP paid first in a battle."""
        if self.markhor.mode == "battle" and not self.markhor.is_out(course.actor):
            refused = self.pay(course.actor, reaction_turn=turn if course.react else None)
            if refused is not None:
                bare = self.bare(course, turn)
                return replace(bare, reaction=course.react, outcome="void", reason=refused)
        record = replace(self.course(item, course, turn), reaction=course.react)
        if self.markhor.mode == "battle":
            record = replace(record, ap_left=float(self.markhor.budget(course.actor).ap_left))
        return record

    def bare(self, course: Course, turn: int) -> MarkhorRecord:
        """A course's record before anything happens."""
        return MarkhorRecord(
            actor=course.actor, verb=course.verb, mode=self.markhor.mode, target=course.target,
            text=course.text, turn=turn,
        )  # fmt: skip

    def course(self, item: MarkhorItem, course: Course, turn: int) -> MarkhorRecord:
        record = self.bare(course, turn)
        difficulty = self.markhor.call(item.post.post_id, course.actor)
        # one roller per tag: its advantage roll first, then its damage or heal (RULES §6)
        roller = self.dice.for_key(item.post.post_id, item.accepted.tag.source.index)
        seen = len(self.dice.records)
        if course.advantage or needs_roll(gm_requires=difficulty is not None):
            # RULES M6: cancel, clamp to ±2, roll d24s and keep one. A called roll (RULES M9)
            # is a d24 too: the die Markhorspire rolls for initiative; the seed names no other
            rolled = roll_with(sides=24, net=clamp_net(course.advantage), roller=roller)
            record = replace(record, net_advantage=rolled.net, dice=rolled.dice,
                             kept=rolled.kept, difficulty=difficulty)  # fmt: skip
        record = self._landed(record, course, difficulty, roller)
        return replace(record, rolls=self.dice.records[seen:])

    def _landed(
        self, record: MarkhorRecord, course: Course, difficulty: int | None, roller: Roller
    ) -> MarkhorRecord:
        if self.markhor.is_out(course.actor):
            return replace(record, outcome="void", reason="actor_out")
        if difficulty is not None and (record.kept or 0) < difficulty:
            return replace(record, outcome="failure")  # RULES M9: the called roll missed
        match course.verb:
            case "attack":
                return self._hit(record, course, self._amount(record, course, roller))
            case "cast" | "heal":
                return self._cast(record, course, roller)
        return record  # RULES M9: any other course succeeds unless the GM calls for a roll

    def _amount(self, record: MarkhorRecord, course: Course, roller: Roller) -> int:
        """A battle hit's damage or heal's HP: the tag's number or dice, 1 when it gives none
        (RULES §6). A skirmish hit does 1 (M2), whatever the tag says."""
        if self.markhor.mode != "battle" or course.amount is None:
            return 1
        return max(0, evaluate(parse_notation(course.amount), roller=roller).total)

    def _hit(self, record: MarkhorRecord, course: Course, amount: int) -> MarkhorRecord:
        target = course.target or ""
        before = self.markhor.pool(target)
        if before is None or before.out:
            return replace(record, outcome="void", reason="target_out")
        after = take_damage(before, amount=amount)  # RULES M2: HP first, then WP
        self.markhor = self.markhor.with_pool(target, after)
        taken = tuple(
            (target, stat, lost)
            for stat, lost in (("hp", before.hp - after.hp), ("wp", before.wp - after.wp))
            if lost
        )
        out = (*record.out, target) if after.out else record.out
        return replace(
            record, damage=(*record.damage, *taken), out=out, **self._rolled(course, amount)
        )

    def _rolled(self, course: Course, amount: int) -> dict[str, Any]:
        if self.markhor.mode != "battle" or course.amount is None:
            return {}
        return {"amount": course.amount, "amount_rolled": amount}

    def _cast(self, record: MarkhorRecord, course: Course, roller: Roller) -> MarkhorRecord:
        caster = self.markhor.pool(course.actor)
        if caster is None or caster.wp <= 0:
            return replace(record, outcome="void", reason="no_wp_to_cast")
        target = course.target or ""
        aimed = self.markhor.pool(target)
        if aimed is None or aimed.out:  # RULES M3: no healing back into the fight
            return replace(record, outcome="void", reason="target_out")
        caster = cast_cost(caster)  # RULES M2: a cast costs 1 WP, paid first
        self.markhor = self.markhor.with_pool(course.actor, caster)
        record = replace(record, caster_wp=caster.wp, out=(course.actor,) if caster.out else ())
        aimed = self.markhor.pool(target) or aimed  # the caster may be its own target
        if aimed.out:  # RULES §6: put out by paying, its own heal does not land; WP stays spent
            return replace(record, outcome="void", reason="put_out_by_cost")
        amount = self._amount(record, course, roller)
        if course.verb == "cast":
            return self._hit(record, course, amount)
        full = self.markhor.full_pool(target) or aimed
        if self.markhor.mode == "battle":  # RULES §6: the tag's amount, not M3's full heal
            healed = heal_by(aimed, full=full, amount=amount)
        else:
            healed = heal(aimed, full=full)  # RULES M3: all Skirmish HP back
        self.markhor = self.markhor.with_pool(target, healed)
        return replace(record, healed=healed.hp - aimed.hp, **self._rolled(course, amount))


def _course(item: MarkhorItem) -> Course:
    course = item.accepted.intent
    assert isinstance(course, Course)
    return course


def _ended(markhor: MarkhorState, entities: Sequence[tuple[str, str]]) -> Outcome | None:
    if markhor.mode != "skirmish":
        return None
    sides: dict[str, list[bool]] = {}
    for name, side in entities:
        sides.setdefault(side, []).append(markhor.is_out(name))
    return skirmish_outcome(sides=sides)  # RULES M8


def resolve_markhor(
    items: Sequence[MarkhorItem],
    *,
    markhor: MarkhorState,
    entities: Sequence[tuple[str, str]],
    scores: Scores,
    dice: RecordingDice,
    round_number: int,
    formula: SkirmishFormula,
) -> tuple[MarkhorState, MarkhorReport]:
    """Resolve one skirmish or battle round in initiative order."""
    markhor = with_pools(markhor, entities, scores, formula=formula)
    seen = len(dice.records)
    markhor, rolled = _initiative(
        markhor, entities, scores=scores, dice=dice, round_number=round_number
    )
    initiative_rolls = dice.records[seen:]
    run = _Round(markhor=markhor, dice=dice, scores=scores)
    entries: list[MarkhorEntry] = []
    for turn, roll in enumerate(markhor.order, start=1):
        if markhor.mode == "battle":
            run.start_turn(roll.name, turn)
        own = [i for i in items if i.accepted.actor == roll.name and not _course(i).react]
        # RULES M7: reactions to this entity's turn come after its own actions
        reacting = [i for i in items if _course(i).react and _course(i).target == roll.name]
        for item in (*own, *reacting):
            entries.append(MarkhorEntry(
                post_id=item.post.post_id, author=item.post.author,
                tag=item.accepted.tag.source.text, record=run.safely(item, _course(item), turn),
                on_behalf=item.accepted.on_behalf,
            ))  # fmt: skip
    run.markhor = replace(run.markhor, calls=())  # the called rolls are made
    ended = _ended(run.markhor, entities)
    report = MarkhorReport(
        mode=markhor.mode, initiative=rolled, initiative_rolls=initiative_rolls,
        order=tuple(r.name for r in run.markhor.order), entries=tuple(entries),
        pools=run.markhor.pools, ended=ended,
    )  # fmt: skip
    return run.markhor, report
