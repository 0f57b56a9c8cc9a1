"""The coin's tag grammar: ``[flip: heads]`` or ``[flip: tails]``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pbp.tags.cursor import Names, Reject
from pbp.tags.format import bracket
from pbp.tags.model import Source
from pbp.tags.problems import BadOption

SIDES = ("heads", "tails")


@dataclass(frozen=True, slots=True, kw_only=True)
class FlipTag:
    """``[flip: heads]``: the side the character calls."""

    source: Source
    call: str
    as_name: str | None = None


def read_flip(body: str, *, source: Source, names: Names) -> FlipTag:
    """The side called, and nothing else."""
    side = body.strip().lower()
    if side not in SIDES:
        raise Reject(
            BadOption(
                tag=source.text,
                line=source.line,
                column=source.column,
                option=body.strip(),
                verb="flip",
                allowed=SIDES,
            )
        )
    return FlipTag(source=source, call=side)


VERBS: frozenset[str] = frozenset({"flip"})
READERS: Mapping[str, Callable[..., FlipTag]] = {"flip": read_flip}
FORMATS: Mapping[type, Callable[[Any], str]] = {
    FlipTag: lambda tag: bracket("flip", tag.call, [], tag.as_name),
}
MEANINGS: Mapping[type, str] = {FlipTag: "call the coin: heads or tails"}
