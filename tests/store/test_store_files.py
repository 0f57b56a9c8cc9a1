"""The SQLite file under a store: a file replaced, emptied or overwritten is noticed by the
per-poll look (``check_present``) and by SQLite's own errors, as damage, never as an outage; a
full disk is an outage that passes; a folder that does not exist is a typo, not a new
database; and a database URL pbp cannot use is one line."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, text

from pbp.store.database import (
    NoDatabase,
    Store,
    StoreDamaged,
    StoreError,
    StoreGone,
    StoreUnavailable,
)


@pytest.fixture
def file_store(tmp_path: Path) -> Iterator[Store]:
    """A migrated store on an SQLite file, looked at once (as the first poll does)."""
    store = Store(f"sqlite:///{tmp_path / 'pbp.db'}")
    store.upgrade()
    store.check_present()
    try:
        yield store
    finally:
        store.dispose()


def _write(store: Store, values: list[str]) -> None:
    """Rows of a scratch table of the test's own, in one unit of work."""
    with store.session() as s:
        s.execute(text("CREATE TABLE IF NOT EXISTS scratch (x TEXT)"))
        s.execute(text("INSERT INTO scratch (x) VALUES (:x)"), [{"x": v} for v in values])


def _file(store: Store) -> Path:
    return Path(store.engine.url.database or "")


def _overwrite(path: Path, *, at: int, size: int) -> None:
    """Random bytes over ``size`` bytes from ``at``, in place (the same file, its inode kept)."""
    with path.open("r+b") as file:
        file.seek(at)
        file.write(random.Random(7).randbytes(size))


def _checkpointed(store: Store) -> Path:
    """The store's file with every page in it (its WAL copied back and closed)."""
    store.dispose()
    with closing(sqlite3.connect(_file(store))) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return _file(store)


def test_an_intact_file_passes_the_look_every_time(file_store: Store) -> None:
    for _ in range(3):
        file_store.check_present()
    with file_store.session() as s:
        assert s.execute(text("SELECT count(*) FROM threads")).scalar_one() == 0


def test_a_file_emptied_while_in_use_is_damage(file_store: Store) -> None:
    os.truncate(_file(file_store), 0)
    with pytest.raises(StoreDamaged, match=r"pbp\.db is damaged \(it was cut to 0 bytes\)"):
        file_store.check_present()


def test_random_bytes_over_the_first_16_kb_are_damage(file_store: Store) -> None:
    _overwrite(_file(file_store), at=0, size=16 * 1024)
    with pytest.raises(StoreDamaged) as damaged:
        file_store.check_present()
    assert "its first bytes are not an SQLite database's header" in str(damaged.value)
    assert "restore the file from a backup" in str(damaged.value)
    assert "\n" not in str(damaged.value)


def test_a_file_replaced_by_another_database_is_gone(file_store: Store, tmp_path: Path) -> None:
    other = Store(f"sqlite:///{tmp_path / 'other.db'}")
    other.upgrade()
    other.dispose()
    os.replace(tmp_path / "other.db", _file(file_store))  # an intact pbp database, not ours
    with pytest.raises(StoreGone, match=r"is gone \(deleted, moved or replaced"):
        file_store.check_present()


def test_a_file_that_is_not_a_database_is_damage_when_opened(tmp_path: Path) -> None:
    (tmp_path / "pbp.db").write_bytes(random.Random(3).randbytes(64 * 1024))
    store = Store(f"sqlite:///{tmp_path / 'pbp.db'}")
    try:
        with pytest.raises(StoreDamaged, match=r"is damaged \(file is not a database\)"):
            store.current()
    finally:
        store.dispose()


def test_a_page_broken_behind_an_intact_header_is_damage_when_read(file_store: Store) -> None:
    _write(file_store, [f"row {n}" for n in range(400)])  # pages past the first hold them
    path = _checkpointed(file_store)
    with closing(sqlite3.connect(path)) as db:
        (root,) = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'scratch'").fetchone()
    _overwrite(path, at=(root - 1) * 4096, size=4 * 4096)  # the table's pages, not the header
    store = Store(f"sqlite:///{path}")
    try:
        store.check_present()  # the header is intact: only SQLite's read can tell
        with pytest.raises(StoreDamaged, match="malformed"), store.session() as s:
            s.execute(text("SELECT count(*) FROM scratch")).scalar_one()
    finally:
        store.dispose()


def _in_another_process(path: Path, query: str) -> str:
    """What ``query`` reads in the file, from a process of its own that then closes it."""
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sqlite3, sys; "
            "print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchall())",
            str(path),
            query,
        ],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    return done.stdout.strip() or done.stderr.strip().splitlines()[-1]


