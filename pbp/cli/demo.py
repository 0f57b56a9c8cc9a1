"""`pbp demo`."""

from __future__ import annotations

import click

from pbp.cli.app import app
from pbp.services.demo import run_demo, thread_text


@app.command("demo")
def demo() -> None:
    """Play a complete example thread and print it with the bot's replies.

    The Sunken Keep: a GM and three players fight a goblin and an ogre over two rounds, with a
    typo fixed by an edit, a quoted tag that does not act, a split action, a restraint and a
    status request. Nothing is written anywhere.
    """
    click.echo(thread_text(run_demo()))
