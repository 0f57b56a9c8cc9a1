"""What can go wrong with the database, each cause its own error, each said in one line.

A database that does not answer (a server down or hung, a file locked, a disk full) may answer
later: ``StoreUnavailable``, and the bot tries again. A database file that is no longer the one
pbp opened, or no longer intact, must not be used at all: ``StoreGone`` (``StoreDamaged``), and
the bot stops before it reads or posts anything from it.
"""

from __future__ import annotations

import os
import re
import threading
import weakref
from pathlib import Path
from typing import Any

from sqlalchemy.exc import DBAPIError, OperationalError

from pbp.errors import PbpError
from pbp.values import frozen_value

SQLITE_MAGIC = b"SQLite format 3\x00"  # the first 16 bytes of every SQLite database file
_CORRUPT, _NOTADB = 11, 26  # SQLite's primary result codes for a damaged file
_FULL, _IOERR = 13, 10  # a full disk; a read or write the system refused
_SHORT_READ = 522  # SQLITE_IOERR_SHORT_READ: the file ends before a page it should hold
_WRITING = ("WRITE", "FSYNC", "TRUNCATE")  # the extended I/O errors of a write


class StoreError(PbpError):
    """The database cannot be used (unreachable, or not a pbp database)."""


class StoreUnavailable(StoreError):
    """The database did not answer (a server down, a file locked): trying later may work."""


class StoreGone(StoreError):
    """The SQLite file the bot was using is gone: going on would start a new database."""


class StoreDamaged(StoreGone):
    """The SQLite file is damaged (overwritten, cut short, corrupt): going on would read, and
    post, from a broken database, or write over what is left of it."""


class NoDatabase(StoreError):
    """The database does not exist, and making a new one was not asked for."""


def one_line(exc: BaseException) -> str:
    """A database error in one line: the driver's own words, without SQLAlchemy's
    statement echo and background link."""
    cause = getattr(exc, "orig", None) or exc
    text = " ".join(str(cause).split())
    return text.split(" (Background on this error at:")[0].split(" [SQL: ")[0]


def hide_password(url: str) -> str:
    """``url`` with the password between ``:`` and ``@`` hidden, for a URL that SQLAlchemy
    could not read (so cannot hide it itself)."""
    return re.sub(r"(://[^:/@]*:)[^@/]*@", r"\1***@", url)


@frozen_value
class Place:
    """A database, as messages name it: its URL (password hidden) and its SQLite file."""

    url: str
    file: Path | None = None

    def damaged(self, why: str) -> StoreDamaged:
        """The error for the file found damaged (``why`` says how)."""
        return StoreDamaged(
            f"the database file {self.file or self.url} is damaged ({why}); pbp stops rather "
            "than read, post or write from a broken database: restore the file from a backup, "
            "or point [database] url at the right one"
        )

    def trouble(self, exc: BaseException, *, opening: bool) -> StoreError | None:
        """``exc`` (a driver's error through SQLAlchemy) as pbp's error, or None when it is
        not the database's trouble but a statement's (an integrity error, a bug).
        ``opening``: it came while opening the database (said so in the message)."""
        cause = getattr(exc, "orig", None) or exc
        seconds = getattr(cause, "no_answer_after", None)
        if seconds is not None:
            return StoreUnavailable(f"the database {self.url} did not answer within {seconds} s")
        code = getattr(cause, "sqlite_errorcode", None)
        primary = code & 0xFF if isinstance(code, int) else None
        detail = one_line(exc)
        if code == _SHORT_READ or primary in (_CORRUPT, _NOTADB):
            return self.damaged(detail)
        if primary == _FULL:
            return StoreUnavailable(f"the database {self.url} cannot grow: {detail}")
        if primary == _IOERR:
            name = str(getattr(cause, "sqlite_errorname", "") or "SQLITE_IOERR")
            hint = ": is the disk full?" if any(w in name for w in _WRITING) else ""
            return StoreUnavailable(
                f"the database {self.url} failed on disk ({detail}, {name}){hint}"
            )
        if isinstance(exc, OperationalError):
            return StoreUnavailable(
                f"cannot open the database {self.url}: {detail}"
                if opening
                else f"the database {self.url} failed: {detail}"
            )
        if isinstance(exc, DBAPIError) and exc.connection_invalidated:
            return StoreUnavailable(f"the database {self.url} went away: {detail}")
        return None


