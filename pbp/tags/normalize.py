"""Text normalisation before reading (SPEC §2): what a phone keyboard or an editor changed."""

from __future__ import annotations

import re
import unicodedata

# Spoiler markers are swapped for private-use characters of the same length before Markdown is
# parsed, so `>!` does not open a quote; tags inside spoilers count (SPEC §2).
SPOILER_OPEN = "\ue000\ue001"
SPOILER_CLOSE = "\ue002\ue003"

_QUOTES = str.maketrans(
    {
        "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
        "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"',
        "\u2028": "\n", "\u2029": "\n", "\r": None,
        # zero-width characters: invisible, they would only split words
        "\u200b": None, "\u200c": None, "\u200d": None, "\u2060": None, "\ufeff": None,
        "\ue000": None, "\ue001": None, "\ue002": None, "\ue003": None,
        # direction controls (a right-to-left override would turn a name echoed in a reply
        # around), and the control character the Markdown reader uses for code spans
        "\u200e": None, "\u200f": None, "\u061c": None, "\u202a": None, "\u202b": None,
        "\u202c": None, "\u202d": None, "\u202e": None, "\u2066": None, "\u2067": None,
        "\u2068": None, "\u2069": None, "\x01": None,
    }
)  # fmt: skip
_SPACES = re.compile(r"[^\S \t\n]")  # any whitespace but space, tab and newline (tabs indent code)
_TRANSLATED = re.compile("[" + "".join(re.escape(chr(c)) for c in _QUOTES) + "]")
_MARKS = re.compile("[" + SPOILER_OPEN + SPOILER_CLOSE + "]")


# The only ASCII characters normalising changes: "\r" and the code-span mark are dropped, and
# the other spaces become " " (NFKC leaves ASCII as it is; every other change is to non-ASCII).
_ASCII_CHANGED = ("\r", "\x01", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f")


def normalise(text: str) -> str:
    """NFKC (full-width brackets and colons fold), plain spaces, straight quotes, ``\\n`` lines."""
    if text.isascii():  # most posts: unless one of a few control characters is there, as it is
        for changed in _ASCII_CHANGED:
            if changed in text:
                return normalise_any(text)
        return text
    return _common(text) or normalise_any(text)


# The non-ASCII characters most posts hold (quotes, dashes, ellipses, spaces a keyboard or an
# editor puts in), each normalised on its own; the ASCII ones normalising changes.
_COMMON = "\u2018\u2019\u201c\u201d\u2014\u2013\u2026\u00a0\u2032\u2033\u200b\u2012\u00ab\u00bb"


def _common(text: str) -> str | None:
    """``normalise_any(text)`` when ``text`` holds no other non-ASCII character than those of
    ``_COMMON``, else None. Each of them is a starter that NFKC keeps or folds to ASCII, so
    it composes with no neighbour that is ASCII or one of them: such a text normalises
    character by character (a test holds this to ``normalise_any``), and a search and a
    replace for each character it holds is much cheaper than NFKC and a translation."""
    probe = text
    for character, normal in _CHANGES:
        if character in text:
            text = text.replace(character, normal)
            probe = text
    for character in _KEPT:
        if character in probe:
            probe = probe.replace(character, "")
    return text if probe.isascii() else None


def _normal_alone(character: str) -> str:
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", character).translate(_QUOTES))


_CHANGES = tuple(
    (character, _normal_alone(character))
    for character in _COMMON + "".join(_ASCII_CHANGED)
    if _normal_alone(character) != character
)
_KEPT = tuple(character for character in _COMMON if _normal_alone(character) == character)


def normalise_any(text: str) -> str:
    """``normalise`` step by step, for any text (the ASCII shortcut is tested against it)."""
    text = text.replace("\r\n", "\n")
    text = unicodedata.normalize("NFKC", text)
    if _TRANSLATED.search(text):  # most posts hold none of them: the search is much cheaper
        text = text.translate(_QUOTES)
    return _SPACES.sub(" ", text)


def protect_spoilers(text: str) -> str:
    """Swap ``>!`` and ``!<`` for private-use marks of the same length."""
    if "!" not in text:  # both marks hold one
        return text
    return text.replace(">!", SPOILER_OPEN).replace("!<", SPOILER_CLOSE)


def strip_marks(text: str) -> str:
    """Drop the spoiler marks from text that is read as a tag or a command."""
    return _MARKS.sub("", text)


def has_marks(text: str) -> bool:
    """Whether ``text`` holds a spoiler mark (most lines hold none: nothing to strip)."""
    # a search for one character each: in ASCII text none is made at all (none can be there)
    return "\ue000" in text or "\ue001" in text or "\ue002" in text or "\ue003" in text
