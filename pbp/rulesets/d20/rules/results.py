"""Values shared by every d20 check: outcomes, reasons, named modifiers."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pbp.values import frozen_value

Outcome = Literal["success", "failure"]


class Reason(StrEnum):
    """Why a check came out the way it did (a code; templates hold the wording)."""

    MET_DC = "met_dc"  # total >= DC
    BELOW_DC = "below_dc"
    TAKE_1 = "take_1"  # bonus >= DC - 1: success without a roll
    NATURAL_20 = "natural_20"  # attack rolls only
    NATURAL_1 = "natural_1"
    HIGHER_TOTAL = "higher_total"
    HIGHER_MODIFIER = "higher_modifier"
    TIE_ROLL = "tie_roll"
    HIGHER_SCORE = "higher_score"


@frozen_value
class Modifier:
    """One named part of a check's modifier: ``bonus``, ``condition``, ``tools`` or ``aid``."""

    name: str
    value: int


def outcome_of(success: bool) -> Outcome:
    """``"success"`` or ``"failure"``."""
    return "success" if success else "failure"