class FileWatch:
    """The SQLite file a store has open, looked at once a poll without disturbing SQLite.

    Cheap: a stat of the path (is it still the file pbp opened?) and a read of its first 100
    bytes (is it still an SQLite database?): SQLite itself notices a damaged page only when it
    reads it, and may go on serving what it cached. The file is read through a descriptor
    kept open while any watch of it lives in the process: closing any descriptor of a file
    drops every POSIX lock the process holds on it, SQLite's included (another process would
    then take the WAL away from under the bot's connections, and the writes in it with it).
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.identity: tuple[int, int] | None = _identity(path)  # (device, inode) when opened
        self._fd: int | None = None
        self._intact = False  # seen with content and a good header
        self._closer: weakref.finalize[Any, Any] | None = None

    def gone(self) -> bool:
        """Whether the file at the path is not the one pbp opened (deleted, moved, replaced);
        the first file seen is the one, if there was none when the store was made."""
        found = _identity(self.path)
        if found is not None and self.identity is None:
            self.identity = found
        return found is None or found != self.identity

    def trouble(self) -> str | None:
        """What is wrong with the file's content (call after ``gone()``), or None."""
        try:
            fd = self._descriptor()
            size = os.fstat(fd).st_size
            header = os.pread(fd, 100, 0)
        except OSError as exc:
            return f"it cannot be read: {exc.strerror}"
        if size == 0:
            # a new database's file is empty until its first write: only one seen intact was cut
            return "it was cut to 0 bytes" if self._intact else None
        if len(header) < 100 or not header.startswith(SQLITE_MAGIC):
            return "its first bytes are not an SQLite database's header: it was overwritten"
        page = int.from_bytes(header[16:18], "big")
        if not (page == 1 or (512 <= page <= 32768 and page & (page - 1) == 0)):
            return f"its header gives a page size of {page}, which no SQLite file has"
        self._intact = True
        return None

    def _descriptor(self) -> int:
        if self._fd is None:
            key, self._fd = _shared_descriptor(self.path)
            self._closer = weakref.finalize(self, _let_go, key)
        return self._fd

    def close(self) -> None:
        """Let the descriptor go (closed with the process's last watch of the file)."""
        if self._closer is not None:
            self._closer()
        self._fd = self._closer = None


# one descriptor per file for every watch in the process, closed only when the last watch of
# the file lets it go: two stores on one file (a test's, a tool's) never close it under the other
_descriptors: dict[tuple[int, int], list[int]] = {}  # (device, inode) -> [descriptor, watches]
_descriptors_lock = threading.Lock()


def _shared_descriptor(path: Path) -> tuple[tuple[int, int], int]:
    key = _identity(path)  # (a stat: no descriptor opened to learn it)
    if key is None:
        raise FileNotFoundError(2, "No such file or directory", str(path))
    with _descriptors_lock:
        held = _descriptors.get(key)
        if held is None:
            held = _descriptors[key] = [os.open(path, os.O_RDONLY | os.O_CLOEXEC), 0]
        held[1] += 1
        return key, held[0]


def _let_go(key: tuple[int, int]) -> None:
    with _descriptors_lock:
        held = _descriptors.get(key)
        if held is None:
            return
        held[1] -= 1
        if held[1] > 0:
            return
        del _descriptors[key]
    os.close(held[0])


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        found = path.stat()
    except FileNotFoundError:
        return None
    return (found.st_dev, found.st_ino)
