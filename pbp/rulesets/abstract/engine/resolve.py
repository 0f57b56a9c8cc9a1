"""Resolving an abstract interval at the close (RULES §2).

The order: the GM's opposition is rolled first (``!oppose`` speaks for the whole interval, RULES
E9); then the Reaction Dice fix who goes first when order matters (RULES E12): the characters
who rolled one act in that order, everyone else after them in post order. Each ``[abstract:]``
then rolls its d20 and action dice with the round's keyed dice (post id, tag index) and pays,
spends all, banks or lets the bot choose.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pbp.engine.problems import COULD_NOT_RESOLVE
from pbp.engine.ruleset import guarded
from pbp.engine.state import Accepted, PostRecord
from pbp.rules.dice.seeded import RecordingDice, RollRecord
from pbp.rules.dice.source import Roller
from pbp.rulesets.abstract.engine.model import (
    AbstractAction,
    AbstractEntry,
    AbstractRecord,
    AbstractReport,
    AbstractState,
    Opposition,
    Outlook,
    ReactionRoll,
    Task,
)
from pbp.rulesets.abstract.rules.odds import completion_odds
from pbp.rulesets.abstract.rules.payment import PoolUse, auto, bank_best, meets, spend, spend_all
from pbp.rulesets.abstract.rules.pool import roll_action_dice
from pbp.rulesets.abstract.rules.reaction import reaction_order
from pbp.tags import resolve_name
from pbp.tags.commands import OpposeCommand
from pbp.values import frozen_value, replace

OUTLOOK_INTERVALS = (1, 3, 5)


@frozen_value
class AbstractItem:
    """An accepted abstract tag of a live post, in post order."""

    post: PostRecord
    accepted: Accepted


def undo_abstract(before: AbstractState, *, now: AbstractState) -> AbstractState:
    """The abstract state of a re-opened round (``!undo``): the banks and completed tasks as
    the round opened, the tasks as the GM has set them since (set-up still stands)."""
    done = {t.name: t.done_by for t in before.tasks}
    tasks = tuple(replace(t, done_by=done.get(t.name)) for t in now.tasks)
    return replace(now, tasks=tasks, banks=before.banks)


def command_key(post_id: str, line: int) -> tuple[str, str, int]:
    """The dice key of a command's rolls (SPEC §6): (post id, "cmd", line)."""
    return (post_id, "cmd", line)


def _roll_opposition(
    opposes: Sequence[tuple[str, OpposeCommand]],
    *,
    abstract: AbstractState,
    dice: RecordingDice,
) -> tuple[Opposition, ...]:
    out: list[Opposition] = []
    for post_id, command in opposes:
        task = resolve_name(command.task, candidates=tuple(t.name for t in abstract.tasks))
        if not isinstance(task, str):
            continue  # refused when it was read: the task was never there
        roller = dice.for_key(*command_key(post_id, command.source.line))
        seen = len(dice.records)
        rolled = tuple(roller.roll(command.sides) for _ in range(command.dice))
        out.append(
            Opposition(post_id=post_id, task=task, dice=rolled,
                       rolls=dice.records[seen:])
        )  # fmt: skip
    return tuple(out)


def _keyed(item: AbstractItem) -> tuple[str, int]:
    return (item.post.post_id, item.accepted.tag.source.index)


def _entry(item: AbstractItem, record: AbstractRecord, order: int) -> AbstractEntry:
    return AbstractEntry(
        post_id=item.post.post_id,
        author=item.post.author,
        tag=item.accepted.tag.source.text,
        record=record,
        on_behalf=item.accepted.on_behalf,
        order=(order, 0),
    )


def _reactions(
    items: Sequence[AbstractItem], *, dice: RecordingDice
) -> tuple[list[str], list[AbstractEntry]]:
    """Who acts first (RULES E12), and one entry per ``[reaction]`` with its dice."""
    reacting = [i for i in items if isinstance(i.accepted.intent, ReactionRoll)]
    rollers: dict[str, Roller] = {i.accepted.actor: dice.for_key(*_keyed(i)) for i in reacting}
    order = reaction_order(list(rollers), roller_for=rollers.__getitem__)
    by_actor = {i.accepted.actor: i for i in reacting}
    records = dice.records
    entries: list[AbstractEntry] = []
    for place, rolled in enumerate(order, start=1):
        item = by_actor[rolled.name]
        record = AbstractRecord(
            actor=rolled.name, verb="reaction", dice=rolled.rolls, roll=rolled.rolls[0],
            order=place, rolls=tuple(r for r in records if r.key == _keyed(item)),
        )  # fmt: skip
        entries.append(_entry(item, record, len(entries)))
    return [r.name for r in order], entries


