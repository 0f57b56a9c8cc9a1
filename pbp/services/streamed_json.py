"""A JSON object written piece by piece, exactly as ``json.dumps(obj, indent=1,
ensure_ascii=False)`` would write it whole: a long thread's ledger goes out a round at a time,
never held as one tree and one string."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from typing import Any


def _dumps(value: Any, depth: int) -> str:
    """``value`` as it reads ``depth`` levels into the document. (JSON writes a newline inside
    a string as ``\\n``: every newline of the text is the layout's, so indenting it is safe.)"""
    return json.dumps(value, indent=1, ensure_ascii=False).replace("\n", "\n" + " " * depth)


def write_streamed(obj: Mapping[str, Any], write: Callable[[str], object]) -> None:
    """Write ``obj``: a value that is an iterator is written as a list, an item at a time, when
    its key comes (so an iterator may fill what a later key's iterator yields)."""
    if not obj:
        write("{}")
        return
    write("{")
    for number, (key, value) in enumerate(obj.items()):
        write(("," if number else "") + "\n " + json.dumps(key, ensure_ascii=False) + ": ")
        if not isinstance(value, Iterator):
            write(_dumps(value, 1))
            continue
        first = True
        for item in value:
            write(("[" if first else ",") + "\n  " + _dumps(item, 2))
            first = False
        write("[]" if first else "\n ]")
    write("\n}")
