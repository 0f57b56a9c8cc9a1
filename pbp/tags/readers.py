"""What a tag reader is: the body of a bracket -> its tag, or ``Reject``."""

from __future__ import annotations

from collections.abc import Callable

from pbp.tags.model import Tag

# reader(body, *, source, names) -> Tag; raises cursor.Reject with the problem that stops it
Reader = Callable[..., Tag]
