"""A standing order (``!standing``) as the engine keeps it, and the turn board the thread's
opening post shows: plain values, kept in the engine's state and in effects."""

from __future__ import annotations

from datetime import datetime

from pbp.values import frozen_value

HOLD = "hold"  # the post id a default hold acts under (the campaign's standing_default)


@frozen_value
class StandingOrder:
    """What ``character`` does in a round it has not acted in by the close: ``text`` (one tag,
    with ``as NAME`` when the command named the character), as ``author`` wrote it in line
    ``line`` of post ``post_id``."""

    character: str
    text: str
    author: str
    gm: bool
    post_id: str
    line: int

    @property
    def acts_as(self) -> str:
        """The id of the post the order acts as at a close (unique in its round: one post
        may set orders for several characters, one a line)."""
        return f"standing:{self.post_id}:{self.line}"


@frozen_value
class TurnBoard:
    """Whose turn it is, for the opening post: the open round, its deadline (and the end of
    its grace, once the deadline has passed), who has acted, who is still to act, who acts
    by standing order."""

    round_number: int
    deadline: datetime | None
    grace_until: datetime | None
    acted: tuple[str, ...]
    to_act: tuple[str, ...]
    standing: tuple[str, ...]
