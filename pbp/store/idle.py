"""Whether a poll of the local forum would find nothing to do in an SQLite file, read with the
standard library's ``sqlite3`` alone.

A cron set-up runs `pbp poll --once` every minute or so, and nearly every run finds nothing
to do; loading SQLAlchemy, the engine, the rulesets and the templates to learn that costs
many times what the answer does. So `pbp poll --once` asks here first. The answer is "idle"
only when every fact the full poll would act on says so; anything this module does not
recognise (no file, another schema revision, a cursor it cannot read, an error of SQLite)
is "not idle", and the full poll runs. What the full poll would do, step by step, and the
fact here that stands for it:

- opening the store: set up or refused unless the schema is this pbp's revision; the file
  put in WAL mode unless it is;
- registering the config's threads: a configured thread not in the store yet;
- the ingest's heartbeat and the clean stop at the end (``Leases.beat``, ``Leases.leave``): a
  worker row or a lease under this worker's own name (one left by a process of the same
  name, which they would renew and then let go);
- the ingest's surveys: a thread the forum was not asked about yet, configured or bound;
- the listing: a post written, edited or deleted after the cursor, or no cursor to read
  from (the cursor would move);
- the claim (the threads with work of ``Leases.seen``, the same query): a thread with post
  versions in the inbox, replies owed, a whole read, or a deadline or reminder due,
  configured or bound.

Nothing is written: the full poll's own writes on an idle run (this worker's row, added at
its heartbeat and removed when it stops) leave the database as they found it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

from pbp.store.revision import SCHEMA_REVISION

OWED = ("pending", "edit-pending")  # reply statuses still to deliver, as pbp.store.leases.OWED
_SQLITE_URL_PREFIXES = ("sqlite:///", "sqlite+pysqlite:///")

# The threads of one forum with work now: that part of ``Leases.seen``'s query, as SQLAlchemy
# writes it for SQLite (the same comparisons: booleans by IS, times as the stored text).
_WITH_WORK = """
SELECT threads."key", threads.bound_by IS NOT NULL
FROM threads JOIN campaigns ON campaigns.id = threads.campaign_id
WHERE threads.forum = ? AND threads.needs_survey IS 0 AND (
    threads.id IN (SELECT inbox.thread_id FROM inbox)
    OR threads.id IN (SELECT replies.thread_id FROM replies WHERE replies.status IN (?, ?))
    OR threads.needs_read IS 1
    OR threads.next_due_at <= ?
)
"""


def sqlite_file(url: str) -> Path | None:
    """The file of a plain SQLite URL with an absolute path (``sqlite:////srv/pbp.db``, as
    the config makes every relative one); None for any other URL: in memory, with options
    after ``?``, with escapes, or for another database."""
    for prefix in _SQLITE_URL_PREFIXES:
        if url.startswith(prefix):
            database = url.removeprefix(prefix)
            if database.startswith("/") and not database.startswith("//"):
                return None if any(c in database for c in "?%#") else Path(database)
    return None


def local_forum_idle(
    database: Path,
    *,
    forum: str,
    threads: Collection[str],
    owner: str,
    scope: str,
    now: datetime,
    timeout: float,
) -> bool:
    """Whether a poll of the local forum (kind ``forum``) at ``now`` by worker ``owner``,
    running the configured ``threads``, would find nothing to do in ``database``; the
    listing's cursor is kept under ``scope``. False whenever in doubt."""
    if now.tzinfo is None:
        return False  # the full poll stores aware times only: it would refuse this one
    try:
        if not database.is_file() or database.stat().st_size == 0:
            return False  # no database yet: the full poll sets one up, or says why it cannot
        with closing(_connect(database, timeout=timeout)) as conn:
            # one snapshot for every read, under the write lock every unit of work of the bot
            # takes first: a file it may not write to, or a lock not had in time, is the
            # full poll's to report
            conn.execute("BEGIN IMMEDIATE")
            try:
                return _idle(conn, forum=forum, threads=threads, owner=owner, scope=scope, now=now)
            finally:
                conn.execute("ROLLBACK")
    except (sqlite3.Error, OSError, ValueError, TypeError):  # whatever it is, the full poll says
        return False


def _connect(database: Path, *, timeout: float) -> sqlite3.Connection:
    # mode=rw: a file that is not there is not made (the full poll says what it makes)
    return sqlite3.connect(
        f"{database.as_uri()}?mode=rw", uri=True, timeout=timeout, isolation_level=None
    )


def _idle(
    conn: sqlite3.Connection,
    *,
    forum: str,
    threads: Collection[str],
    owner: str,
    scope: str,
    now: datetime,
) -> bool:
    configured = set(threads)
    if conn.execute("SELECT version_num FROM alembic_version").fetchall() != [(SCHEMA_REVISION,)]:
        return False
    if conn.execute("PRAGMA journal_mode").fetchone() != ("wal",):
        return False
    stored = conn.execute(
        'SELECT "key", bound_by IS NOT NULL, needs_survey IS 1 FROM threads WHERE forum = ?',
        (forum,),
    ).fetchall()
    if not configured <= {key for key, _bound, _unsurveyed in stored}:
        return False
    if any(unsurveyed and (bound or key in configured) for key, bound, unsurveyed in stored):
        return False
    if _own_name_in_use(conn, owner) or not _listing_caught_up(conn, forum=forum, scope=scope):
        return False
    due = now.astimezone(UTC).replace(tzinfo=None).isoformat(" ", "microseconds")
    work = conn.execute(_WITH_WORK, (forum, *OWED, due)).fetchall()
    return not any(bound or key in configured for key, bound in work)


def _own_name_in_use(conn: sqlite3.Connection, owner: str) -> bool:
    """Whether a worker row or a lease goes by ``owner`` (the heartbeat would renew it)."""
    found = conn.execute(
        "SELECT EXISTS (SELECT 1 FROM workers WHERE name = ?)"
        " OR EXISTS (SELECT 1 FROM threads WHERE lease_owner = ?)",
        (owner, owner),
    ).fetchone()
    return bool(found[0])


def _listing_caught_up(conn: sqlite3.Connection, *, forum: str, scope: str) -> bool:
    """Whether the local forum's listing from the cursor would show no post and leave the
    cursor as it is (``LocalForum.listing``: the cursor is the last change number seen)."""
    row = conn.execute(
        "SELECT cursor FROM poll_cursors WHERE forum = ? AND scope = ?", (forum, scope)
    ).fetchone()
    if row is None or not isinstance(row[0], str):
        return False  # never listed yet: the cursor would be written
    cursor = row[0]
    seq = int(cursor) if cursor else 0
    (last,) = conn.execute("SELECT max(seq) FROM local_posts").fetchone()
    if str(max(last or 0, seq)) != cursor:
        return False
    (changed,) = conn.execute(
        "SELECT EXISTS (SELECT 1 FROM local_posts WHERE seq > ?)", (seq,)
    ).fetchone()
    return not changed
