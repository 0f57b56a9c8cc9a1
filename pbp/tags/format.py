"""The pieces of a tag's canonical text (what ``pbp parse`` shows and what reads back to the
same tag): each ruleset's grammar writes its own tag kinds (its ``FORMATS``) with them, and the
tags every scene shares are written here; ``pbp.tags.registry.format_tag`` writes any tag."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pbp.tags.model import PassTag, RollTag


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
