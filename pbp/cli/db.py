"""`pbp db`: the database's schema."""

from __future__ import annotations

from pathlib import Path

import click

from pbp.cli.shell import config_option, fail, load
from pbp.errors import PbpError
from pbp.store.database import Store


@click.group("db")
def db() -> None:
    """Set up or migrate the bot's database."""


@db.command("upgrade")
@config_option
@click.option(
    "--create",
    is_flag=True,
    help="Start a new database even where its folder does not exist yet (the "
    "folders are made). Without it a database URL whose folder is missing "
    "is refused, so a typo never starts a new database.",
)
def upgrade(config_path: Path, create: bool) -> None:
    """Create the tables, or migrate them to this pbp's schema."""
    config = load(config_path, command="db upgrade")
    try:
        store = Store(config.database.url, timeout=config.database.timeout_seconds, create=create)
        before, after = store.upgrade()
    except PbpError as exc:
        fail("db upgrade", str(exc))
    if before == after:
        click.echo(f"{store.shown_url}: already at revision {after}")
    else:
        click.echo(f"{store.shown_url}: upgraded from {before or 'empty'} to revision {after}")


@db.command("status")
@config_option
def status(config_path: Path) -> None:
    """Say which schema revision the database is at. Exit 1 when it needs `pbp db upgrade`."""
    config = load(config_path, command="db status")
    try:
        store = Store(config.database.url, timeout=config.database.timeout_seconds)
        current, head = store.current(), store.head()
    except PbpError as exc:
        fail("db status", str(exc))
    if current == head:
        click.echo(f"{store.shown_url}: at revision {head} (up to date)")
    else:
        click.echo(
            f"{store.shown_url}: at {current or 'no pbp tables'}, this pbp needs {head}: "
            "run `pbp db upgrade`"
        )
        raise SystemExit(1)
