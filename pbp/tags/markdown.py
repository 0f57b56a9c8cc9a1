"""Markdown structure, found the way Reddit renders it (CommonMark), before tags are read.

The post is parsed with markdown-it; only the text of inline ``text`` tokens outside quotes is
read. Quotes, code (inline, fenced, indented), strike-through, link text and images are left
out; where one stood, the line holds ``BREAK`` so no tag can span it (an inline code span
leaves ``CODE`` instead: a tag holding one is reported, not dropped). Emphasis markers drop out
by themselves, and markdown-it undoes backslash escapes (``\\[move: Door\\]``).

Most posts hold no Markdown at all: a post with no character and no line start that could open
a Markdown construct (code, quote, escape, entity, emphasis, strike-through, link, image,
heading, list, table, rule) is read line by line without markdown-it, with the same lines as
markdown-it would give (``plain_lines``; a differential test holds the two paths together). So
is a post whose only Markdown is quotes of their own (``without_quotes``): a reply that quotes
the post it answers.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

BREAK = "\x00"
CODE = "\x01"  # where an inline code span stood (normalise drops the character from posts)
_LEFT_OUT = frozenset(BREAK + CODE)


@cache
def _markdown() -> MarkdownIt:
    """The CommonMark parser, made (and markdown-it imported) only when a post needs it."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": False}).enable(["strikethrough", "table"])


# Inline tokens whose content is left out, and the open/close pairs whose inside is left out.
_SKIPPED = frozenset({"image", "html_inline"})
_SKIPPED_SPANS = {"s_open": "s_close", "link_open": "link_close"}
_LINE_BREAKS = frozenset({"softbreak", "hardbreak"})


class TextLine(NamedTuple):
    """The readable text of one line of a paragraph (or of a table cell, or a heading).

    ``line`` is 1-based; ``source`` is the whole line of the post, to find columns in. (A
    named tuple, not a dataclass: immutable all the same, and built faster, once a line.)
    """

    line: int
    text: str
    source: str
    plain: bool = False  # ``text`` is the start of ``source``: columns need no search


# Characters that may start an inline construct anywhere in a line: code spans, escapes,
# entities, emphasis, strike-through, autolinks, and what a NUL becomes; and "](", "][", "]:"
# and "![" (links, images, reference definitions). With none of them, markdown-it's inline text
# is the line itself, less its trailing spaces. (A search for one character is much cheaper
# than a regular expression trying each alternative at every position.)
_INLINE_CHARACTERS = ("`", "\\", "&", "*", "_", "~", "<", "\x00", "\x01", "\t")
_AFTER_BRACKET = frozenset("([:")
# First characters of a line that may open a block: indentation (code), quotes, headings,
# lists, rules, setext underlines, fences, tables; and ordered list items (``1.``, ``2)``).
_BLOCK_FIRST = frozenset(" >#=+-*_`~|:")
_ORDERED_ITEM = re.compile(r"\d{1,9}[.)]")


def is_plain(text: str) -> bool:
    """Whether markdown-it would read ``text`` as bare paragraphs of plain text."""
    return _inline_plain(text) and not _opens_block(text)


def _inline_plain(text: str) -> bool:
    for character in _INLINE_CHARACTERS:
        if character in text:
            return False
    return _brackets_plain(text)


def _brackets_plain(text: str) -> bool:
    """No link, image or reference definition: no ``](``, ``][``, ``]:`` or ``![``."""
    closing = text.find("]")
    while closing >= 0:
        if text[closing + 1 : closing + 2] in _AFTER_BRACKET:
            return False
        closing = text.find("]", closing + 1)
    return "!" not in text or "![" not in text


def _opens_block(text: str) -> bool:
    """Whether a line of ``text`` starts as a block does (one look at each line's start)."""
    start = 0
    while True:
        first = text[start : start + 1]
        if first in _BLOCK_FIRST or (first.isdigit() and _ORDERED_ITEM.match(text, start)):
            return True
        start = text.find("\n", start) + 1
        if not start:
            return False


def plain_lines(text: str) -> list[TextLine]:
    """The lines of a plain text (``is_plain``), as markdown-it gives them: blank lines drop."""
    found: list[TextLine] = []
    for number, source in enumerate(text.split("\n"), start=1):
        line = source.rstrip(" ")
        if line:
            found.append(TextLine(number, line, source, True))
    return found


def text_lines(text: str, *, full: bool = False) -> list[TextLine]:
    """Every readable line of the post, in post order (text already normalised and protected).

    ``full`` sends even a plain text through markdown-it (the reference path, for comparison).
    """
    if not full:
        if is_plain(text):
            return plain_lines(text)
        unquoted = without_quotes(text)
        if unquoted is not None:
            return plain_lines(unquoted)
    return markdown_lines(text)


def without_quotes(text: str) -> str | None:
    """``text`` with its quotes' lines made blank, when quotes are its only Markdown: each a
    block of lines that all start with ``>``, with a blank line (or the post's edge) either
    side. markdown-it reads nothing inside a quote and the rest as plain paragraphs then, so
    the plain text's lines are the post's (``None``: anything else, left to markdown-it).

    A quote's inside cannot reach outside it, but for a link reference definition (its label
    ends ``]:``): a quote holding one is left to markdown-it.
    """
    unquoted = _blank_quotes(text)
    return unquoted if unquoted is not None and is_plain(unquoted) else None


