"""`pbp demo`."""

from __future__ import annotations

from pathlib import Path

import click

from pbp.services.demo import demo_text, keep_demo


@click.command("demo")
@click.option(
    "--keep",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    metavar="FOLDER",
    help="Also play it into FOLDER (a config, the campaign and pbp.db) for pbp serve.",
)
def demo(keep: Path | None) -> None:
    """Play a complete example thread and print it with the bot's replies.

    The Sunken Keep: a GM and three players fight a goblin and an ogre over two rounds, with a
    typo fixed by an edit, a quoted tag that does not act, a split action, a restraint and a
    status request. It runs on the built-in local forum in a throw-away database: nothing
    is written anywhere, unless --keep FOLDER asks for a copy there that
    `pbp serve --config FOLDER/config.toml` shows.
    """
    if keep is not None and (keep / "pbp.db").exists():  # refused before anything is printed
        raise click.UsageError(f"{keep / 'pbp.db'} exists already: give --keep a new folder")
    click.echo(demo_text())
    if keep is not None:
        try:
            config = keep_demo(keep)
        except FileExistsError as exc:
            raise click.UsageError(f"{exc} exists already: give --keep a new folder") from None
        click.echo(f"kept the thread in {keep}: pbp serve --config {config}", err=True)
