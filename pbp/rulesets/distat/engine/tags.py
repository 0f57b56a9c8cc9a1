"""Distat tags into the rules' intents, and the checks a tag gets when it is read (SPEC §4.2)."""

from __future__ import annotations

from dataclasses import dataclass, field

from pbp.engine.actors import Actor
from pbp.engine.pending import Pending
from pbp.engine.problems import ActionUsed, RuleBroken
from pbp.engine.state import Accepted
from pbp.errors import Problem
from pbp.rulesets.distat import rules as distat
from pbp.rulesets.distat.engine.refusals import BonusBudget
from pbp.rulesets.distat.rules import DistatScene
from pbp.rulesets.distat.rules.intents import (
    Attack,
    Check,
    Escape,
    Feat,
    Identify,
    Intent,
    Move,
    Pass,
    Restrain,
    Split,
    Stat,
    UseTalent,
)
from pbp.rulesets.distat.tags import ActionPart, ActionTag, IdentifyTag, Maneuver, MoveTag
from pbp.tags import resolve_name
from pbp.tags.commands import BonusCommand, Command
from pbp.tags.model import PassTag
from pbp.tags.registry import Tag
from pbp.values import replace

ALL_SLOTS: frozenset[str] = frozenset({"move", "physical", "mental"})
_BY_EFFECT: dict[str, type[Attack | Restrain]] = {"attack": Attack, "restrain": Restrain}


def _talent_effect(scene: DistatScene, actor: str, talent: str) -> str:
    sheet = distat.fighter(scene, actor)
    found = next((t for t in sheet.talents if t.name.casefold() == talent.casefold()), None)
    return (found.effect if found is not None else None) or "none"


def _check_part(
    scene: DistatScene, *, actor: str, stat: Stat, part: ActionPart, bonus: int
) -> Check | Escape | Feat:
    target = part.target or ""
    match part.maneuver:
        case Maneuver.ATTACK:
            return Attack(actor=actor, stat=stat, target=target, share=part.share, bonus=bonus)
        case Maneuver.RESTRAIN:
            return Restrain(actor=actor, stat=stat, target=target, share=part.share, bonus=bonus)
        case Maneuver.ESCAPE:
            return Escape(actor=actor, bonus=bonus)
        case Maneuver.FEAT:
            return Feat(actor=actor, stat=stat, feature=part.target, tn=part.tn, bonus=bonus)
        case Maneuver.USE:
            talent = part.talent or ""
            effect = _talent_effect(scene, actor, talent)
            kind = _BY_EFFECT.get(effect, UseTalent)  # any other: an opposed check only
            return kind(
                actor=actor, stat=stat, target=target, talent=talent, share=part.share, bonus=bonus
            )


def intent_of(tag: Tag, *, actor: str, scene: DistatScene) -> Intent | None:
    """The rules' intent for a Distat tag acting for ``actor`` (None: not a Distat tag)."""
    match tag:
        case MoveTag():
            return Move(actor=actor, target=tag.target, stat=tag.stat)
        case IdentifyTag():
            return Identify(actor=actor, target=tag.target)
        case PassTag():
            return Pass(actor=actor)
        case ActionTag() if tag.is_split:
            parts = tuple(
                _check_part(scene, actor=actor, stat=tag.stat, part=p, bonus=0) for p in tag.parts
            )
            checks = tuple(p for p in parts if isinstance(p, Attack | Restrain | UseTalent))
            return Split(actor=actor, stat=tag.stat, parts=checks)
        case ActionTag():
            return _check_part(
                scene, actor=actor, stat=tag.stat, part=tag.parts[0], bonus=tag.bonus
            )
    return None


def bonus_of(intent: Intent) -> int:
    """Bonus-pool points an intent spends."""
    return getattr(intent, "bonus", 0) if not isinstance(intent, Split) else 0


