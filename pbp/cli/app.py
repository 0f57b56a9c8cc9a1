"""The `pbp` command group; each subcommand lives in its own module of this package."""

from __future__ import annotations

import logging

import click

from pbp import __version__


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pbp")
@click.option("--verbose", "-v", is_flag=True, help="Log what the bot does (to stderr).")
def app(verbose: bool) -> None:
    """pbp: a play-by-post moderator bot.

    Players write their turns as forum posts with action tags in the prose
    ([physical: attack Goblin], [move: Door]); pbp reads and checks every tag and, when the
    GM closes the round, resolves it and replies with one summary.
    """
    logging.basicConfig(
        level=logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    # --verbose: pbp says what it does; the libraries under it keep to their warnings (their
    # debug output would show SQL parameters and HTTP headers)
    logging.getLogger("pbp").setLevel(logging.DEBUG if verbose else logging.WARNING)
