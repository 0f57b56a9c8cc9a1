"""The d20 Advanced ruleset behind the engine's interface (SPEC §2.3, RULES §3).

Every scene asks each ruleset for its part (a new scene, the close, ``!undo``), so this module
is loaded with the engine; the modules that read, fill and resolve d20 tags load when the first
d20 tag does (a campaign whose posts hold none never loads them).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbp.campaign.model import Campaign
from pbp.engine.actors import Actor
from pbp.engine.done import Done
from pbp.engine.pending import Pending
from pbp.engine.problems import COULD_NOT_RESOLVE
from pbp.engine.roster import Roster
from pbp.engine.ruleset import Closed, Closer, Ruleset, TagContext, guarded
from pbp.engine.state import Accepted, ClosedRound, EngineState, PostRecord
from pbp.errors import Problem
from pbp.rules.dice.seeded import RecordingDice
from pbp.rulesets.d20.engine.model import (
    D20_INTENTS,
    D20Entry,
    D20Record,
    D20Report,
    D20State,
    eased,
    intent_verb,
)
from pbp.rulesets.d20.rules.conditions import Conditions
from pbp.rulesets.d20.tags import AidTag, AttackRollTag, CheckTag, CompareTag, EffectTag
from pbp.tags.commands import EncounterCommand
from pbp.tags.model import RollTag, SceneKind
from pbp.tags.registry import Tag
from pbp.values import replace

D20_TAGS = (CheckTag, AttackRollTag, AidTag, CompareTag, EffectTag, RollTag)


@dataclass(slots=True)
class _D20Closer(Closer):
    """The d20 tags of a round, each resolved at its turn with its own dice."""

    campaign: Campaign
    d20: D20State
    dice: RecordingDice
    entries: list[D20Entry] = field(default_factory=list)

    def take(self, post: PostRecord, accepted: Accepted, scene: Roster) -> Roster:
        from pbp.rulesets.d20.engine.resolve import D20Context, resolve_d20
        from pbp.rulesets.d20.engine.tags import pool_size

        intent = accepted.intent
        assert isinstance(intent, D20_INTENTS)
        index = accepted.tag.source.index
        roller = self.dice.for_key(post.post_id, index)  # SPEC §6: (post id, tag index, roll)
        seen = len(self.dice.records)
        ctx = D20Context(d20=self.d20, pool=pool_size(self.campaign, self.d20, accepted.actor))

        def void(why: str) -> tuple[D20State, D20Record]:  # the pools and conditions stand
            verb = intent_verb(intent)
            return self.d20, D20Record(
                actor=accepted.actor, verb=verb, outcome="void", reason=COULD_NOT_RESOLVE
            )

        self.d20, record = guarded(lambda: resolve_d20(intent, ctx=ctx, roller=roller), void)
        record = replace(record, rolls=self.dice.records[seen:])
        if isinstance(accepted.tag, AttackRollTag) and accepted.tag.target is not None:
            # whose Defense it rolled against (the sheet's: hidden when an NPC's, SPEC §4.5)
            record = replace(record, target=accepted.tag.target)
        self.entries.append(
            D20Entry(
                post_id=post.post_id,
                author=post.author,
                tag=accepted.tag.source.text,
                record=record,
                on_behalf=accepted.on_behalf,
                order=(post.order, index),
            )
        )
        return scene

    def finish(self, state: EngineState, scene: Roster, number: int) -> Closed:
        return Closed(state=self.d20, part=D20Report(entries=tuple(self.entries)))


class D20Ruleset(Ruleset):
    """d20 Advanced: checks, attacks, aid, comparisons and effects, with dice pools."""

    name = "d20"
    tags = D20_TAGS
    intents = D20_INTENTS

    def fill(self, tag: Tag, actor: str, campaign: Campaign) -> Tag | Problem:
        from pbp.rulesets.d20.engine.sheets import from_sheets

        return from_sheets(tag, actor=actor, campaign=campaign)

    def check(self, tag: Tag, actor: Actor, ctx: TagContext) -> Accepted | Problem:
        from pbp.rulesets.d20.engine.tags import check_d20_tag

        return check_d20_tag(
            tag=tag, actor=actor, campaign=ctx.campaign, d20=ctx.slot(D20State), pending=ctx.pending
        )

    def count(self, pending: Pending, accepted: Accepted) -> None:
        from pbp.rulesets.d20.engine.tags import count

        count(pending, accepted)

    def fresh(
        self, state: EngineState, kind: SceneKind, command: EncounterCommand | None
    ) -> EngineState:
        # a new scene: pressure as the command says (RULES A4); pools stay spent, aid lapses;
        # an injury stays until rest or care, the scene's other conditions end (RULES A10)
        d20 = state.slot(D20State)
        pressure = command.pressure if command is not None else False
        injured = tuple(
            (name, Conditions(injury=c.injury)) for name, c in d20.conditions if c.injury
        )
        return state.with_slot(
            D20State(pressure=pressure, pool_spent=d20.pool_spent, conditions=injured)
        )

    def undo(self, state: EngineState, closed: ClosedRound) -> EngineState:
        return state.with_slot(closed.before.get(D20State) or D20State())

    def rest(
        self, state: EngineState, *, night: bool, medic: tuple[str, ...], post_id: str
    ) -> tuple[EngineState, tuple[Done, ...]]:
        # RULES A10, §7.4: the injury track eases one step with a night's rest (everyone) and with
        # medical care at the end of an encounter (those the GM names)
        roster = state.round.base if state.round is not None else state.scene
        names = roster.names() if night else medic
        pcs = {c.name for c in state.campaign.characters if c.player is not None}
        npcs = frozenset(n for n in names if n not in pcs)
        d20, said = eased(state.slot(D20State), names, night=night, post_id=post_id, npcs=npcs)
        return state.with_slot(d20), said

    def closer(self, state: EngineState, dice: RecordingDice) -> Closer:
        return _D20Closer(campaign=state.campaign, d20=state.slot(D20State), dice=dice)


D20 = D20Ruleset()