def test_the_look_at_the_file_keeps_sqlites_locks(file_store: Store) -> None:
    """Closing any descriptor of a file drops the process's POSIX locks on it, SQLite's too:
    another process closing its connection then took the WAL away, with the writes in it."""
    path = _file(file_store)
    with file_store.session() as s:  # the connections are open, as in a running bot
        s.execute(text("SELECT 1"))
    file_store.check_present()
    assert _in_another_process(path, "SELECT count(*) FROM threads") == "[(0,)]"
    _write(file_store, ["kept"])
    file_store.check_present()
    assert _in_another_process(path, "SELECT x FROM scratch") == "[('kept',)]"


def test_a_second_store_on_the_file_lets_go_of_it_without_taking_the_locks_along(
    file_store: Store,
) -> None:
    path = _file(file_store)
    with file_store.session() as s:
        s.execute(text("SELECT 1"))
    other = Store(f"sqlite:///{path}")  # a tool beside the bot, in the same process
    other.check_present()
    other.dispose()
    assert _in_another_process(path, "SELECT count(*) FROM threads") == "[(0,)]"
    _write(file_store, ["kept"])
    assert _in_another_process(path, "SELECT x FROM scratch") == "[('kept',)]"


def test_a_full_disk_is_an_outage_in_one_line_that_passes(
    file_store: Store,
) -> None:
    pages = {"max": 1}  # SQLite's own page limit, as a disk with no room left

    @event.listens_for(file_store.engine, "connect")
    def limit(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.execute(f"PRAGMA max_page_count={pages['max']}")

    file_store.engine.dispose()
    rows = [f"{n}" * 4000 for n in range(50)]
    with pytest.raises(StoreUnavailable) as full:
        _write(file_store, rows)
    assert str(full.value) == (
        f"the database {file_store.shown_url} cannot grow: database or disk is full"
    )
    pages["max"] = 1_000_000  # room again
    file_store.engine.dispose()
    _write(file_store, rows)
    with file_store.session() as s:
        assert s.execute(text("SELECT count(*) FROM scratch")).scalar_one() == 50


def test_a_folder_that_does_not_exist_is_refused_unless_a_new_database_is_asked_for(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'typo' / 'dir' / 'pbp.db'}"
    with pytest.raises(NoDatabase) as refused:
        Store(url)
    assert str(refused.value) == (
        f"there is no database at {url}: the folder {tmp_path / 'typo' / 'dir'} does not "
        "exist (a typo in [database] url?); to start a new database there, run "
        "`pbp db upgrade --create`"
    )
    assert not (tmp_path / "typo").exists()
    store = Store(url, create=True)
    try:
        assert store.upgrade()[0] is None
        assert (tmp_path / "typo" / "dir" / "pbp.db").is_file()
    finally:
        store.dispose()
    Store(url).dispose()  # there now: no need to ask


@pytest.mark.parametrize(
    ("url", "says"),
    [
        (
            "mysql://pbp:secret@localhost/pbp",
            "the database URL mysql://pbp:***@localhost/pbp is for mysql, "
            "which pbp does not run on; "
            'pbp runs on SQLite and PostgreSQL: "sqlite:///pbp.db" or '
            '"postgresql+psycopg://USER@HOST/DATABASE"',
        ),
        (
            "postgresql+psycopg2://pbp@localhost/pbp",
            "the database URL postgresql+psycopg2://pbp@localhost/pbp needs the Python package "
            'psycopg2, which is not installed: install it, or use "postgresql+psycopg://…" '
            '(pip install "pbp[postgres]")',
        ),
        (
            "postgresql+nosuchdriver://pbp@localhost/pbp",
            "the database URL postgresql+nosuchdriver://pbp@localhost/pbp names a driver "
            "SQLAlchemy does not know",
        ),
        (
            "postgresql+psycopg://pbp:secret@localhost:port/pbp",
            '"postgresql+psycopg://pbp:***@localhost:port/pbp" is not a database URL',
        ),
        ("not a url://at all", '"not a url://at all" is not a database URL'),
        ("foo://bar", "the database URL foo://bar is for foo, which pbp does not run on"),
    ],
)
def test_a_database_url_pbp_cannot_use_is_one_line(url: str, says: str) -> None:
    with pytest.raises(StoreError) as refused:
        Store(url)
    assert str(refused.value).startswith(says)
    assert "\n" not in str(refused.value)
    assert "secret" not in str(refused.value)
