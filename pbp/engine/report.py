"""What a closed round produced: the facts a summary and the ledger are made from."""

from __future__ import annotations

from dataclasses import field
from datetime import datetime

from pbp.engine.done import Done
from pbp.engine.slots import Slots
from pbp.errors import Problem
from pbp.values import frozen_value


@frozen_value
class CorrectionEntry:
    """A GM correction applied at its post's place in the resolution order."""

    post_id: str
    command: str  # the command line as written
    character: str
    what: str  # "damage", "heal" or "bonus"
    stat: str | None
    amount: int
    # what the summary says it did (not in the ledger, whose entry stays as SPEC §5 has it):
    # the stat's damage or the bonus pool after it, and the state it put the character in
    after: int | None = field(default=None, metadata={"ledger": False})
    became: str | None = field(default=None, metadata={"ledger": False})
    # how much it changed (a heal of damage that is not there changes nothing; None: as asked)
    changed: int | None = field(default=None, metadata={"ledger": False})


@frozen_value
class Rejection:
    """A tag that does not act, with its final verdict."""

    post_id: str
    tag: str
    problem: Problem


@frozen_value
class RoundReport:
    """One closed round.

    ``closed_by`` is the id of the closing post, or "deadline". ``npcs`` are the characters
    of the scene without a player; ``not_acted`` the player characters without an action;
    ``late_edits`` the posts of earlier rounds edited after their resolution, flagged in this
    summary. What the actions did, and the characters as the round left them, are the
    rulesets' parts (``parts``; the roster's keeper has one in every scene).
    """

    number: int
    scene: str
    opened_at: datetime
    closed_at: datetime
    closed_by: str
    corrections: tuple[CorrectionEntry, ...]
    rejected: tuple[Rejection, ...]
    npcs: frozenset[str]
    not_acted: tuple[str, ...]
    late_edits: tuple[str, ...] = ()
    next_deadline: datetime | None = None
    next_round: int | None = None
    notes: tuple[str, ...] = field(default=())  # scene notes: "encounter ended", "short rest", ...
    # each ruleset's part, by its type (engine.registry): the Distat actions and the roster
    # after the round, the d20 tags resolved, an abstract interval's tags, banks and outlook,
    # a skirmish's or battle's round in initiative order
    parts: Slots = field(default_factory=Slots)
    done: tuple[Done, ...] = ()  # ack = none: what the GM's commands did, listed in the summary
    # the standing orders that acted at the close: (character, tag) in the order they acted,
    # a default hold as "[pass]"; each one's verdict is in the parts, or in ``rejected``
    standing: tuple[tuple[str, str], ...] = ()