@dataclass(slots=True)
class _Interval:
    """The running state of one interval's resolution."""

    abstract: AbstractState
    opposition: dict[str, int]  # task name -> GM pips not yet absorbed this interval
    dice: RecordingDice

    def use_pool(self, intent: AbstractAction, pool: tuple[int, ...], task: Task) -> PoolUse | None:
        bank = self.abstract.bank(intent.actor)
        match intent.payment:
            case "bank":
                return bank_best(pool)
            case "all":
                return spend_all(pool, bank=bank)
            case "spend":
                return spend(pool, need=intent.amount or 0, bank=bank)
        dc = None if task.secret else task.dc  # RULES E8: a secret DC cannot be aimed at
        return auto(pool, dc=dc, bank=bank, opposition=self.opposition.get(task.name, 0))

    def resolve(self, item: AbstractItem, intent: AbstractAction) -> AbstractRecord:
        roller = self.dice.for_key(*_keyed(item))
        seen = len(self.dice.records)
        skill_roll, pool = roll_action_dice(
            modifier=intent.modifier, source=intent.source, roller=roller
        )
        rolls = self.dice.records[seen:]
        record = AbstractRecord(
            actor=intent.actor, verb="abstract", task=intent.task, skill=intent.skill,
            source=intent.source, payment=intent.payment, roll=skill_roll.roll,
            bonus=skill_roll.modifier, result=skill_roll.result, divisor=skill_roll.divisor,
            dice=pool, bank=self.abstract.bank(intent.actor), rolls=rolls,
        )  # fmt: skip
        task = self.abstract.task(intent.task)
        if task is None or task.done_by is not None:
            who = task.done_by if task is not None else None
            return replace(record, outcome="void", reason="task_done", done_by=who)
        use = self.use_pool(intent, pool, task)
        if use is None:  # `spend N` beyond the dice and the bank: nothing is paid
            return replace(record, outcome="void", reason="short_of_pips")
        return self._pay(record, use, task)

    def safely(self, item: AbstractItem, intent: AbstractAction) -> AbstractRecord:
        """An abstract action resolved; one whose resolution fails is void, the banks and
        tasks as they were before it, and the interval goes on."""
        abstract, opposition = self.abstract, dict(self.opposition)

        def void(why: str) -> AbstractRecord:
            self.abstract, self.opposition = abstract, opposition
            return AbstractRecord(
                actor=intent.actor,
                verb="abstract",
                task=intent.task,
                skill=intent.skill,
                outcome="void",
                reason=COULD_NOT_RESOLVE,
            )

        return guarded(lambda: self.resolve(item, intent), void)

    def _pay(self, record: AbstractRecord, use: PoolUse, task: Task) -> AbstractRecord:
        actor = record.actor
        bank = self.abstract.bank(actor) - use.bank_used + use.banked_pips
        self.abstract = self.abstract.with_bank(actor, bank)
        record = replace(
            record, paid_dice=use.paid, banked_dice=use.banked, discarded_dice=use.discarded,
            pips_paid=use.pips_paid, bank_used=use.bank_used, banked=use.banked_pips,
            bank=bank, wasted=use.wasted,
        )  # fmt: skip
        if use.pips_paid == 0:
            return record  # a bank needs no check (SPEC §5)
        # RULES E9: the GM's pips cancel part of the payment; RULES E4: meet or exceed
        opposed = min(self.opposition.get(task.name, 0), use.pips_paid)
        self.opposition[task.name] = self.opposition.get(task.name, 0) - opposed
        done = meets(paid=use.pips_paid, opposition=opposed, dc=task.dc)
        if done:  # RULES E14: the DC met, the GM applies the normal effect; the task is over
            self.abstract = self.abstract.with_task(replace(task, done_by=actor))
        # RULES E8: a payment short of the DC fails and is spent all the same
        return replace(
            record, dc=task.dc, dc_secret=task.secret, opposed=opposed, completed=done,
            outcome="success" if done else "failure",
        )  # fmt: skip


def _outlook(abstract: AbstractState, records: Sequence[AbstractRecord]) -> tuple[Outlook, ...]:
    """Each character's odds on the public task they worked on, if it is still open; and on
    each open public task nobody worked on this interval, with the same roll."""
    rolled = [r for r in records if r.verb == "abstract" and r.outcome != "void" and r.source]
    pairs = [(r, abstract.task(r.task or "")) for r in rolled]
    worked = {r.task for r in rolled}
    untouched = [t for t in abstract.tasks if t.name not in worked]
    pairs += [(r, t) for r in dict((r.actor, r) for r in rolled).values() for t in untouched]
    out: list[Outlook] = []
    for r, task in pairs:
        if task is None or task.secret or task.done_by is not None or r.source is None:
            continue
        bank = abstract.bank(r.actor)
        odds = completion_odds(
            dc=task.dc, bank=bank, modifier=r.bonus, source=r.source, intervals=OUTLOOK_INTERVALS
        )
        out.append(
            Outlook(
                character=r.actor,
                task=task.name,
                bank=bank,
                odds=tuple(zip(OUTLOOK_INTERVALS, odds, strict=True)),
            )
        )
    return tuple(out)


def resolve_abstract(
    items: Sequence[AbstractItem],
    *,
    opposes: Sequence[tuple[str, OpposeCommand]],
    abstract: AbstractState,
    dice: RecordingDice,
) -> tuple[AbstractState, AbstractReport]:
    """Resolve one interval's abstract tags and opposition; return the state after it."""
    opposition = _roll_opposition(opposes, abstract=abstract, dice=dice)
    first, entries = _reactions(items, dice=dice)
    rank = {name: place for place, name in enumerate(first)}
    actions = [i for i in items if isinstance(i.accepted.intent, AbstractAction)]
    actions.sort(
        key=lambda i: (
            rank.get(i.accepted.actor, len(rank)),
            i.post.order,
            i.accepted.tag.source.index,
        )
    )
    pips: dict[str, int] = {}
    for o in opposition:
        pips[o.task] = pips.get(o.task, 0) + o.pips
    run = _Interval(abstract=abstract, opposition=pips, dice=dice)
    for item in actions:
        intent = item.accepted.intent
        assert isinstance(intent, AbstractAction)
        entries.append(_entry(item, run.safely(item, intent), len(entries)))
    records = [e.record for e in entries]
    report = AbstractReport(
        entries=tuple(entries),
        opposition=opposition,
        banks=run.abstract.banks,
        tasks=run.abstract.tasks,
        outlook=_outlook(run.abstract, records),
    )
    return run.abstract, report


def all_rolls(report: AbstractReport) -> tuple[RollRecord, ...]:
    """Every roll of the interval, the opposition's first, for the summary's dice line."""
    return tuple(r for o in report.opposition for r in o.rolls) + tuple(
        r for e in report.entries for r in e.record.rolls
    )
