"""Text safe to print on a terminal: no control character reaches it (SPEC §7).

Posts, names and replies are other people's text. A C0 or C1 control, DEL, or an ANSI escape
sequence in them could move the cursor, recolour or clear the screen, or rewrite what was
printed before; each such character is shown as a visible escape (``\\x1b``) instead, so an
ANSI sequence reads as ``\\x1b[31m`` and does nothing. Newlines and tabs are kept.
"""

from __future__ import annotations

import re

_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def for_terminal(text: str) -> str:
    """``text`` with each control character but newline and tab shown as ``\\xHH``."""
    return _CONTROL.sub(lambda found: f"\\x{ord(found.group()):02x}", text)


def json_for_terminal(text: str) -> str:
    """JSON text with each C1 control and DEL written as its ``\\u00HH`` escape (``json.dumps``
    escapes the C0 ones itself); the JSON means the same, and prints safely."""
    return re.sub("[\x7f-\x9f]", lambda found: f"\\u{ord(found.group()):04x}", text)
