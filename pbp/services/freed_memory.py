"""Memory the process freed, given back to the system.

A long replay allocates and frees a great deal of text (posts of a thousand characters, their
rows, the replies rendered for them): the C library keeps what was freed in the middle of its
heap for later use and gives back only what lies at its top, so the process's resident set
grows with the thread although what it holds does not (a 32,000-post replay held some 30 MiB
of such free memory at its end). ``give_back()`` asks glibc's ``malloc_trim`` to return those
free pages; on any other C library it does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from collections.abc import Callable
from functools import cache


@cache
def _trim() -> Callable[[int], int] | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        trim: Callable[[int], int] = ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):  # not glibc: nothing to ask
        return None
    return trim


def give_back() -> None:
    """Return the free pages of the C library's heap to the system (glibc; else nothing)."""
    trim = _trim()
    if trim is not None:
        trim(0)
