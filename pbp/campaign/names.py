"""The names a campaign file gives (characters, sides, skills, talents) checked so that tags
can name them unambiguously (SPEC §2)."""

from __future__ import annotations

from pbp.campaign.tables import KeyPath, Reader
from pbp.tags.model import NAME_FORBIDDEN_CHARS, RESERVED_WORDS


def check_name(reader: Reader, name: str, at: KeyPath, *, what: str) -> str:
    """``name`` without surrounding spaces, if tags can name it unambiguously (SPEC §2)."""
    name = " ".join(name.split())
    if not name:
        reader.fail(at, f"the {what} is empty", "a name of at least one letter")
    bad = sorted({c for c in name if c in NAME_FORBIDDEN_CHARS})
    if bad:
        reader.fail(
            at,
            f'{what} "{name}" contains {" ".join(bad)}',
            "a name without any of "
            + " ".join(sorted(NAME_FORBIDDEN_CHARS))
            + " (they separate the parts of a tag)",
        )
    if name.casefold() in RESERVED_WORDS:
        reader.fail(
            at,
            f'{what} "{name}" is a word of the tag language',
            "a name that is not a verb, maneuver or option word alone (attack, use, "
            'bonus, …): add a word, e.g. "' + name + ' Two"',
        )
    return name
