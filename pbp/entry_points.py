"""The entry points of one group, read from the installed distributions' ``entry_points.txt``
files, the way ``importlib.metadata.entry_points(group=...)`` finds them (the first
distribution of a name on ``sys.path`` wins), without importing ``importlib.metadata``: that
module and what it imports (``email``, ``zipfile``, ``csv`` …) cost 20-30 ms at every start of
a command that reads tags (measured after pbp's own imports), where this costs a few folder
listings.

The file is the entry-points format of the packaging specifications: INI sections named by
group, each line ``name = module:attribute`` (``#`` and ``;`` start comments)."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

_METADATA = re.compile(r"^(?P<name>[^-]+)(?:-[^-]*)?\.(?:dist-info|egg-info)$")


def group_entries(group: str, paths: Iterable[str] | None = None) -> list[tuple[str, str]]:
    """Each entry point of ``group`` as ``(name, "module:attribute")``, in the order of the
    folders of ``paths`` (``sys.path``), one distribution of each name."""
    found: list[tuple[str, str]] = []
    seen: set[str] = set()
    for folder, name in _distributions(paths if paths is not None else sys.path):
        if name in seen:
            continue
        seen.add(name)
        found += _entries(folder / "entry_points.txt", group)
    return found


def _distributions(paths: Iterable[str]) -> Iterator[tuple[Path, str]]:
    """Each distribution's metadata folder on ``paths`` and its normalised name (PEP 503)."""
    for path in paths:
        try:
            names = sorted(os.listdir(path or "."))
        except OSError:  # a missing folder or a zip file on the path: no plain metadata there
            continue
        for entry in names:
            match = _METADATA.match(entry)
            if match is not None:
                yield Path(path or ".") / entry, re.sub(r"[-_.]+", "-", match["name"]).lower()


def _entries(file: Path, group: str) -> list[tuple[str, str]]:
    """The ``name = value`` lines of ``[group]`` in an entry_points.txt (none if it has none)."""
    try:
        text = file.read_text(encoding="utf-8")
    except OSError:
        return []
    entries: list[tuple[str, str]] = []
    section = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
        elif section == group and "=" in line:
            name, _, value = line.partition("=")
            entries.append((name.strip(), value.strip()))
    return entries
