"""Checking an intent against the scene as it stands, and the action slots it uses."""

from __future__ import annotations

from typing import Literal

from pbp.rulesets.distat.rules.guards import check_problems, escape_problems, feat_problems
from pbp.rulesets.distat.rules.identify import identify_problems
from pbp.rulesets.distat.rules.intents import (
    Attack,
    Escape,
    Feat,
    Identify,
    Intent,
    Move,
    Pass,
    Restrain,
    Split,
    UseTalent,
)
from pbp.rulesets.distat.rules.movement import move_problems, spends_physical
from pbp.rulesets.distat.rules.scene import DistatScene
from pbp.rulesets.distat.rules.split import split_problems
from pbp.rulesets.distat.rules.violations import Violation

Slot = Literal["move", "physical", "mental"]


def validate(scene: DistatScene, intent: Intent) -> tuple[Violation, ...]:
    """Every reason ``intent`` cannot be carried out now; () if it can.

    Counting actions per round is the engine's job (``slots_used``).
    """
    match intent:
        case Move():
            found = move_problems(scene, intent)
        case Attack() | Restrain() | UseTalent():
            found = check_problems(scene, intent, in_split=False)
        case Escape():
            found = escape_problems(scene, intent)
        case Feat():
            found = feat_problems(scene, intent)
        case Split():
            found = split_problems(scene, intent)
        case Identify():
            found = identify_problems(scene, intent)
        case Pass():
            found = []
    return tuple(found)


def slots_used(scene: DistatScene, intent: Intent) -> frozenset[Slot]:
    """The action slots ``intent`` takes: one move, one physical, one mental a round (D8).

    Identify takes the move (RULES D13); a move to a time-constrained feature also takes the
    Physical action unless the mover is Fleet-footed (RULES D12).
    """
    match intent:
        case Move():
            if spends_physical(scene, intent):
                return frozenset({"move", "physical"})
            return frozenset({"move"})
        case Identify():
            return frozenset({"move"})
        case Escape():
            return frozenset({"physical"})
        case Pass():
            return frozenset()
        case Attack() | Restrain() | UseTalent() | Feat() | Split():
            return frozenset({"physical" if intent.stat == "body" else "mental"})
