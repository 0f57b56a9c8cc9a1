"""The names a campaign file gives (characters, sides, skills, talents) checked so that tags
can name them unambiguously (SPEC §2), and the odd ones warned about.

A name is refused when nothing could use it: a NUL character (PostgreSQL cannot store one, so
every poll of the thread would fail), or a length no reply could carry. It loads with a warning
(``pbp check`` shows it) when it holds what a post cannot: a control character, an invisible
one, or one that a post's normalising changes (posts are read NFKC, without zero-width or
direction marks, SPEC §2), so a tag never matches the whole name; when it is long enough to
crowd every summary; or when it looks like template syntax (``{{ 7*7 }}``: shown as written,
never run, but more likely a generator's leftover than a name).
"""

from __future__ import annotations

import re
import unicodedata

from pbp.campaign.tables import KeyPath, Reader, shortened
from pbp.tags.model import NAME_FORBIDDEN_CHARS, RESERVED_WORDS
from pbp.tags.normalize import normalise

LONG_NAME = 50  # longer: warned (players type it, or its start, in tags; summaries show it)
MAX_NAME = 200  # longer: refused (every reply would be mostly this name)
MAX_USERNAME = 100  # no forum's account names are longer (Reddit's: 20)
_TEMPLATE = re.compile(r"\{\{|\}\}|\{%|%\}|\{#|#\}")


def check_name(reader: Reader, name: str, at: KeyPath, *, what: str) -> str:
    """``name`` without surrounding spaces, if tags can name it unambiguously (SPEC §2)."""
    name = " ".join(name.split())
    if not name:
        reader.fail(at, f"the {what} is empty", "a name of at least one letter")
    check_storable(reader, name, at, what=what, longest=MAX_NAME)
    bad = sorted({c for c in name if c in NAME_FORBIDDEN_CHARS})
    if bad:
        reader.fail(
            at,
            f'{what} "{shortened(name)}" contains {" ".join(bad)}',
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
    warn_odd(reader, name, at, what=what)
    if len(name) > LONG_NAME:
        _warn_once(
            reader,
            at,
            f'{what} "{shortened(name)}" is {len(name)} characters long: '
            "players type it (or its start) in tags and every summary line shows it",
            f"a shorter name, at most {LONG_NAME} characters",
        )
    return name


def check_username(reader: Reader, user: str, at: KeyPath) -> str:
    """A GM's or player's forum username: no spaces, nothing no account could hold."""
    user = user.strip()
    if not user or any(ch.isspace() for ch in user):
        reader.fail(at, f'"{shortened(user)}" is not a forum username', "a username without spaces")
    check_storable(reader, user, at, what="username", longest=MAX_USERNAME)
    if any(unicodedata.category(ch) == "Cc" for ch in user):
        controls = [ch for ch in user if unicodedata.category(ch) == "Cc"]
        reader.fail(
            at,
            f'username "{shortened(user)}" holds a control character '
            f"({_described(controls)}), which no forum account has",
            "the account's name as the forum shows it",
        )
    _warn_unseen_in_username(reader, user, at)
    return user.removeprefix("u/")


def warn_odd(reader: Reader, name: str, at: KeyPath, *, what: str) -> None:
    """Warn when ``name`` holds what posts cannot carry, or looks like template syntax."""
    shown = shortened(name)
    controls = [ch for ch in name if unicodedata.category(ch) == "Cc"]
    read = normalise(name)
    changed = [ch for ch in name if ch not in read]
    if controls:
        _warn_once(
            reader,
            at,
            f'{what} "{shown}" holds a control character '
            f"({_described(controls)}): no one can type it in a post, so no tag names "
            "the whole of it",
            "the name without it",
        )
    elif changed and all(unicodedata.category(ch) in ("Cf", "Co") for ch in changed):
        _warn_once(
            reader,
            at,
            f'{what} "{shown}" holds an invisible character '
            f"({_described(changed)}): posts lose it, so a tag never matches the whole "
            "name",
            "the name without it, typed rather than pasted",
        )
    elif read != name:
        _warn_once(
            reader,
            at,
            f'{what} "{shown}" reads as "{shortened(read)}" in a post '
            f"(posts are read in Unicode NFKC form, with straight quotes: "
            f"{_described(changed)}), so a tag never matches it as written",
            f'"{shortened(read)}" instead',
        )
    if _TEMPLATE.search(name):
        _warn_once(
            reader,
            at,
            f'{what} "{shown}" looks like template syntax: replies show it '
            "as written and it is never run; a file filled in from a template may have "
            "left it",
            "the name itself",
        )


def _warn_unseen_in_username(reader: Reader, user: str, at: KeyPath) -> None:
    """An invisible character in a username: the forum names each post's author without
    one, so no post is ever this user's (authors are compared as the forum gives them)."""
    unseen = [ch for ch in user if unicodedata.category(ch) in ("Cf", "Co")]
    if unseen:
        _warn_once(
            reader,
            at,
            f'username "{shortened(user)}" holds an invisible character '
            f"({_described(unseen)}): no forum account's name does, so no post is ever "
            "this user's",
            "the username without it, typed rather than pasted",
        )


def check_storable(
    reader: Reader, name: str, at: KeyPath, *, what: str, longest: int = MAX_NAME
) -> None:
    """Refuse ``name`` when no post could hold it and no database store it (a NUL), or it is
    longer than ``longest``."""
    if "\x00" in name:
        reader.fail(
            at,
            f'{what} "{shortened(name)}" holds a NUL character (U+0000): no post can '
            "hold one and PostgreSQL cannot store one",
            "the name without it",
        )
    if len(name) > longest:
        reader.fail(
            at,
            f'{what} "{shortened(name)}" is {len(name):,} characters long',
            f"at most {longest} characters",
        )


def _described(chars: list[str]) -> str:
    """The first few of ``chars`` by code point and Unicode name (``U+200B ZERO WIDTH
    SPACE``)."""
    return ", ".join(
        f"U+{ord(ch):04X} {unicodedata.name(ch, '')}".rstrip()
        for ch in list(dict.fromkeys(chars))[:3]
    )


def _warn_once(reader: Reader, at: KeyPath, problem: str, expected: str) -> None:
    """One warning for each odd name, however many keys repeat it (a side on every sheet)."""
    if all(warning.problem != problem for warning in reader.warnings):
        reader.warn(at, problem, expected)
