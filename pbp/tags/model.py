"""Typed tags: what one bracketed instruction in a post means (SPEC §2.1 to §2.4).

Here are what every tag kind shares (``Source``), the tags every scene reads (``[pass]``,
``[roll]``) and the scene kinds; each ruleset's own tag kinds are in its tag grammar,
``pbp/tags/rulesets/<name>.py``, and ``pbp.tags.registry.Tag`` is the union of them all.

Every tag carries ``source`` (where it stood and how it was written) and ``as_name`` (the
``as NAME`` option, resolved to a roster name, or None). Names in tags are resolved against the
scene's names while parsing (exact, then unique prefix), so a tag that exists holds canonical
names only.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


@dataclass(frozen=True, slots=True, kw_only=True)
class Source:
    """Where a tag or command stood in its post and how it was written.

    ``index`` counts the tags of the post from 0 (a split is one tag; commands count their own
    lines from 0): it is the tag's part of the dice key (SPEC §6).
    """

    index: int
    line: int
    column: int
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class PassTag:
    """``[pass]``: the character is done for the round."""

    source: Source
    as_name: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class RollTag:
    """``[roll: 2d6+3]``: generic dice; ``expression`` is checked notation."""

    source: Source
    expression: str
    as_name: str | None = None


class SceneKind(StrEnum):
    """What a thread is running now (SPEC §1); it fixes which verbs exist."""

    DISTAT = "distat"
    ABSTRACT = "abstract"
    D20 = "d20"
    SKIRMISH = "skirmish"
    BATTLE = "battle"


# Words a name may not be on its own (the campaign loader refuses them), and characters a name
# may not contain: they would make tags ambiguous (SPEC §2).
RESERVED_WORDS: frozenset[str] = frozenset(
    {
        # verbs and aliases
        "move", "physical", "mental", "identify", "pass", "roll", "abstract", "reaction",
        "check", "attack", "aid", "compare", "effect", "cast", "act", "p", "m",
        # maneuver words
        "restrain", "escape", "feat", "use", "on", "with", "vs",
        # option words
        "bonus", "as", "body", "mind", "away", "bailiwick", "other", "spend", "all", "bank",
        "auto", "take", "tools", "none", "improvised", "pool", "adv", "dis", "heal", "spell",
        "react",
    }
)  # fmt: skip
NAME_FORBIDDEN_CHARS: frozenset[str] = frozenset("[]|,;:/")
