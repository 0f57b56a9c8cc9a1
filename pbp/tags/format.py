"""The canonical text of a tag: what ``pbp parse`` shows and what reads back to the same tag.

Each ruleset's grammar writes its own tag kinds (its ``FORMATS``) with the pieces here; the
tags every scene shares are written here."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from pbp.tags.model import PassTag, RollTag

if TYPE_CHECKING:
    from pbp.tags.registry import Tag


def signed(number: int) -> str:
    """``+2``, ``-1``."""
    return f"{number:+d}"


def bracket(verb: str, body: str, options: list[str], as_name: str | None) -> str:
    """``[verb: body, option, as NAME]``."""
    if as_name is not None:
        options.append(f"as {as_name}")
    inner = ", ".join([body, *options]) if body else ", ".join(options)
    return f"[{verb}: {inner}]" if inner else f"[{verb}]"


def with_bonus(skill: str, bonus: int | None) -> str:
    """``Climb +4``, or ``Climb`` when the bonus comes from the sheet."""
    return skill if bonus is None else f"{skill} {signed(bonus)}"


# the tags every scene shares (SPEC §2)
COMMON_FORMATS: Mapping[type, Callable[[Any], str]] = {
    PassTag: lambda tag: bracket("pass", "", [], tag.as_name),
    RollTag: lambda tag: bracket("roll", tag.expression, [], tag.as_name),
}


def format_tag(tag: Tag) -> str:
    """The canonical text of a tag, e.g. ``[physical: attack Goblin, bonus 2]``: its
    ruleset's grammar writes it (``pbp.tags.registry.FORMATS``)."""
    from pbp.tags.registry import FORMATS  # the grammars import this module

    return FORMATS[type(tag)](tag)
