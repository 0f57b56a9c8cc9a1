"""`pbp demo`."""

from __future__ import annotations

import click

from pbp.services.demo import demo_text


@click.command("demo")
def demo() -> None:
    """Play a complete example thread and print it with the bot's replies.

    The Sunken Keep: a GM and three players fight a goblin and an ogre over two rounds, with a
    typo fixed by an edit, a quoted tag that does not act, a split action, a restraint and a
    status request. It runs on the built-in local forum in a throw-away database: nothing
    is written anywhere.
    """
    click.echo(demo_text())
