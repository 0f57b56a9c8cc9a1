"""Posts and replies (Markdown, as Reddit renders it) shown in a shell: rendered for a terminal
by rich's Markdown renderer, or plain text when the output is piped (SPEC §7): the backslash
escapes undone (`\\[move: Gate\\]` reads `[move: Gate]`), code left as written.

Either way no control character of the text reaches the terminal (``printable``): the text is
made printable before it is rendered, and only the renderer's own styles are added.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable

from pbp.cli.printable import for_terminal

Formatter = Callable[[str, int], str]  # (Markdown text, indent) -> text to print

_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")  # CommonMark: a backslash before ASCII punctuation
_CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.S)
_FENCE = re.compile(r"^ {0,3}(```|~~~)")


def plain(markdown: str) -> str:
    """``markdown`` as plain text: its backslash escapes undone outside code (a code span or
    a fenced block keeps its backslashes: they are written there, not escapes)."""
    lines, fenced = [], False
    for line in markdown.split("\n"):
        if _FENCE.match(line):
            fenced = not fenced
            lines.append(line)
            continue
        lines.append(line if fenced else _unescape_line(line))
    return "\n".join(lines)


def _unescape_line(line: str) -> str:
    out, last = [], 0
    for span in _CODE_SPAN.finditer(line):
        if span.start() > 0 and line[span.start() - 1] == "\\":
            continue  # an escaped backtick opens no code span
        out.append(_ESCAPE.sub(r"\1", line[last : span.start()]))
        out.append(span.group(0))
        last = span.end()
    out.append(_ESCAPE.sub(r"\1", line[last:]))
    return "".join(out)


def plain_body(markdown: str, indent: int) -> str:
    """A post's text for a pipe: plain, printable, indented."""
    return _indented(for_terminal(plain(markdown)), indent)


def terminal_body(width: int) -> Formatter:
    """A post's text for a terminal ``width`` columns wide: rendered Markdown, indented."""

    def render(markdown: str, indent: int) -> str:
        from rich.console import Console
        from rich.markdown import Markdown

        out = io.StringIO()
        console = Console(
            file=out, force_terminal=True, width=max(width - indent, 20), highlight=False
        )
        console.print(Markdown(for_terminal(markdown), hyperlinks=False))
        return _indented(out.getvalue().rstrip("\n"), indent)

    return render


def _indented(text: str, indent: int) -> str:
    pad = " " * indent
    return "\n".join((pad + line).rstrip() if line.strip() else "" for line in text.split("\n"))
