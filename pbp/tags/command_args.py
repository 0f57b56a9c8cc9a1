"""Reading the arguments of a command line: words, quotes, lists, keywords, numbers, post ids.

Arguments run to the end of the line. Quotes are allowed and never needed: a quoted part is one
word that is never read as a keyword, so ``!npc "Side Winder" body 2`` works.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from urllib.parse import urlsplit

from pbp.errors import PbpError
from pbp.values import frozen_value

# Opening quote -> closing quote (curly ones are folded by normalisation; kept for safety).
_QUOTES: dict[str, str] = {'"': '"', "'": "'", "“": "”", "‘": "’"}
_MINUS = "-−–"  # ASCII hyphen, the minus sign and the en dash autocorrect likes
_SIGNS = frozenset(f"+{_MINUS}")
_INTEGER = re.compile(rf"([+{re.escape(_MINUS)}]?)([0-9]{{1,9}})")
_POST_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_PUNCTUATION = frozenset(".!?,;:")


class ArgumentError(PbpError):
    """Raised inside the command parser when arguments do not read; never leaves it."""

    def __init__(self, *, found: str, expected: str) -> None:
        self.found = found
        self.expected = expected
        super().__init__(f"found {found!r}, expected {expected}")


@frozen_value(kw_only=False)
class Token:
    """One word of the arguments, a quoted part, or a comma."""

    text: str
    quoted: bool = False

    def is_word(self, *words: str) -> bool:
        """Whether this is one of ``words`` (lower case), unquoted."""
        return not self.quoted and self.text.lower() in words

    @property
    def is_comma(self) -> bool:
        """Whether this is a list separator."""
        return not self.quoted and self.text == ","

    @property
    def is_punctuation(self) -> bool:
        """Whether this is only sentence punctuation (``!close.``)."""
        return not self.quoted and all(char in _PUNCTUATION for char in self.text)


def tokenize(text: str) -> list[Token]:
    """Split arguments into words, quoted parts and commas."""
    tokens: list[Token] = []
    position = 0
    while position < len(text):
        char = text[position]
        if char.isspace():
            position += 1
        elif char == ",":
            tokens.append(Token(","))
            position += 1
        elif char in _QUOTES:
            close = _closing_quote(text, start=position)
            if close < 0:
                position += 1  # a stray quote mark: drop it, read on
                continue
            inner = " ".join(text[position + 1 : close].split())
            if inner:
                tokens.append(Token(inner, quoted=True))
            position = close + 1
        else:
            end = position
            while end < len(text) and not text[end].isspace() and text[end] != ",":
                end += 1
            tokens.append(Token(text[position:end]))
            position = end
    return tokens


def _closing_quote(text: str, *, start: int) -> int:
    """Where the quote opened at ``start`` closes, or -1.

    A single quote closes only at the end of a word, so ``Ma'at`` inside it is kept.
    """
    closer = _QUOTES[text[start]]
    search = start + 1
    while (found := text.find(closer, search)) >= 0:
        if closer == '"' or found + 1 == len(text) or text[found + 1].isspace():
            return found
        if text[found + 1] == ",":
            return found
        search = found + 1
    return -1


def join(tokens: Iterable[Token]) -> str:
    """The tokens as one text again: words spaced, commas attached."""
    text = ""
    for token in tokens:
        text += "," if token.is_comma else (" " if text else "") + token.text
    return text


def split_list(tokens: Sequence[Token]) -> list[str]:
    """Names separated by commas or ``and``; empty items are dropped."""
    items: list[str] = []
    current: list[Token] = []
    for token in [*tokens, Token(",")]:
        if token.is_comma or token.is_word("and"):
            if current:
                items.append(join(current))
            current = []
        else:
            current.append(token)
    return items


def merge_words(tokens: Sequence[Token], pairs: dict[tuple[str, str], str]) -> list[Token]:
    """Fold two-word keywords into one (``dice pool`` -> ``dice_pool``); ``-`` reads as ``_``."""
    merged: list[Token] = []
    for token in tokens:
        dashed = token.text.lower().replace("-", "_")
        if not token.quoted and "-" in token.text and dashed in pairs.values():
            token = Token(dashed)
        previous = merged[-1] if merged else None
        if previous is not None and not previous.quoted and not token.quoted:
            joined = pairs.get((previous.text.lower(), token.text.lower()))
            if joined is not None:
                merged[-1] = Token(joined)
                continue
        merged.append(token)
    return merged


@frozen_value
class Option:
    """A keyword and the tokens after it, up to the next keyword."""

    keyword: str
    written: str
    values: tuple[Token, ...]


def split_keywords(
    tokens: Sequence[Token], *, keywords: frozenset[str]
) -> tuple[list[Token], list[Option]]:
    """The tokens before the first keyword, then each keyword with its values.

    Commas at the ends of each part are dropped (``!npc Imp, body 2, mind 1``). A keyword given
    twice is an ArgumentError.
    """
    parts: list[tuple[Token | None, list[Token]]] = [(None, [])]
    for token in tokens:
        if token.is_word(*keywords):
            if any(k is not None and k.text.lower() == token.text.lower() for k, _ in parts):
                raise ArgumentError(found=token.text, expected=f"{token.text.lower()} only once")
            parts.append((token, []))
        else:
            parts[-1][1].append(token)
    head = _trim_commas(parts[0][1])
    options = [
        Option(keyword=k.text.lower(), written=k.text, values=tuple(_trim_commas(values)))
        for k, values in parts[1:]
        if k is not None
    ]
    return head, options


def _trim_commas(tokens: list[Token]) -> list[Token]:
    start, end = 0, len(tokens)
    while start < end and tokens[start].is_comma:
        start += 1
    while end > start and tokens[end - 1].is_comma:
        end -= 1
    return tokens[start:end]


def glue_signs(tokens: Sequence[Token]) -> tuple[Token, ...]:
    """Join a lone ``+`` or ``-`` to the number after it: ``+ 2`` is ``+2`` written loosely."""
    glued: list[Token] = []
    for token in tokens:
        previous = glued[-1] if glued else None
        unsigned = read_int(token.text) is not None and token.text[0] not in _SIGNS
        if previous is not None and not previous.quoted and previous.text in _SIGNS and unsigned:
            glued[-1] = Token(previous.text + token.text)
        else:
            glued.append(token)
    return tuple(glued)


def read_int(text: str) -> int | None:
    """A whole number with an optional sign (``+2``, ``-1``, ``−1``), or None."""
    match = _INTEGER.fullmatch(text.strip())
    if match is None:
        return None
    sign, digits = match.groups()
    return -int(digits) if sign and sign in _MINUS else int(digits)


def number(tokens: Sequence[Token], *, low: int, high: int, expected: str) -> int:
    """Exactly one number from ``low`` to ``high``, else an ArgumentError naming ``expected``.

    A lone sign before the number joins it (``+ 2``).
    """
    glued = glue_signs(tokens)
    value = read_int(glued[0].text) if len(glued) == 1 else None
    if value is None or not low <= value <= high:
        raise ArgumentError(found=join(tokens), expected=expected)
    return value


def required_name(tokens: Sequence[Token], *, expected: str) -> str:
    """A name as written (trimmed), which must be there.

    Whether a new name is allowed (reserved words, characters tags use, taken) is the engine's
    check when the command acts: it knows the roster.
    """
    name = join(tokens).strip()
    if not name:
        raise ArgumentError(found="", expected=expected)
    return name


def post_id(text: str) -> str | None:
    """The post id in ``text``: an id as given, or the id a permalink ends with.

    In a Reddit permalink (``/r/x/comments/POST/slug/COMMENT/``) the comment id wins over the
    submission's; any other link gives its last path segment that looks like an id.
    """
    text = text.strip()
    if _POST_ID.fullmatch(text):
        return text
    if "/" not in text:
        return None
    segments = [part for part in urlsplit(text).path.split("/") if part]
    if not urlsplit(text).netloc and "://" not in text:
        segments = [part for part in text.split("?")[0].split("#")[0].split("/") if part]
    if "comments" in segments:
        after = segments[segments.index("comments") + 1 :]
        candidates = [after[2]] if len(after) >= 3 else after[:1]
    else:
        candidates = list(reversed(segments))
    return next((part for part in candidates if _POST_ID.fullmatch(part)), None)
