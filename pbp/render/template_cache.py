"""Compiled templates kept between runs: each process that renders a reply compiles the
templates it uses (about 3 ms each, a tenth of a second for a replay's two dozen), unless an
earlier run left them compiled in the user's cache folder.

The folder is ``$PBP_CACHE_DIR/templates``, else ``$XDG_CACHE_HOME/pbp/templates``, else
``~/.cache/pbp/templates`` (nowhere if the user has no home); ``PBP_CACHE_DIR=""`` keeps
nothing. A template is taken from it only while its source is the very text it was compiled
from (Jinja keeps a checksum of the source beside the code), compiled with the same options,
by the same Jinja and Python: a GM's override, an upgrade or an edited template is compiled
anew. The folder is the user's own (made private; one that others may write to is never read:
its code would run here), and nothing that goes wrong with it (a read-only home, a full disk,
a damaged file) does more than compile the template as if it were not there."""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
from pathlib import Path

import jinja2
from jinja2.bccache import Bucket

ENV_VAR = "PBP_CACHE_DIR"


def cache_folder() -> Path | None:
    """Where compiled templates are kept (None: nowhere, ``PBP_CACHE_DIR=""``)."""
    given = os.environ.get(ENV_VAR)
    if given is not None:
        return Path(given).expanduser() / "templates" if given.strip() else None
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # (unset, empty or relative: the spec's default instead)
        base = os.path.join(os.path.expanduser("~"), ".cache")
    if not os.path.isabs(base):  # no home to be found (``~`` left as it is): kept nowhere,
        return None  # never in a folder named "~" wherever pbp was started
    return Path(base) / "pbp" / "templates"


def template_cache(environment: jinja2.Environment) -> jinja2.BytecodeCache | None:
    """The cache for ``environment``'s templates (None when there is no folder to keep it)."""
    folder = cache_folder()
    return None if folder is None else KeptTemplates(folder, variant=_variant(environment))


def _variant(environment: jinja2.Environment) -> str:
    """What else the compiled code depends on: the environment's options of the language
    and its output (two environments that differ in one keep apart)."""
    e = environment
    return repr(
        (
            e.autoescape,
            e.trim_blocks,
            e.lstrip_blocks,
            e.keep_trailing_newline,
            e.newline_sequence,
            e.optimized,
            e.block_start_string,
            e.block_end_string,
            e.variable_start_string,
            e.variable_end_string,
            e.comment_start_string,
            e.comment_end_string,
            e.line_statement_prefix,
            e.line_comment_prefix,
            sorted(e.extensions),
        )
    )


class KeptTemplates(jinja2.FileSystemBytecodeCache):
    """Jinja's cache of compiled templates in files, in ``folder`` (made when first written),
    each one's name a hash of the template's name, its file and the environment's ``variant``;
    every failure of the folder is a template not kept."""

    def __init__(self, folder: Path, *, variant: str) -> None:
        # (Jinja's own would make a folder of its choosing when given none: this one is given)
        super().__init__(str(folder), "%s.jinja")  # (``self.directory``)
        self.variant = variant
        self._safe: bool | None = None  # whether the folder is private: looked at once

    def get_cache_key(self, name: str, filename: str | None = None) -> str:
        key = hashlib.sha1(f"{self.variant}|{name}|{filename}".encode(), usedforsecurity=False)
        return key.hexdigest()

    def load_bytecode(self, bucket: Bucket) -> None:
        if not self._private():
            return
        try:
            super().load_bytecode(bucket)
        except Exception:  # damaged or half there (whatever unpickling it raised): compiled
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        if not self._private(make=True):
            return
        with contextlib.suppress(OSError):  # a full disk, a folder made read-only: not kept
            super().dump_bytecode(bucket)

    def _private(self, *, make: bool = False) -> bool:
        """Whether the folder is there and the user's alone (``make``: made if missing)."""
        if self._safe is None or (make and not self._safe):
            try:
                if make:
                    os.makedirs(self.directory, mode=0o700, exist_ok=True)
                found = os.lstat(self.directory)
            except OSError:
                return False  # (not there yet, or not ours to make: asked again later)
            owner = getattr(os, "getuid", lambda: found.st_uid)()  # (no owners on Windows)
            self._safe = (
                stat.S_ISDIR(found.st_mode)
                and found.st_uid == owner
                and not found.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
            )
        return self._safe
