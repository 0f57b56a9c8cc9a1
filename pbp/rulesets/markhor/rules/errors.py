"""Why a Markhorspire request cannot be carried out. Errors carry a ``code`` and a ``detail``.

Codes (each names its reply template): ``no_wp_to_cast``, ``out_cannot_heal`` (pools);
``ap_short``, ``turn_ap_cap``, ``reaction_before_first_turn``, ``one_reaction_per_turn``,
``reaction_on_own_turn``, ``not_as_reaction`` (action points); ``one_course_per_turn``
(skirmish turns).
"""

from __future__ import annotations

from pbp.errors import PbpError


class MarkhorError(PbpError):
    """A Markhorspire request the rules refuse. ``code`` names the cause and its reply template."""

    code: str = "markhor_refused"

    def __init__(self, *, code: str, detail: str) -> None:
        self.code = code
        self.detail = detail
        super().__init__(f"{code}: {detail}")


class PoolRefused(MarkhorError):
    """HP/WP cannot pay for this: a cast at 0 WP, healing someone out (RULES M2, M3)."""


class ActionRefused(MarkhorError):
    """Action points or reaction timing do not allow this action (RULES M7)."""


class CourseRefused(MarkhorError):
    """A skirmish combatant already took its one course of action this turn (RULES M9)."""
