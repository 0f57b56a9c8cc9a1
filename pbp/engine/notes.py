"""A ruleset's word on a tag it accepted (``Ruleset.notes``): a warning the post's reply
carries beside the confirmation, such as a cast that will put its caster out. Like a refusal,
a note holds facts, never English: ``notes/<ruleset>/<cause>.md.j2`` words it."""

from __future__ import annotations

from typing import ClassVar

from pbp.values import frozen_value


@frozen_value
class Note:
    """A warning on an accepted tag; ``ruleset`` and ``cause`` name its template."""

    ruleset: ClassVar[str] = ""
    cause: ClassVar[str] = ""
    tag: str  # the accepted tag as written
    actor: str  # whom it speaks of: under hide-npcs an NPC's notes are not shown (SPEC §4.5)

    @property
    def template(self) -> str:
        """The template that words it."""
        return f"notes/{self.ruleset}/{self.cause}.md.j2"
