"""The Markhorspire ruleset behind the engine's interface (SPEC §2.4, RULES §4): skirmishes
and battles, ``!difficulty`` and the GM's HP and WP corrections are its own.

Every scene asks each ruleset for its part (a new scene, the close, ``!undo``), so this module
is loaded with the engine; the modules that read and resolve Markhorspire tags and say why a
command is refused load when first needed (a campaign that never fights seldom needs them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pbp.engine import acknowledge
from pbp.engine.actors import Actor
from pbp.engine.done import Done
from pbp.engine.notes import Note
from pbp.engine.report import Rejection
from pbp.engine.roster import Roster
from pbp.engine.ruleset import Closed, Closer, Ruleset, TagContext
from pbp.engine.setup import no_such_post
from pbp.engine.slots import Slots
from pbp.engine.state import Accepted, ClosedRound, EngineState, PostRecord
from pbp.errors import Problem
from pbp.rules.dice.seeded import RecordingDice
from pbp.rulesets.markhor.engine.model import MARKHOR_INTENTS, MarkhorReport, MarkhorState
from pbp.rulesets.markhor.rules.skirmish import Fate, fate_of_foes
from pbp.rulesets.markhor.sheet import MarkhorSheet
from pbp.rulesets.markhor.tags import ActTag, CastTag, SkirmishAttackTag
from pbp.tags import resolve_name
from pbp.tags.commands import (
    Command,
    DamageCommand,
    DifficultyCommand,
    EncounterCommand,
    HealCommand,
)
from pbp.tags.model import SceneKind
from pbp.tags.registry import Tag
from pbp.values import replace

if TYPE_CHECKING:
    from pbp.rulesets.markhor.engine.resolve import MarkhorItem, PoolFix

MARKHOR_TAGS = (SkirmishAttackTag, CastTag, ActTag)
FIGHTS = (SceneKind.SKIRMISH, SceneKind.BATTLE)


def _located(problem: Problem, command: Command) -> Problem:
    src = command.source
    return replace(problem, tag=src.text, line=src.line, column=src.column)


def _not_fight(state: EngineState, command: Command) -> Problem:
    """HP and WP, and called rolls, belong to a skirmish or battle."""
    from pbp.rulesets.markhor.engine.refusals import NotFight

    return _located(NotFight(tag="", scene=state.scene_kind.value), command)


def _difficulty(state: EngineState, command: DifficultyCommand) -> EngineState | Problem:
    """``!difficulty POST [NAME] N``: that post's course (that character's, when named) rolls
    against N at the close (RULES M9)."""
    assert state.round is not None
    if state.scene_kind not in FIGHTS:
        return _not_fight(state, command)
    post = state.round.post(command.post)
    if post is None:
        return no_such_post(command, command.post)
    name: str | None = None
    if command.character is not None:
        actors = tuple(dict.fromkeys(a.actor for a in post.accepted))
        found = resolve_name(command.character, candidates=actors)
        if not isinstance(found, str):
            from pbp.rulesets.markhor.engine.refusals import NoSuchCourse

            return _located(
                NoSuchCourse(tag="", post=command.post, character=command.character, actors=actors),
                command,
            )
        name = found
    markhor = state.slot(MarkhorState)
    kept = tuple(c for c in markhor.calls if (c[0], c[1]) != (command.post, name))
    calls = (*kept, (command.post, name, command.dc))
    return state.with_slot(replace(markhor, calls=calls))


@dataclass(slots=True)
class _MarkhorCloser(Closer):
    """A skirmish or battle round: every entity's pools, the GM's HP/WP corrections, then the
    turns in initiative order."""

    markhor: MarkhorState
    dice: RecordingDice
    items: list[MarkhorItem] = field(default_factory=list)
    fixes: list[PoolFix] = field(default_factory=list)

    def take(self, post: PostRecord, accepted: Accepted, scene: Roster) -> Roster:
        from pbp.rulesets.markhor.engine.resolve import MarkhorItem

        self.items.append(MarkhorItem(post=post, accepted=accepted))
        return scene

    def command(self, post: PostRecord, command: Command) -> bool:
        if isinstance(command, DamageCommand | HealCommand) and command.stat in ("hp", "wp"):
            self.fixes.append((post, command))
            return True
        return False

    def finish(self, state: EngineState, scene: Roster, number: int) -> Closed:
        if state.scene_kind not in FIGHTS:  # the roster's keeper corrects Body and Mind
            return Closed(rejected=tuple(
                Rejection(post_id=post.post_id, tag=command.source.text,
                          problem=_not_fight(state, command))
                for post, command in self.fixes
            ))  # fmt: skip
        from pbp.rulesets.markhor.engine.resolve import (
            correct_pools,
            resolve_markhor,
            skirmish_formula,
            with_pools,
        )

        # RULES M8: a foe a won skirmish left incapacitated or dead takes no part
        entities = [(n, scene.side(n)) for n in scene.names() if self.markhor.fate(n) is None]
        formula = skirmish_formula(state.campaign)
        markhor = with_pools(self.markhor, entities, state.scores, formula=formula)
        markhor, fixed, refused = correct_pools(markhor, self.fixes)
        markhor, report = resolve_markhor(
            self.items, markhor=markhor, entities=entities, scores=state.scores,
            dice=self.dice, round_number=number, formula=formula,
        )  # fmt: skip
        if report.ended == "party_won":
            report = replace(report, fallen=_fates(state, scene, report))
        rejected = tuple(Rejection(post_id=p, tag=pr.tag, problem=pr) for p, pr in refused)
        return Closed(state=markhor, part=report, corrections=tuple(fixed), rejected=rejected)


def _fates(state: EngineState, scene: Roster, part: MarkhorReport) -> tuple[tuple[str, Fate], ...]:
    """How the foes of a skirmish the party won end it (RULES M8): incapacitated when
    sapient (a sheet's ``sapient``, true by default), dead otherwise."""
    fates: list[tuple[str, Fate]] = []
    for name, pools in part.pools:
        if scene.side(name) == "party" or not pools.out:
            continue
        sheet = state.campaign.character(name)
        given = state.scores(name).get("sapient")  # `!npc Wolf sapient no`
        sapient = sheet.part(MarkhorSheet).sapient if sheet is not None else given != 0
        fates.append((name, fate_of_foes(sapient=sapient)))
    return tuple(fates)


class MarkhorRuleset(Ruleset):
    """Markhorspire skirmishes (pools from the sheet's scores) and battles (real HP and WP,
    action points)."""

    name = "markhor"
    tags = MARKHOR_TAGS
    intents = MARKHOR_INTENTS
    commands = (DifficultyCommand,)

    def check(self, tag: Tag, actor: Actor, ctx: TagContext) -> Accepted | Problem:
        from pbp.rulesets.markhor.engine.tags import check_markhor_tag

        stamina = ctx.scores(actor.name).get("stamina") or 0
        return check_markhor_tag(
            tag=tag,
            actor=actor,
            markhor=ctx.slot(MarkhorState),
            pending=ctx.pending,
            stamina=stamina,
            post_id=ctx.post_id,
        )

    def notes(self, accepted: Accepted, ctx: TagContext) -> tuple[Note, ...]:
        from pbp.rulesets.markhor.engine.notes import notes_on

        sheet = ctx.campaign.character(accepted.actor)
        player = sheet is not None and sheet.player is not None
        return notes_on(accepted, ctx.slot(MarkhorState), player=player)  # RULES M2, §7

    def fresh(
        self, state: EngineState, kind: SceneKind, command: EncounterCommand | None
    ) -> EngineState:
        ambush = command.ambush if command is not None else None
        fallen = state.slot(MarkhorState).fallen  # RULES M8: the fallen stay fallen
        return state.with_slot(MarkhorState.fresh(kind, ambush=ambush, fallen=fallen))

    def undo(self, state: EngineState, closed: ClosedRound) -> EngineState:
        return state.with_slot(closed.before.get(MarkhorState) or MarkhorState())

    def closer(self, state: EngineState, dice: RecordingDice) -> Closer:
        return _MarkhorCloser(markhor=state.slot(MarkhorState), dice=dice)

    def after_close(
        self, state: EngineState, parts: Slots, notes: tuple[str, ...]
    ) -> tuple[EngineState, tuple[str, ...]]:
        """RULES M8: a skirmish the party lost becomes a battle on the real HP and WP (the
        skirmish pools are dismissed); one it won ends, and the campaign's own scene follows."""
        part = parts.get(MarkhorReport)
        if part is None or part.ended is None:
            return state, notes
        fallen = state.slot(MarkhorState).fallen
        if part.ended == "party_failed":
            battle = MarkhorState.fresh(SceneKind.BATTLE, fallen=fallen)
            return replace(state, scene_kind=SceneKind.BATTLE).with_slot(battle), (
                *notes,
                "skirmish_lost",
            )
        # RULES M8, §7: every foe ends incapacitated (sapient, the default) or dead; the
        # skirmish pools are dismissed
        fallen = (*fallen, *part.fallen)
        ruleset = state.campaign.ruleset
        after = MarkhorState.fresh(ruleset, fallen=fallen)
        return replace(state, scene_kind=ruleset).with_slot(after), (*notes, "skirmish_won")

    def out_of_play(self, state: EngineState) -> frozenset[str]:
        # the seed: an entity out of combat has its turn skipped; RULES M8: the fallen too
        return state.slot(MarkhorState).out_names()

    def setup(
        self, state: EngineState, command: Command, post: PostRecord
    ) -> EngineState | Problem:
        return _difficulty(state, command) if isinstance(command, DifficultyCommand) else state

    def acknowledge(self, state: EngineState, command: Command, post: PostRecord) -> Done | None:
        if not isinstance(command, DifficultyCommand):
            return None
        return acknowledge.difficulty_set(state, command, post)


MARKHOR = MarkhorRuleset()
