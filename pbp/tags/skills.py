"""``SKILL +N``, as the tags of the scenes that roll skills write it (d20, Epic Path)."""

from __future__ import annotations

from pbp.tags.cursor import Cursor, Reject, is_signed
from pbp.tags.problems import (
    IncompleteTag,
)


def read_skill(cursor: Cursor, *, verb: str, stop: frozenset[str]) -> tuple[str, int | None]:
    """``SKILL +N``: the words up to a modifier (skills may hold spaces and parentheses); with
    no ``+N`` the bonus is the sheet's (None)."""
    skill = cursor.take_words(stop, signed_stops=True).strip()
    if not skill:
        raise Reject(IncompleteTag(tag="", verb=verb, missing="SKILL +N"))
    if not is_signed(cursor.peek_word()):
        return skill, None
    return skill, cursor.take_signed(verb=verb, option=skill)
