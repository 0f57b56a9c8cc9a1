"""Spending bonus points on recovery after an encounter (RULES D16 step 3, RULES §7.7): a
player's ``!recover Aria body 2`` removes 2 Body damage for 4 points, in the window between
the GM's ``!encounter end`` and the next round's first action."""

from __future__ import annotations

from pbp.engine.setup import resolve_in
from pbp.engine.state import EngineState, PostRecord
from pbp.errors import Problem
from pbp.rulesets.distat import rules as distat
from pbp.rulesets.distat.engine.model import Recovered
from pbp.rulesets.distat.engine.refusals import CannotRecover
from pbp.rulesets.distat.rules import DistatScene
from pbp.rulesets.distat.rules.fighter import with_damage
from pbp.rulesets.distat.rules.rounds import POINTS_PER_DAMAGE
from pbp.rulesets.distat.rules.scene import put
from pbp.tags import resolve_name
from pbp.tags.commands import RecoverCommand
from pbp.values import replace

ENCOUNTER_END = "encounter_end"  # the note a round closed by `!encounter end` carries


def _refusal(command: RecoverCommand, why: str, actor: str, **facts: int) -> CannotRecover:
    source = command.source
    return CannotRecover(
        tag=source.text,
        line=source.line,
        column=source.column,
        why=why,
        actor=actor,
        stat=command.stat,
        **facts,
    )


def recovery_refused(
    state: EngineState, command: RecoverCommand, post: PostRecord
) -> Problem | None:
    """Why ``command`` may not spend now: the window is closed (the last round did not end an
    encounter, or someone has acted since), or the character is not the author's."""
    rnd = state.round
    assert rnd is not None
    found = resolve_in(rnd.base, command.name, command=command, features=False)
    if not isinstance(found, str):
        return found
    last = state.closed[-1].report if state.closed else None
    if last is None or ENCOUNTER_END not in last.notes or rnd.has_actions:
        return _refusal(command, "window", found)
    sheet = state.campaign.character(found)
    player = sheet.player if sheet is not None else None
    if not post.gm and (player is None or player.casefold() != post.author.casefold()):
        return _refusal(command, "not_yours", found)
    return None


def spend_on_recovery(scene: DistatScene, command: RecoverCommand) -> DistatScene | Problem:
    """``scene`` with the damage recovered and the points spent, or why it cannot be."""
    found = resolve_in(scene, command.name, command=command, features=False)
    if not isinstance(found, str):
        return found
    now = distat.fighter(scene, found)
    damage = now.damage_body if command.stat == "body" else now.damage_mind
    points = POINTS_PER_DAMAGE * command.amount
    if command.amount > damage:
        return _refusal(command, "damage", found, asked=command.amount, have=damage)
    if points > now.bonus_pool:
        return _refusal(command, "pool", found, asked=points, have=now.bonus_pool)
    healed = with_damage(now, command.stat, damage - command.amount)
    return put(scene, replace(healed, bonus_pool=now.bonus_pool - points))


def recovered(scene: DistatScene, command: RecoverCommand, *, post_id: str) -> Recovered:
    """What ``command`` did, as the scene stands after it."""
    found = resolve_name(command.name, candidates=distat.names(scene))
    assert isinstance(found, str)
    after = distat.fighter(scene, found)
    return Recovered(
        post_id=post_id,
        character=found,
        stat=command.stat,
        amount=command.amount,
        points=POINTS_PER_DAMAGE * command.amount,
        damage_left=after.damage_body if command.stat == "body" else after.damage_mind,
        pool_left=after.bonus_pool,
    )
