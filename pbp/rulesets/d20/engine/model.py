"""The d20 Advanced path of the engine (SPEC §2.3, RULES §3): intents, scene state, records.

Beside the Distat types, not inside them: a d20 tag becomes one of the intents below when it is
read, is resolved at the close in post order with the round's keyed dice, and leaves a
:class:`D20Record` that the ledger and the summary show.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import field
from typing import TYPE_CHECKING, ClassVar, Literal

from pbp.engine.done import Done
from pbp.rules.dice.seeded import RollRecord
from pbp.rulesets.d20.rules.actions import ActionCost, Activity
from pbp.rulesets.d20.rules.conditions import Conditions, Track, step
from pbp.values import frozen_value, replace

if TYPE_CHECKING:  # the checks load with the first d20 tag (engine.rulesets.d20.ruleset)
    from pbp.rulesets.d20.rules.checks import Take


@frozen_value
class D20Check:
    """``[check: SKILL +N vs DC]`` or ``… vs NAME SKILL +M`` (an opposed check)."""

    actor: str
    skill: str
    modifier: int
    dc: int | None = None
    opponent: str | None = None
    opponent_skill: str | None = None
    opponent_modifier: int = 0
    take: Take | None = None
    tools: Literal["none", "improvised"] | None = None
    pool: bool = False


@frozen_value
class D20Attack:
    """``[attack: +N vs DEFENSE]``."""

    actor: str
    modifier: int
    defense: int
    target: str | None = None  # the attacked character, when the tag names one


@frozen_value
class D20Aid:
    """``[aid: NAME SKILL +N]``: the actor helps ``target`` (RULES A5)."""

    actor: str
    target: str
    skill: str
    modifier: int


@frozen_value
class DiceRoll:
    """``[roll: 2d6+3]``: generic dice, checked notation."""

    actor: str
    expression: str


@frozen_value
class D20Compare:
    """``[compare: SCORE N vs NAME M]``: a comparison check, no roll (RULES A12)."""

    actor: str
    score: str
    value: int
    opponent: str
    opponent_value: int
    boost: int = 0


@frozen_value
class D20Effect:
    """``[effect: +N vs NAME RESISTANCE]``: an effect roll against a static DC (RULES A9)."""

    actor: str
    modifier: int
    dc: int
    target: str | None = None
    resistance: str | None = None
    inflict: Track | None = None  # RULES A10: the target's track that worsens if it gets through


D20Intent = D20Check | D20Attack | D20Aid | D20Compare | D20Effect | DiceRoll
D20_INTENTS = (D20Check, D20Attack, D20Aid, D20Compare, D20Effect, DiceRoll)
Verb = Literal["check", "attack", "aid", "compare", "effect", "roll"]
_VERBS: dict[type, Verb] = {
    D20Check: "check",
    D20Attack: "attack",
    D20Aid: "aid",
    D20Compare: "compare",
    D20Effect: "effect",
    DiceRoll: "roll",
}


def intent_verb(intent: D20Intent) -> Verb:
    """The verb of a d20 intent (as its record names it)."""
    return _VERBS[type(intent)]


@frozen_value
class AidBonus:
    """A helper's bonus waiting for ``target``'s next check of ``skill`` (RULES A5)."""

    target: str
    skill: str
    helper: str
    bonus: int


@frozen_value
class D20State:
    """What a d20 scene keeps between rounds.

    ``pressure``: ``!encounter d20 pressure on`` (no taking 10 or 20, RULES A4);
    ``pool_spent``: dice each character's pool has lost (RULES A8; the size is the sheet's
    ``dice_pool`` minus this); ``aid``: helpers' bonuses not used yet; ``conditions``: where
    each character stands on the condition tracks, when off the best step (RULES A10).
    """

    pressure: bool = False
    pool_spent: tuple[tuple[str, int], ...] = ()
    aid: tuple[AidBonus, ...] = ()
    conditions: tuple[tuple[str, Conditions], ...] = ()

    def condition(self, name: str) -> Conditions:
        """``name``'s steps on the condition tracks (all at the best step when none)."""
        return next((c for who, c in self.conditions if who == name), Conditions())

    def with_condition(self, name: str, conditions: Conditions) -> D20State:
        """This state with ``name``'s steps on the tracks replaced."""
        kept = tuple((who, c) for who, c in self.conditions if who != name)
        return replace(self, conditions=(*kept, (name, conditions)))

    def spent(self, name: str) -> int:
        """Dice ``name``'s pool has lost."""
        return next((n for who, n in self.pool_spent if who == name), 0)

    def with_spent(self, name: str, dice: int) -> D20State:
        """This state with ``dice`` more lost from ``name``'s pool."""
        spent = dict(self.pool_spent)
        spent[name] = spent.get(name, 0) + dice
        return replace(self, pool_spent=tuple(spent.items()))


