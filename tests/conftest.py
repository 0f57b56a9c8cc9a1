"""Session-wide fixtures: a throw-away PostgreSQL database for the tests that want one, and
the fifth ruleset of ``tests/rulesets/coin``, registered before anything reads the rulesets
(``pbp.rulesets.register``) so that the ruleset contract suite runs over it in-process; and
a cache folder of the run's own for compiled templates (``PBP_CACHE_DIR``).

The server is administered through ``PBP_TEST_POSTGRES_URL`` (default
``postgresql+psycopg://postgres@127.0.0.1:5432/test``). Tests that ask for
``postgres_database`` are skipped when the server cannot be reached, unless
``PBP_REQUIRE_POSTGRES=1`` (CI), which turns that into a failure.
"""

from __future__ import annotations

import atexit
import os
import secrets
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import SQLAlchemyError

sys.path.insert(0, str(Path(__file__).resolve().parent / "rulesets"))
from coin import RULESET as COIN

from pbp.rulesets import register

register(COIN)

# compiled templates kept in a folder of this run's, never the user's own cache (the tests'
# pbp commands in subprocesses share it)
if "PBP_CACHE_DIR" not in os.environ:
    _cache = tempfile.mkdtemp(prefix="pbp-test-cache-")
    os.environ["PBP_CACHE_DIR"] = _cache
    atexit.register(shutil.rmtree, _cache, ignore_errors=True)

DEFAULT_POSTGRES_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "postgres: runs against PostgreSQL (skipped when the server is unreachable)"
    )


class PostgresDatabase:
    """A database made for this test session; ``reset()`` empties it (no tables at all)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._engine: Engine | None = None

    def reset(self) -> None:
        """Drop every table (pbp's and alembic_version) by recreating the public schema."""
        if self._engine is None:
            self._engine = create_engine(self.url)
        with self._engine.begin() as conn:
            conn.execute(text("DROP SCHEMA public CASCADE"))
            conn.execute(text("CREATE SCHEMA public"))

    def dispose(self) -> None:
        if self._engine is not None:
            self._engine.dispose()


def _admin_engine(url: str) -> Engine:
    """An autocommit engine on the admin database, or skip (fail if PostgreSQL is required)."""
    shown = make_url(url).render_as_string(hide_password=True)
    try:
        engine = create_engine(
            url, isolation_level="AUTOCOMMIT", connect_args={"connect_timeout": 5}
        )
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    except (ImportError, SQLAlchemyError) as exc:
        cause = getattr(exc, "orig", None) or exc  # the driver's words, not SQLAlchemy's
        detail = " ".join(str(cause).split())
        reason = f"PostgreSQL is not reachable at {shown}: {type(cause).__name__}: {detail}"
        if os.environ.get("PBP_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"{reason} (PBP_REQUIRE_POSTGRES=1)", pytrace=False)
        pytest.skip(f"{reason} (set PBP_TEST_POSTGRES_URL, or PBP_REQUIRE_POSTGRES=1 to fail)")
    return engine


@pytest.fixture(scope="session")
def postgres_database() -> Iterator[PostgresDatabase]:
    """A fresh database ``pbp_test_<random>`` for the session, dropped at its end.

    Its time zone is America/St_Johns (UTC-3:30), so a time that goes through PostgreSQL's
    session time zone instead of pbp's naive-UTC columns shows up as wrong.
    """
    admin_url = os.environ.get("PBP_TEST_POSTGRES_URL", DEFAULT_POSTGRES_URL)
    admin = _admin_engine(admin_url)
    name = f"pbp_test_{secrets.token_hex(6)}"
    with admin.connect() as conn:
        conn.execute(text(f"CREATE DATABASE {name}"))
        # a server far from UTC: pbp's times must not depend on the session's time zone
        conn.execute(text(f"ALTER DATABASE {name} SET timezone TO 'America/St_Johns'"))
    database = PostgresDatabase(
        make_url(admin_url).set(database=name).render_as_string(hide_password=False)
    )
    try:
        yield database
    finally:
        database.dispose()
        with admin.connect() as conn:
            conn.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin.dispose()
