"""The GM's commands on the Distat roster: set-up at once (``!npc``, ``!group``, ``!feature``)
and corrections of Body, Mind and the bonus pool in resolution order (``!damage``, ``!heal``,
``!bonus``)."""

from __future__ import annotations

from pbp.campaign.model import CharacterSheet
from pbp.engine.report import CorrectionEntry
from pbp.engine.setup import resolve_in
from pbp.errors import Problem
from pbp.rulesets.distat import rules as distat
from pbp.rulesets.distat.rules import DistatScene, Fighter
from pbp.rulesets.distat.sheet import DistatSheet
from pbp.rulesets.distat.tags import Stat
from pbp.tags.commands import (
    BonusCommand,
    Command,
    DamageCommand,
    HealCommand,
    NpcCommand,
)
from pbp.values import replace


def fighter_from_sheet(sheet: CharacterSheet) -> Fighter:
    """A character's Distat state at the start of a campaign."""
    own = sheet.part(DistatSheet)
    return Fighter(
        name=sheet.name,
        side=sheet.side,
        body=own.body,
        mind=own.mind,
        talents=own.talents,
        bonus_pool=own.bonus_pool,
    )


def npc_fighter(command: NpcCommand) -> Fighter:
    """The Distat state of an NPC the GM's ``!npc`` adds."""
    return Fighter(
        name=command.name,
        side=command.side or "foes",
        body=command.body,
        mind=command.mind,
        bonus_pool=dict(command.scores).get("bonus_pool", 0),
    )


def apply_correction(
    scene: DistatScene, command: Command, *, post_id: str
) -> tuple[DistatScene, CorrectionEntry | Problem | None]:
    """A correction (``!damage``, ``!heal``, ``!bonus``) at its place in the resolution."""
    match command:
        case DamageCommand() | HealCommand() | BonusCommand():
            found = resolve_in(scene, command.name, command=command, features=False)
            if not isinstance(found, str):
                return scene, found
            return _correct(scene, command, found, post_id)
    return scene, None


def _correct(
    scene: DistatScene, command: DamageCommand | HealCommand | BonusCommand, name: str, post_id: str
) -> tuple[DistatScene, CorrectionEntry]:
    entry = CorrectionEntry(
        post_id=post_id,
        command=command.source.text,
        character=name,
        what="bonus",
        stat=None,
        amount=command.amount,
    )
    before = distat.view(scene, name).status
    match command:
        case DamageCommand() | HealCommand():
            stat = _distat_stat(command)
            healing = isinstance(command, HealCommand)
            amount = -command.amount if healing else command.amount
            was = distat.view(scene, name)
            scene = distat.apply_damage(scene, name=name, stat=stat, amount=amount)
            now = distat.view(scene, name)
            after = (now.body if stat == "body" else now.mind).damage
            return scene, replace(
                entry, what="heal" if healing else "damage", stat=stat, after=after,
                became=now.status if now.status != before else None,
                changed=abs(after - (was.body if stat == "body" else was.mind).damage),
            )  # fmt: skip
    pool = distat.view(scene, name).bonus_pool
    scene = distat.add_bonus(scene, name=name, amount=command.amount)
    after = distat.view(scene, name).bonus_pool
    return scene, replace(entry, after=after, changed=abs(after - pool))


def _distat_stat(command: DamageCommand | HealCommand) -> Stat:
    """Body or Mind: an HP or WP correction goes to the fight (``markhor_resolve``)."""
    if command.stat == "body":
        return "body"
    assert command.stat == "mind", "hp and wp corrections are the fight's"
    return "mind"