@dataclass(slots=True)
class Declared:
    """What the round's accepted Distat tags declared, for the checks of later ones (RULES §6)."""

    moves: dict[str, Move] = field(default_factory=dict)
    # talents declared used earlier this round, (user, talent), in post order: an Identify read
    # after one is checked as if it had been seen
    talents: list[tuple[str, str]] = field(default_factory=list)
    restraints: list[Restrain] = field(default_factory=list)  # attempted: an escape may follow
    # the GM's `!bonus` earlier in the round's order, (name as written, points): a later tag
    # may spend them (RULES §7.5)
    granted: list[tuple[str, int]] = field(default_factory=list)

    def granted_to(self, name: str, names: tuple[str, ...]) -> int:
        """The bonus points the GM's earlier ``!bonus`` lines gave (or took from) ``name``."""
        return sum(n for who, n in self.granted if resolve_name(who, candidates=names) == name)


def count_command(pending: Pending, command: Command) -> None:
    """Note a GM's ``!bonus`` for the tags after it in the round's order."""
    if isinstance(command, BonusCommand):
        pending.of(Declared).granted.append((command.name, command.amount))


def count(pending: Pending, accepted: Accepted) -> None:
    """Note what an accepted Distat tag declared."""
    declared = pending.of(Declared)
    intent = accepted.intent
    if isinstance(intent, Move):
        declared.moves[accepted.actor] = intent
    parts = intent.parts if isinstance(intent, Split) else (intent,)
    for part in parts:
        talent = getattr(part, "talent", None)
        if isinstance(talent, str):
            declared.talents.append((accepted.actor, talent))
        if isinstance(part, Restrain):
            declared.restraints.append(part)


def _where(problem: Problem, tag: Tag) -> Problem:
    return replace(problem, tag=tag.source.text, line=tag.source.line, column=tag.source.column)


def _scene_for(scene: DistatScene, intent: Intent, pending: Pending) -> DistatScene:
    """The scene as it stands, with what earlier posts of the round declared, never their
    outcomes (RULES §6): every move made (a player who moves to a goblin and attacks it in one
    round is checked where they will stand), the talents declared used seen by the others,
    and, for an escape, the restraints attempted on the actor in place."""
    actor = intent.actor
    declared = pending.of(Declared)
    for user, talent in declared.talents:
        if user != actor:
            scene = distat.saw_use(scene, user, talent)
    for move in declared.moves.values():  # made as declared, whatever a check would say
        if not distat.validate(scene, move):
            scene = distat.arrive(scene, move)[0]
    if isinstance(intent, Escape) and distat.view(scene, actor).restrained is None:
        for attempt in declared.restraints:
            if attempt.target == actor:
                scene = distat.restrain(scene, by=attempt.actor, target=actor, stat=attempt.stat)[0]
                break
    return scene


def check_tag(
    *, scene: DistatScene, tag: Tag, actor: Actor, pending: Pending
) -> Accepted | Problem:
    """Accept a Distat tag for ``actor`` or say why not: its action already used this round,
    bonus points beyond what is left, or what the rules refuse as the scene stands."""
    granted = pending.of(Declared).granted_to(actor.name, distat.names(scene))
    if granted:  # RULES §7.5: a GM's `!bonus` earlier in the round's order is there at its turn
        scene = distat.add_bonus(scene, name=actor.name, amount=granted)
    intent = intent_of(tag, actor=actor.name, scene=scene)
    assert intent is not None  # the caller routes only Distat tags here
    slots = ALL_SLOTS if isinstance(intent, Pass) else frozenset(distat.slots_used(scene, intent))
    # RULES D8: one move, one physical and one mental action per character per round
    used = pending.slots.get(actor.name, {})
    for slot in sorted(slots):
        if slot in used:
            return _where(ActionUsed(tag="", actor=actor.name, slot=slot, by_post=used[slot]), tag)
    # RULES D15: the bonus points of all this round's tags come out of one pool
    bonus = bonus_of(intent)
    left = distat.fighter(scene, actor.name).bonus_pool - pending.bonus.get(actor.name, 0)
    if bonus > 0 and bonus > left:
        return _where(BonusBudget(tag="", actor=actor.name, asked=bonus, left=max(left, 0)), tag)
    accepted = Accepted(
        tag=tag,
        intent=intent,
        actor=actor.name,
        on_behalf=actor.on_behalf,
        slots=slots,
        bonus=bonus,
    )
    violations = distat.validate(_scene_for(scene, intent, pending), intent)
    if violations:
        return _where(RuleBroken(tag="", violation=violations[0], would_be=accepted), tag)
    return accepted
