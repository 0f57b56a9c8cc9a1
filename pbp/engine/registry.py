"""The rulesets a scene runs, by scene kind, behind one interface (``engine.ruleset``), and the
keeper of the roster every scene shares (``engine.roster``): the only engine module that names
them. Reading, the close, ``!undo``, a new scene, the rulesets' own set-up commands and every
change of the roster (the keeper's, or what a ruleset keeps of each character) call through
here.

The rulesets come from their plugins (``pbp.rulesets``): adding one is its package and its
entry point (docs/rulesets.md).
"""

from __future__ import annotations

from pbp.engine.command_table import CommandRow
from pbp.engine.done import Done
from pbp.engine.last_answer import keeps_last_answer
from pbp.engine.pending import Pending
from pbp.engine.report import CorrectionEntry
from pbp.engine.roster import Roster
from pbp.engine.ruleset import Closer, Ruleset
from pbp.engine.scene_roster import CastKeeper, RosterKeeper
from pbp.engine.state import Accepted, ClosedRound, EngineState
from pbp.errors import Problem
from pbp.rules.dice.seeded import RecordingDice
from pbp.rulesets import plugins
from pbp.tags.commands import Command, EncounterCommand
from pbp.tags.model import RollTag, SceneKind
from pbp.tags.registry import Tag

_PLUGINS = plugins()
# in the order a round's report and the ledger list their parts (each plugin's rank)
ALL: tuple[Ruleset, ...] = tuple(plugin.part(plugin.engine, Ruleset) for plugin in _PLUGINS)
RULESETS: dict[SceneKind, Ruleset] = {
    SceneKind(kind): ruleset
    for plugin, ruleset in zip(_PLUGINS, ALL, strict=True)
    for kind in plugin.kinds
}
# the roster every scene shares, each plugin's part of the cast following its changes
ROSTER = RosterKeeper(
    casts=tuple(plugin.part(plugin.cast, CastKeeper) for plugin in _PLUGINS if plugin.cast)
)
# SPEC §2: every scene rolls [roll:], read by the ruleset that says it reads the common tags
COMMON = next(r for plugin, r in zip(_PLUGINS, ALL, strict=True) if plugin.common_tags)
COMMON_TAGS: tuple[type, ...] = (RollTag,)


def ruleset_for(tag: Tag, kind: SceneKind) -> Ruleset | None:
    """The ruleset that reads ``tag`` in a scene of ``kind`` (None: this scene reads it not)."""
    if isinstance(tag, COMMON_TAGS):
        return COMMON
    own = RULESETS[kind]
    return own if isinstance(tag, own.tags) else None


_OWNERS: dict[type, Ruleset] = {}  # intent type -> its ruleset, as ``owner`` finds them


def owner(accepted: Accepted) -> Ruleset:
    """The ruleset an accepted tag belongs to."""
    kind = type(accepted.intent)
    found = _OWNERS.get(kind)
    if found is None:  # the first of its type: the rulesets never change, nor does the answer
        found = _OWNERS[kind] = next(r for r in ALL if isinstance(accepted.intent, r.intents))
    return found


def count(pending: Pending, accepted: Accepted, post_id: str) -> None:
    """Count an accepted tag: its slots and bonus, and what its ruleset notes."""
    pending.add(accepted, post_id)
    owner(accepted).count(pending, accepted)


def count_command(pending: Pending, command: Command) -> None:
    """Note what a command of an earlier post grants the round's later tags."""
    for ruleset in ALL:
        ruleset.count_command(pending, command)


def closers(state: EngineState, dice: RecordingDice) -> tuple[tuple[Ruleset, Closer], ...]:
    """Each ruleset's resolution of the open round, in report order."""
    return tuple((r, r.closer(state, dice)) for r in ALL)


def fresh(state: EngineState, kind: SceneKind, command: EncounterCommand | None) -> EngineState:
    """Each ruleset's state for a new scene of ``kind``."""
    for ruleset in ALL:
        state = ruleset.fresh(state, kind, command)
    return state


def undo(state: EngineState, closed: ClosedRound) -> EngineState:
    """Each ruleset's state with ``closed`` re-opened."""
    for ruleset in ALL:
        state = ruleset.undo(state, closed)
    return state


def change_roster(roster: Roster, command: Command) -> Roster | Problem | None:
    """A GM set-up command that changes the roster at once: the keeper's (``!npc``,
    ``!group``, ``!feature``) or a ruleset's (``!rest``); None when it is none of those."""
    changed = ROSTER.setup(roster, command)
    for ruleset in ALL:
        if changed is not None:
            break
        changed = ruleset.change_roster(roster, command)
    return changed


def correct(
    roster: Roster, command: Command, *, post_id: str
) -> tuple[Roster, CorrectionEntry | Problem | None]:
    """A GM correction that no ruleset's closer took, by the ruleset whose it is (Body, Mind,
    a bonus pool); None when it is nobody's."""
    for ruleset in ALL:
        roster, done = ruleset.correct(roster, command, post_id=post_id)
        if done is not None:
            return roster, done
    return roster, None


@keeps_last_answer  # (asked of one state by the turn board, the standing orders, the close)
def out_of_play(state: EngineState) -> frozenset[str]:
    """The characters some ruleset's state has put out of play (a fight's out, say)."""
    return frozenset().union(*(ruleset.out_of_play(state) for ruleset in ALL))


def end_encounter(roster: Roster, *, medic: tuple[str, ...], rally: tuple[str, ...]) -> Roster:
    """The roster after ``!encounter end``: each ruleset's short rest."""
    for ruleset in ALL:
        roster = ruleset.end_encounter(roster, medic=medic, rally=rally)
    return roster


def rest(
    state: EngineState, *, night: bool, medic: tuple[str, ...], post_id: str
) -> tuple[EngineState, tuple[Done, ...]]:
    """Each ruleset's part of a rest (``Ruleset.rest``), and what each says of it."""
    said: list[Done] = []
    for ruleset in ALL:
        state, done = ruleset.rest(state, night=night, medic=medic, post_id=post_id)
        said.extend(done)
    return state, tuple(said)


def roster_reports(*, before: Roster, after: Roster, rested: bool) -> tuple[object, ...]:
    """Each ruleset's part of a round's report of what it keeps of the characters."""
    found = (r.roster_report(before=before, after=after, rested=rested) for r in ALL)
    return tuple(part for part in found if part is not None)


def command_rows() -> tuple[CommandRow, ...]:
    """The rows each ruleset contributes to the table of commands (``!task``, ``!oppose``,
    ``!difficulty`` …)."""
    return tuple(entry for r in ALL for entry in r.command_rows())


def tasks(state: EngineState) -> tuple[str, ...]:
    """The names beyond the roster a tag may name (an abstract scene's tasks)."""
    return tuple(name for r in ALL for name in r.tasks(state))
