"""`pbp replay`: run a whole thread offline and print the replies or the ledger (SPEC §5)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from pbp.config import load_config
from pbp.errors import PbpError
from pbp.rules.dice.seal import new_seed, seed_from_int
from pbp.services.events_file import read_events
from pbp.services.replay import BOT, feed_all, replay_run


@click.command("replay")
@click.argument("campaign", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("events", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--json", "as_json", is_flag=True, help="Print the JSON ledger instead of the replies."
)
@click.option("--seed", type=int, default=None, help="Make the dice reproducible from this number.")
@click.option("--bot", "bot_name", default=None,
              help=f"The bot's username: posts by it are never read as actions "
              f"(default: the config's [bot] username, else {BOT}).")
@click.option("--config", "config_path", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Take the bot's username and ack setting from this "
              "configuration (its database and forum are not touched).")
def replay(campaign: Path, events: Path, as_json: bool, seed: int | None,
           bot_name: str | None, config_path: Path | None) -> None:
    """Replay a thread offline: CAMPAIGN.toml and EVENTS.jsonl (one event per line).

    Each event goes onto a local forum in a throw-away database and the bot polls it, exactly
    as `pbp run` would. Prints every reply the bot posted, or with --json the ledger of every
    round, action, character and rejected tag.
    """
    try:
        config = load_config(config_path) if config_path is not None else None
        bot = bot_name or (config.bot.username if config else BOT)
        ack = config.bot.ack if config else "errors"
        loaded = read_events(events)
        base = seed_from_int(seed) if seed is not None else new_seed()
        with replay_run(campaign, seed=base, bot=bot, ack=ack) as run:
            feed_all(run, loaded)
            output = (json.dumps(run.ledger(), indent=1, ensure_ascii=False) if as_json
                      else run.transcript())
    except PbpError as exc:
        click.echo(f"pbp replay: {exc}", err=True)
        sys.exit(1)
    click.echo(output)
