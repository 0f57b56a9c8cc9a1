"""A JSON object written piece by piece, exactly as ``json.dumps(obj, indent=1,
ensure_ascii=False)`` would write it whole: a long thread's ledger goes out a round at a time,
never held as one tree and one string."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from typing import Any


def _dumps(value: Any, depth: int) -> str:
    """``value`` as it reads ``depth`` levels into the document: as ``json.dumps(value,
    indent=1, ensure_ascii=False)`` writes it, each line but the first indented ``depth``
    spaces more. The plain values of a ledger (dicts, lists, strings, numbers, booleans, None)
    are written by ``_write``, about twice as fast as json's own indenting encoder,
    which is written in Python; anything else goes to json itself, so that the text, and every
    error, stays json's."""
    out: list[str] = []
    try:
        _write(value, " " * depth, out)
    except (_NotPlain, RecursionError):
        # (JSON writes a newline inside a string as ``\\n``: every newline of the text is the
        # layout's, so indenting it is safe)
        return json.dumps(value, indent=1, ensure_ascii=False).replace("\n", "\n" + " " * depth)
    return "".join(out)


class _NotPlain(Exception):
    """A value ``_write`` leaves to json."""


_quoted = json.encoder.encode_basestring  # json's own (in C where it can be), ensure_ascii=False
_INFINITY = float("inf")


def _number(value: float) -> str:
    """A float as json writes it (``allow_nan``: NaN and the infinities by their JS names)."""
    if value != value:
        return "NaN"
    if value == _INFINITY:
        return "Infinity"
    if value == -_INFINITY:
        return "-Infinity"
    return float.__repr__(value)


def _key(key: Any) -> str:
    """A dict key as json writes it: a string; a number, a boolean or None as its JSON text."""
    if isinstance(key, str):
        return key
    if isinstance(key, float):
        return _number(key)
    if key is True:
        return "true"
    if key is False:
        return "false"
    if key is None:
        return "null"
    if isinstance(key, int):
        return int.__repr__(key)
    raise _NotPlain  # (json's TypeError, from json)


def _write(value: Any, indent: str, out: list[str]) -> None:
    """``value`` onto ``out`` in json's layout, its lines inside at ``indent`` and one space
    more each level; the tests of json's encoder, in its order."""
    if isinstance(value, str):
        out.append(_quoted(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, int):
        out.append(int.__repr__(value))
    elif isinstance(value, float):
        out.append(_number(value))
    elif isinstance(value, list | tuple):
        if not value:
            out.append("[]")
            return
        inner = indent + " "
        lead = "[\n" + inner
        for item in value:
            out.append(lead)
            _write(item, inner, out)
            lead = ",\n" + inner
        out.append("\n" + indent + "]")
    elif isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        inner = indent + " "
        lead = "{\n" + inner
        for key, item in value.items():
            out.append(lead + _quoted(_key(key)) + ": ")
            _write(item, inner, out)
            lead = ",\n" + inner
        out.append("\n" + indent + "}")
    else:
        raise _NotPlain  # (a circular list would recurse until RecursionError: json's own then)


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
