"""Tags every scene reads (SPEC §2): ``[roll: DICE]`` and ``[pass]``."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from pbp.tags.cursor import Cursor, Names, Reject
from pbp.tags.dice import check_notation
from pbp.tags.model import PassTag, RollTag, Source
from pbp.tags.options import (
    AS,
    first_str,
    read_options,
)
from pbp.tags.problems import (
    IncompleteTag,
)

AS_ONLY = {"as": AS}


def read_roll(body: str, *, source: Source, names: Names) -> RollTag:
    """``[roll: 2d6+3]``: the notation may hold spaces (``2d6 + 3``)."""
    cursor = Cursor(body)
    written = cursor.take_words(AS_ONLY)
    if not written.strip():
        raise Reject(IncompleteTag(tag="", verb="roll", missing="DICE"))
    expression = check_notation("".join(written.split()).lower())
    found = read_options(cursor, AS_ONLY, verb="roll", names=names)
    return RollTag(source=source, expression=expression, as_name=first_str(found, "as"))


def read_pass(body: str, *, source: Source, names: Names) -> PassTag:
    """``[pass]``."""
    found = read_options(Cursor(body), AS_ONLY, verb="pass", names=names)
    return PassTag(source=source, as_name=first_str(found, "as"))


# The verbs every scene reads, and their readers.
VERBS: frozenset[str] = frozenset({"roll", "pass"})
# reader(body, *, source, names) -> its tag; raises cursor.Reject with the problem that stops it
READERS: Mapping[str, Callable[..., RollTag | PassTag]] = {"roll": read_roll, "pass": read_pass}
