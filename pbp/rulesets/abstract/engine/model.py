"""The Epic Path abstract path of the engine (SPEC §2.2, RULES §2): intents, scene state, records.

Beside the Distat types, as the d20 path is: an ``[abstract:]`` or ``[reaction]`` tag becomes one
of the intents below when it is read; at the close the interval resolves (GM opposition, the
Reaction Dice, then each character's skill roll, action dice and payment or bank) and leaves an
:class:`AbstractRecord` per tag that the ledger and the summary show.
"""

from __future__ import annotations

from dataclasses import field
from datetime import timedelta
from fractions import Fraction
from typing import Literal

from pbp.rules.dice.seeded import RollRecord
from pbp.tags.commands import OpposeCommand
from pbp.values import frozen_value, replace

Source = Literal["skill", "bailiwick", "other", "spell"]
PaymentKind = Literal["auto", "spend", "all", "bank"]


@frozen_value
class AbstractAction:
    """``[abstract: SKILL +N on TASK, …]``: this interval's skill roll and what to do with it."""

    actor: str
    task: str
    skill: str | None  # None: five spell slots (RULES E3)
    modifier: int
    source: Source
    payment: PaymentKind = "auto"
    amount: int | None = None  # the N of ``spend N``


@frozen_value
class ReactionRoll:
    """``[reaction]``: the actor rolls the Reaction Die this interval (RULES E12)."""

    actor: str


AbstractIntent = AbstractAction | ReactionRoll
ABSTRACT_INTENTS = (AbstractAction, ReactionRoll)


@frozen_value
class Task:
    """A GM's abstract task (``!task NAME dc N [secret]``); ``done_by`` once its DC is met."""

    name: str
    dc: int
    secret: bool = False
    done_by: str | None = None


@frozen_value
class AbstractState:
    """What an abstract scene keeps between intervals.

    ``banks``: each character's banked pips (RULES E6: a fungible counter; personal, RULES
    E15). Banks belong to the characters, not to the encounter: they outlive it (RULES E11).
    ``carried``: the ``!oppose`` lines (post id, command) written below the ``!encounter``
    that started this encounter: they oppose its first interval (RULES E9).
    """

    interval: timedelta | None = None
    tasks: tuple[Task, ...] = ()
    banks: tuple[tuple[str, int], ...] = ()
    carried: tuple[tuple[str, OpposeCommand], ...] = ()

    def task(self, name: str) -> Task | None:
        """The task of that exact name (case-insensitive)."""
        low = name.casefold()
        return next((t for t in self.tasks if t.name.casefold() == low), None)

    def bank(self, name: str) -> int:
        """``name``'s banked pips."""
        return next((n for who, n in self.banks if who == name), 0)

    def with_bank(self, name: str, pips: int) -> AbstractState:
        """This state with ``name``'s bank set to ``pips``."""
        banks = dict(self.banks)
        banks[name] = pips
        return replace(self, banks=tuple(sorted(banks.items())))

    def with_task(self, task: Task) -> AbstractState:
        """This state with ``task`` added, or replacing the task of the same name."""
        low = task.name.casefold()
        kept = tuple(t for t in self.tasks if t.name.casefold() != low)
        if len(kept) == len(self.tasks):
            return replace(self, tasks=(*self.tasks, task))
        return replace(
            self, tasks=tuple(task if t.name.casefold() == low else t for t in self.tasks)
        )

    def fresh_encounter(self, interval: timedelta | None) -> AbstractState:
        """A new abstract encounter: no tasks yet; the banks stay (RULES E11)."""
        return AbstractState(interval=interval, banks=self.banks)


@frozen_value
class AbstractRecord:
    """One resolved abstract tag (SPEC §5 names the keys the ledger shows).

    ``roll`` is the d20, ``bonus`` the modifier, ``result`` the skill-check result (RULES E2),
    ``divisor`` 5, 10 or 12 (RULES E1), ``dice`` the action dice; ``pips_paid`` the dice pips
    paid plus ``bank_used``; ``banked`` the pips this action put in the bank and ``bank`` the
    balance after it; ``wasted`` the pips paid beyond what was aimed at (RULES E7); ``dc`` the
    task's DC when this action paid toward it; ``opposed`` the GM's pips that cancelled part
    of the payment (RULES E9). A ``verb == "reaction"`` record carries the Reaction Die rolls
    in ``dice`` and the character's place in ``order``.
    """

    actor: str
    verb: Literal["abstract", "reaction"]
    task: str | None = None
    skill: str | None = None
    source: Source | None = None
    payment: PaymentKind | None = None
    roll: int | None = None
    bonus: int = 0
    result: int | None = None
    divisor: int | None = None
    dice: tuple[int, ...] = ()
    paid_dice: tuple[int, ...] = ()
    banked_dice: tuple[int, ...] = ()
    discarded_dice: tuple[int, ...] = ()
    pips_paid: int = 0
    bank_used: int = 0
    banked: int = 0
    bank: int = 0
    wasted: int = 0
    dc: int | None = None
    dc_secret: bool = False
    opposed: int = 0
    completed: bool = False
    done_by: str | None = None  # who had completed the task when a void action came to it
    order: int | None = None
    outcome: Literal["success", "failure", "void"] = "success"
    reason: str | None = None
    rolls: tuple[RollRecord, ...] = field(default=())


@frozen_value
class AbstractEntry:
    """An abstract record with the post it came from; ``order`` places it among the round's
    actions as resolved."""

    post_id: str
    author: str
    tag: str
    record: AbstractRecord
    on_behalf: bool = False
    order: tuple[int, int] = (0, 0)


@frozen_value
class Opposition:
    """``!oppose TASK NdS`` as rolled: the GM's pips against the task this interval (RULES E9)."""

    post_id: str
    task: str
    dice: tuple[int, ...]
    rolls: tuple[RollRecord, ...] = ()

    @property
    def pips(self) -> int:
        """The opposing pips."""
        return sum(self.dice)


@frozen_value
class Outlook:
    """A character's chance of completing a task whose DC is public within the next 1, 3 and 5
    intervals, rolling as this interval and letting the bot choose (``auto``), unopposed."""

    character: str
    task: str
    bank: int
    odds: tuple[tuple[int, Fraction], ...]


@frozen_value
class AbstractReport:
    """The abstract part of a closed interval: the tags, the opposition, banks and outlook."""

    entries: tuple[AbstractEntry, ...] = ()
    opposition: tuple[Opposition, ...] = ()
    banks: tuple[tuple[str, int], ...] = ()
    tasks: tuple[Task, ...] = ()
    outlook: tuple[Outlook, ...] = ()
