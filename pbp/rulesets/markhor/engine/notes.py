"""The Markhorspire warnings on an accepted tag (``Ruleset.notes``): what a player should
know before the close. Each words itself in ``templates/notes/markhor/<cause>.md.j2``."""

from __future__ import annotations

from typing import ClassVar

from pbp.engine.notes import Note
from pbp.engine.state import Accepted
from pbp.rulesets.markhor.engine.model import Course, MarkhorState
from pbp.values import frozen_value


@frozen_value
class LastWp(Note):
    """RULES M2, §6, §7: a cast that pays the caster's last WP with no HP left puts the caster
    out; a self-heal is then void, any other cast still lands."""

    ruleset: ClassVar[str] = "markhor"
    cause: ClassVar[str] = "last_wp"
    target: str | None
    self_heal: bool


def notes_on(accepted: Accepted, markhor: MarkhorState, *, player: bool) -> tuple[Note, ...]:
    """The warnings on an accepted skirmish or battle tag, read against the fight as the
    round found it; ``player``: its actor is a player's character (the GM knows the NPCs')."""
    course = accepted.intent
    if not player or not isinstance(course, Course) or course.verb not in ("cast", "heal"):
        return ()
    pools = markhor.pool(course.actor)
    if pools is None or pools.hp > 0 or pools.wp != 1:
        return ()
    self_heal = course.verb == "heal" and course.target == course.actor
    note = LastWp(tag=accepted.tag.source.text, actor=course.actor, target=course.target,
                  self_heal=self_heal)  # fmt: skip
    return (note,)