def activity_of(intent: D20Intent) -> Activity | None:
    """What an intent costs of the round's two actions (RULES A11); a generic roll is free.

    A check, an attack and aid another take one action each; taking 20 takes the whole round
    (RULES A4: twenty tries, far more than one action).
    """
    match intent:
        case D20Check(take=20):
            return Activity(name="take 20", cost=ActionCost.TWO)
        case D20Check():
            return Activity(name="check", cost=ActionCost.ONE)
        case D20Attack():
            return Activity(name="attack", cost=ActionCost.ONE)
        case D20Aid():
            return Activity(name="aid", cost=ActionCost.ONE)
        case D20Compare():  # RULES A11: a check, though it rolls nothing
            return Activity(name="comparison", cost=ActionCost.ONE)
        case D20Effect():
            return Activity(name="effect", cost=ActionCost.ONE)
        case DiceRoll():
            return None


@frozen_value
class D20Record:
    """One resolved d20 tag with every number compared.

    ``roll`` is the d20 kept (the taken number when the die was taken, with ``taken`` set);
    ``dc`` the DC or Defense; an opposed check has no DC but ``opponent_total`` (a tie may go
    either way, RULES A1, so the opponent's total is not a DC). ``modifiers`` are the named
    parts of ``modifier``.
    ``reason`` is the rules' reason code (``met_dc``, ``natural_20``, ``tie_roll`` …).
    ``rolls`` lists every die rolled for the tag, with its key (SPEC §6).
    """

    actor: str
    verb: Verb
    skill: str | None = None
    target: str | None = None  # the helped character of an aid, the attacked one of an attack
    roll: int | None = None
    taken: int | None = None
    modifier: int = 0
    modifiers: tuple[tuple[str, int], ...] = ()
    total: int | None = None
    dc: int | None = None
    opponent: str | None = None
    opponent_skill: str | None = None
    opponent_roll: int | None = None
    opponent_modifier: int | None = None
    opponent_total: int | None = None
    tie_roll: int | None = None  # the 50/50 d20 of a tie (RULES A1)
    outcome: Literal["success", "failure", "void"] = "success"
    reason: str | None = None
    critical_threat: bool = False
    aid_bonus: int | None = None  # what an aid grants (0 when it failed)
    resistance: str | None = None  # an effect roll's: the target's resistance (RULES A9)
    margin: int | None = None  # an effect roll's total less the DC
    # RULES A10: an effect's track (``| inflict``) and the target's step on it after the roll
    inflicted: str | None = None
    condition: str | None = None
    pool_dice: tuple[int, ...] = ()  # the pool's d20s when a failed check was retried
    pool_left: int | None = None
    first_roll: int | None = None  # the failed roll a pool retried
    expression: str | None = None
    dice: tuple[int, ...] = ()  # the kept dice of a generic roll
    rolls: tuple[RollRecord, ...] = field(default=())


@frozen_value
class D20Entry:
    """A d20 record with the post it came from; ``order`` places it among the round's actions
    (the post's order in the round, then the tag's index in the post)."""

    post_id: str
    author: str
    tag: str
    record: D20Record
    on_behalf: bool = False
    order: tuple[int, int] = (0, 0)


@frozen_value
class D20Report:
    """The d20 tags a round resolved (any scene rolls ``[roll:]``), in post order."""

    entries: tuple[D20Entry, ...] = ()


@frozen_value
class InjuryEased(Done):
    """A rest or medical care eased ``character``'s injury one step, to ``step`` (RULES A10);
    ``npc``: the GM keeps its step under hide-npcs."""

    template: ClassVar[str] = "injury_eased"
    character: str
    step: str
    night: bool
    npc: bool


def eased(
    d20: D20State, names: Iterable[str], *, night: bool, post_id: str, npcs: frozenset[str]
) -> tuple[D20State, tuple[InjuryEased, ...]]:
    """``d20`` with the injury of each of ``names`` one step better (RULES A10: rest and
    medical care), and a record of each that eased."""
    said: list[InjuryEased] = []
    for name in names:
        now = d20.condition(name)
        if now.position(Track.INJURY) == 0:
            continue
        better = step(now, track=Track.INJURY, by=-1)
        d20 = d20.with_condition(name, better)
        said.append(
            InjuryEased(
                post_id=post_id,
                character=name,
                step=better.name(Track.INJURY),
                night=night,
                npc=name in npcs,
            )
        )
    return d20, tuple(said)
