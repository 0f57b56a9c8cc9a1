"""`pbp user add NAME`: an account of the local forum's web pages (`pbp serve`)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from pbp.bootstrap import open_store, utc_now
from pbp.cli.shell import config_option, fail, load
from pbp.errors import PbpError

MIN_PASSWORD = 8


@click.group("user")
def user() -> None:
    """Manage the accounts of the web pages (pbp serve)."""


@user.command("add")
@config_option
@click.option("--gm", is_flag=True, help="A GM's account: it sees every number of every campaign.")
@click.option("--password-stdin", is_flag=True, help="Read the password from standard input.")
@click.option("--reset", is_flag=True, help="Set a new password for an existing account.")
@click.argument("name")
def add(config_path: Path, name: str, gm: bool, password_stdin: bool, reset: bool) -> None:
    """Add an account NAME (its password asked for, stored as an argon2 hash).

    NAME is the forum name the account posts as on the local forum.
    """
    name = name.strip()
    if not name or len(name) > 100 or not name.isprintable():
        raise click.UsageError("NAME must be 1 to 100 printable characters")
    if password_stdin:
        password = sys.stdin.readline().rstrip("\r\n")
    elif not sys.stdin.isatty():
        raise click.UsageError("no terminal to ask the password on: give it with --password-stdin")
    else:
        password = click.prompt("Password", hide_input=True, confirmation_prompt=True)
    if len(password) < MIN_PASSWORD:
        raise click.UsageError(f"the password must have at least {MIN_PASSWORD} characters")
    config = load(config_path, command="user add")
    from pbp.store.accounts import Accounts
    from pbp.web.security import hash_password

    try:
        accounts = Accounts(open_store(config))
        hashed = hash_password(password)
        if reset:
            accounts.set_password(name, password_hash=hashed, gm=gm)
            click.echo(f"new password for {name}")
        else:
            accounts.add(name, password_hash=hashed, gm=gm, at=utc_now())
            click.echo(f"added {name}{' (GM)' if gm else ''}")
    except PbpError as exc:
        fail("user add", str(exc))