def _blank_quotes(text: str) -> str | None:
    """``text`` with the lines of its quotes blank (``without_quotes``), or None when its
    quotes are not all blocks of their own; ``text`` itself when it holds none."""
    if ">" not in text:
        return None
    lines = text.split("\n")
    in_quote, after_blank = False, True
    for number, line in enumerate(lines):
        if not line.strip(" "):
            in_quote, after_blank = False, True
        elif line.startswith(">") and (in_quote or after_blank):
            if "]:" in line:
                return None
            lines[number] = ""
            in_quote, after_blank = True, False
        elif in_quote:  # a lazy line would go on the quote's paragraph
            return None
        else:
            after_blank = False
    return "\n".join(lines)


def scannable(text: str) -> str | None:
    """A text whose brackets, found line by line in it as written, are the brackets of the
    post as markdown-it reads it (in the same lines and columns, with the same insides), or
    None when only markdown-it can tell. A plain text is itself; so is a text whose only
    Markdown beside plain prose is emphasis that no bracket holds (``_emphasis_only``); a text
    whose only other Markdown is quotes of their own is the text with the quotes' lines blank.

    Emphasis markers drop out of markdown-it's text, but no bracket holds one, so the
    brackets' insides are the same; every ``[`` of the source is in the text, in the same
    order, so a bracket's column (``column_of``) is its column in the source line. Only the
    brackets are the same, not the lines: a command line's text would lose its markers too,
    and the caller reads no text with a command line this way.
    """
    if _emphasis_only(text):
        return text
    unquoted = _blank_quotes(text)
    return unquoted if unquoted is not None and _emphasis_only(unquoted) else None


# Inline constructs but emphasis; a bracket holding an emphasis marker; a line start of
# emphasis markers before a word (not a list item, a rule or a command)
_NOT_EMPHASIS = ("`", "\\", "&", "~", "<", "\x00", "\x01", "\t")
_MARKED_BRACKET = re.compile(r"\[[^\[\]\n*_]*[*_]")
_EMPHASIS_START = re.compile(r"[*_]+[^\s*_!]")


def _emphasis_only(text: str) -> bool:
    """Whether markdown-it would read ``text`` as bare paragraphs of text and emphasis, with
    no emphasis marker inside a bracket."""
    if "*" not in text and "_" not in text:
        return is_plain(text)
    for character in _NOT_EMPHASIS:
        if character in text:
            return False
    if not _brackets_plain(text) or _MARKED_BRACKET.search(text):
        return False
    start = 0
    while True:
        first = text[start : start + 1]
        if first in _BLOCK_FIRST:
            if first not in "*_" or not _EMPHASIS_START.match(text, start):
                return False
        elif first.isdigit() and _ORDERED_ITEM.match(text, start):
            return False
        start = text.find("\n", start) + 1
        if not start:
            return True


def markdown_lines(text: str) -> list[TextLine]:
    """Every readable line of the post, as markdown-it parses it."""
    source_lines = text.split("\n")
    found: list[TextLine] = []
    depth = 0  # blockquote nesting
    last_line = 0
    for token in _markdown().parse(text):
        if token.type == "blockquote_open":
            depth += 1
        elif token.type == "blockquote_close":
            depth -= 1
        if token.map is not None:
            last_line = token.map[0]
        if token.type == "inline" and depth == 0:
            for offset, line_text in enumerate(_split_lines(token.children or [])):
                number = last_line + offset
                source = source_lines[number] if number < len(source_lines) else ""
                found.append(TextLine(line=number + 1, text=line_text, source=source))
    return found


def _split_lines(children: Sequence[Token]) -> Iterator[str]:
    """The children's readable text, one string per line, with BREAK where text was left out."""
    parts: list[str] = []
    closing: str | None = None
    for child in children:
        if closing is not None:
            if child.type == closing:
                closing = None
                parts.append(BREAK)
            continue
        if child.type in _LINE_BREAKS:
            yield "".join(parts)
            parts = []
        elif child.type == "text":
            parts.append(child.content)
        elif child.type == "code_inline":
            parts.append(CODE)
        elif child.type in _SKIPPED:
            parts.append(BREAK)
        elif child.type in _SKIPPED_SPANS:
            closing = _SKIPPED_SPANS[child.type]
    yield "".join(parts)


def column_of(line: TextLine, offset: int) -> int:
    """The 1-based column in ``line.source`` of the character at ``offset`` of ``line.text``.

    Markup and escapes were dropped from the text, so the text is matched as a subsequence of
    the source line; the result is exact for plain prose and close for marked-up lines.
    """
    if line.plain:
        return offset + 1
    position = 0
    source = line.source
    for ch in line.text[: offset + 1]:
        if ch in _LEFT_OUT:
            continue
        found = source.find(ch, position)
        if found < 0:
            return offset + 1
        position = found + 1
    return max(position, 1)
