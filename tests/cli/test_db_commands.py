"""`pbp db status` and `pbp db upgrade`, and how the bot treats a database at an old schema."""

from __future__ import annotations

import sqlite3
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from pbp.store.database import SchemaOutOfDate

pytestmark = pytest.mark.slow

Run = Callable[..., subprocess.CompletedProcess[str]]
Ok = Callable[..., str]


def _revision(site: Path) -> str:
    with sqlite3.connect(site / "pbp.db") as db:
        (version,) = db.execute("SELECT version_num FROM alembic_version").fetchone()
    return str(version)


def _set_revision(site: Path, version: str) -> None:
    with sqlite3.connect(site / "pbp.db") as db:
        db.execute("UPDATE alembic_version SET version_num = ?", (version,))


def test_status_of_an_empty_database_says_to_upgrade(site: Path, pbp: Run) -> None:
    result = pbp(site, "db", "status")
    assert result.returncode == 1
    assert "no pbp tables" in result.stdout
    assert "run `pbp db upgrade`" in result.stdout


def test_upgrade_creates_the_schema_once_then_status_is_up_to_date(
    site: Path, pbp: Run, pbp_ok: Ok
) -> None:
    first = pbp_ok(site, "db", "upgrade").strip()
    assert first.startswith("sqlite:///") and "pbp.db: upgraded from empty to revision " in first
    head = first.rsplit(" ", 1)[-1]
    assert _revision(site) == head
    assert pbp_ok(site, "db", "upgrade").strip().endswith(f": already at revision {head}")
    status = pbp(site, "db", "status")
    assert status.returncode == 0
    assert status.stdout.strip().endswith(f"at revision {head} (up to date)")


@pytest.fixture(scope="module")
def old_schema(
    tmp_path_factory: pytest.TempPathFactory, make_site: Callable[..., Path], pbp_ok: Ok
) -> Path:
    """A site whose database claims a revision older than any this pbp knows (shared by the
    tests below, which each check that it is left at that revision)."""
    site = make_site(tmp_path_factory.mktemp("old") / "site")
    pbp_ok(site, "db", "upgrade")
    _set_revision(site, "0000")
    return site


def test_the_bot_refuses_a_schema_it_does_not_know_and_says_why(old_schema: Path, pbp: Run) -> None:
    result = pbp(old_schema, "poll", "--once")
    assert result.returncode != 0
    assert "revision 0000, which this pbp does not know" in result.stderr
    assert "newer pbp" in result.stderr
    assert "Traceback" not in result.stderr
    assert _revision(old_schema) == "0000"  # not migrated behind the user's back


def test_an_older_known_schema_is_refused_with_the_upgrade_command() -> None:
    # one migration exists so far: an older known revision is shown with the error itself
    error = SchemaOutOfDate(url="sqlite:///pbp.db", current="0001", head="0002")
    assert "has revision 0001, this pbp needs revision 0002" in str(error)
    assert "run `pbp db upgrade` first" in str(error)


def test_status_of_an_old_schema_says_to_upgrade(old_schema: Path, pbp: Run) -> None:
    result = pbp(old_schema, "db", "status")
    assert result.returncode == 1
    assert "at 0000" in result.stdout and "run `pbp db upgrade`" in result.stdout


def test_upgrade_from_a_revision_it_does_not_know_fails_cleanly(old_schema: Path, pbp: Run) -> None:
    result = pbp(old_schema, "db", "upgrade")
    assert result.returncode == 1
    assert result.stderr.startswith("pbp db upgrade: cannot upgrade the database ")
    assert "revision 0000, which this pbp does not know" in result.stderr
    assert "Traceback" not in result.stderr
    assert _revision(old_schema) == "0000"
