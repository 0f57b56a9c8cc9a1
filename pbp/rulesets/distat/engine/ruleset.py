"""The Distat ruleset behind the engine's interface (SPEC §2.1, RULES §1): its actions change
the roster every scene shares (groups a move changes, who is out) and Distat's part of it
(``DistatCast``: Body, Mind, damage, restraints), and so do the GM's corrections of Body, Mind
and bonus pools, ``!rest`` and the short rest at an encounter's end, in every scene."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pbp.engine.actors import Actor
from pbp.engine.done import Done
from pbp.engine.pending import Pending
from pbp.engine.report import CorrectionEntry
from pbp.engine.roster import Roster
from pbp.engine.ruleset import Closed, Closer, Ruleset, TagContext, guarded
from pbp.engine.state import Accepted, EngineState, PostRecord
from pbp.errors import Problem
from pbp.rules.dice.seeded import RecordingDice
from pbp.rulesets.distat import rules as distat
from pbp.rulesets.distat.engine.model import (
    ActionEntry,
    DistatRound,
    NightRested,
    RosterReport,
    adopt,
    own,
)
from pbp.rulesets.distat.engine.recovery import recovered, recovery_refused, spend_on_recovery
from pbp.rulesets.distat.engine.roster import recoveries
from pbp.rulesets.distat.engine.setup import apply_correction
from pbp.rulesets.distat.engine.tags import check_tag, count, count_command
from pbp.rulesets.distat.rules import DistatScene
from pbp.rulesets.distat.rules.intents import INTENTS
from pbp.rulesets.distat.tags import ActionTag, IdentifyTag, MoveTag
from pbp.tags.commands import Command, RecoverCommand, RestCommand
from pbp.tags.model import PassTag, SceneKind
from pbp.tags.registry import Tag
from pbp.values import replace


def _resolve(scene: DistatScene, intent: distat.Intent) -> tuple[DistatScene, tuple[Any, ...]]:
    """A Distat action resolved; one whose resolution fails is void with what failed, and the
    round goes on (``guarded``)."""

    def void(why: str) -> tuple[DistatScene, tuple[Any, ...]]:
        return scene, distat.void_records(intent, distat.CouldNotResolve(error=why))

    return guarded(lambda: distat.resolve(scene, intent), void)


@dataclass(slots=True)
class _DistatCloser(Closer):
    """Each Distat action resolved at its turn against the scene the earlier ones left."""

    actions: list[ActionEntry] = field(default_factory=list)

    def take(self, post: PostRecord, accepted: Accepted, scene: Roster) -> Roster:
        intent = accepted.intent
        assert isinstance(intent, INTENTS)
        after, records = _resolve(own(scene), intent)
        self.actions += [
            ActionEntry(post_id=post.post_id, author=post.author, tag=accepted.tag.source.text,
                        record=r, on_behalf=accepted.on_behalf)
            for r in records
        ]  # fmt: skip
        return adopt(scene, after)

    def finish(self, state: EngineState, scene: Roster, number: int) -> Closed:
        return Closed(part=DistatRound(actions=tuple(self.actions)) if self.actions else None)


class DistatRuleset(Ruleset):
    """Distat: moves, physical and mental actions, Identify and pass."""

    name = "distat"
    tags = (MoveTag, ActionTag, IdentifyTag, PassTag)
    intents = INTENTS
    commands = (RecoverCommand,)

    def check(self, tag: Tag, actor: Actor, ctx: TagContext) -> Accepted | Problem:
        return check_tag(scene=own(ctx.scene), tag=tag, actor=actor, pending=ctx.pending)

    def count(self, pending: Pending, accepted: Accepted) -> None:
        count(pending, accepted)

    def count_command(self, pending: Pending, command: Command) -> None:
        count_command(pending, command)

    def still_refused(self, scene: Roster, accepted: Accepted) -> bool:
        intent = accepted.intent
        assert isinstance(intent, INTENTS)
        return bool(distat.validate(own(scene), intent))

    def closer(self, state: EngineState, dice: RecordingDice) -> Closer:
        return _DistatCloser()

    def change_roster(self, roster: Roster, command: Command) -> Roster | Problem | None:
        match command:
            case RecoverCommand():  # `!undo` replays it on the re-opened round
                spent = spend_on_recovery(own(roster), command)
                return spent if isinstance(spent, Problem) else adopt(roster, spent)
            case RestCommand():
                return adopt(roster, distat.night_rest(own(roster)))
        return None

    def setup(
        self, state: EngineState, command: Command, post: PostRecord
    ) -> EngineState | Problem:
        assert isinstance(command, RecoverCommand) and state.round is not None
        refused = recovery_refused(state, command, post)
        if refused is not None:
            return refused
        rnd = state.round
        spent = spend_on_recovery(own(rnd.base), command)
        if isinstance(spent, Problem):
            return spent
        base = adopt(rnd.base, spent)
        return replace(state, round=replace(rnd, base=base, setup=(*rnd.setup, command)))

    def acknowledge(self, state: EngineState, command: Command, post: PostRecord) -> Done | None:
        assert isinstance(command, RecoverCommand) and state.round is not None
        return recovered(own(state.round.base), command, post_id=post.post_id)

    def rest(
        self, state: EngineState, *, night: bool, medic: tuple[str, ...], post_id: str
    ) -> tuple[EngineState, tuple[Done, ...]]:
        # the roster's night (``change_roster``) is said where the campaign plays Distat
        distat_campaign = state.campaign.ruleset == SceneKind("distat")
        return state, (NightRested(post_id=post_id),) if night and distat_campaign else ()

    def correct(
        self, roster: Roster, command: Command, *, post_id: str
    ) -> tuple[Roster, CorrectionEntry | Problem | None]:
        scene, done = apply_correction(own(roster), command, post_id=post_id)
        return (adopt(roster, scene) if done is not None else roster), done

    def end_encounter(
        self, roster: Roster, *, medic: tuple[str, ...], rally: tuple[str, ...]
    ) -> Roster:
        return adopt(roster, distat.end_encounter(own(roster), medic=medic, rally=rally))

    def roster_report(self, *, before: Roster, after: Roster, rested: bool) -> object | None:
        scene = own(after)
        return RosterReport(
            characters=tuple(distat.view(scene, n) for n in distat.names(scene)),
            recovered=recoveries(own(before), scene) if rested else (),
        )


DISTAT = DistatRuleset()
