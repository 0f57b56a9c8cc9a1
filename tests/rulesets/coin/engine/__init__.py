"""The coin's side of the round: a call is accepted once a round per character; at the close
each is flipped with the round's dice (key: post, tag) and wins when the coin shows it; the
scene keeps each character's wins (``CoinState``). A character who is out calls no coin
(``refusals``: the wins an NPC has are its number, hidden under hide-npcs)."""

from __future__ import annotations

from dataclasses import dataclass, field

from coin.engine.refusals import OutOfTheContest
from coin.tags import SIDES, FlipTag
from pbp.engine.actors import Actor
from pbp.engine.roster import Roster
from pbp.engine.ruleset import Closed, Closer, Ruleset, TagContext
from pbp.engine.state import Accepted, ClosedRound, EngineState, PostRecord
from pbp.errors import Problem
from pbp.rules.dice.seeded import RecordingDice
from pbp.tags.commands import EncounterCommand
from pbp.tags.model import SceneKind


@dataclass(frozen=True, slots=True, kw_only=True)
class Call:
    """What an accepted flip means: the side called."""

    side: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Flip:
    """One flip at the close."""

    post_id: str
    actor: str
    call: str
    shown: str

    @property
    def won(self) -> bool:
        return self.call == self.shown


@dataclass(frozen=True, slots=True, kw_only=True)
class CoinState:
    """The wins of each character in the scene, by name."""

    wins: tuple[tuple[str, int], ...] = ()

    def of(self, name: str) -> int:
        return dict(self.wins).get(name, 0)

    def after(self, flips: tuple[Flip, ...]) -> CoinState:
        wins = dict(self.wins)
        for flip in flips:
            wins[flip.actor] = wins.get(flip.actor, 0) + flip.won
        return CoinState(wins=tuple(sorted(wins.items())))


@dataclass(frozen=True, slots=True, kw_only=True)
class CoinReport:
    """The coin's part of a round's report."""

    flips: tuple[Flip, ...]


@dataclass(slots=True, kw_only=True)
class _CoinCloser(Closer):
    dice: RecordingDice
    coin: CoinState
    flips: list[Flip] = field(default_factory=list)

    def take(self, post: PostRecord, accepted: Accepted, scene: Roster) -> Roster:
        assert isinstance(accepted.intent, Call)
        roll = self.dice.for_key(post.post_id, accepted.tag.source.index).roll(2)
        self.flips.append(
            Flip(
                post_id=post.post_id,
                actor=accepted.actor,
                call=accepted.intent.side,
                shown=SIDES[roll - 1],
            )
        )
        return scene

    def finish(self, state: EngineState, scene: Roster, number: int) -> Closed:
        if not self.flips:
            return Closed()
        flips = tuple(self.flips)
        return Closed(state=self.coin.after(flips), part=CoinReport(flips=flips))


class CoinRuleset(Ruleset):
    """A coin-flip contest."""

    name = "coin"
    tags = (FlipTag,)
    intents = (Call,)

    def check(self, tag: object, actor: Actor, ctx: TagContext) -> Accepted | Problem:
        assert isinstance(tag, FlipTag)
        if ctx.scene.is_out(actor.name):
            wins = ctx.slot(CoinState).of(actor.name)
            return OutOfTheContest(tag=tag.source.text, actor=actor.name, wins=wins)
        return Accepted(
            tag=tag,
            intent=Call(side=tag.call),
            actor=actor.name,
            on_behalf=actor.on_behalf,
            slots=frozenset({"coin"}),
            bonus=0,
        )

    def fresh(
        self, state: EngineState, kind: SceneKind, command: EncounterCommand | None
    ) -> EngineState:
        return state.with_slot(CoinState())  # a new scene: no wins yet

    def undo(self, state: EngineState, closed: ClosedRound) -> EngineState:
        return state.with_slot(closed.before.get(CoinState) or CoinState())

    def closer(self, state: EngineState, dice: RecordingDice) -> Closer:
        return _CoinCloser(dice=dice, coin=state.slot(CoinState))


COIN = CoinRuleset()
