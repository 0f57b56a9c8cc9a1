"""`pbp replay`: run a whole thread offline and print the replies or the ledger (SPEC §5)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from pbp.cli.printable import for_terminal, json_for_terminal
from pbp.config import load_config
from pbp.engine.events import Event
from pbp.errors import ForumError, InputError, PbpError
from pbp.rules.dice.seal import new_seed, seed_from_int
from pbp.services import lasting
from pbp.services.events_file import located_events
from pbp.services.files import load_campaign, raise_all, template_errors
from pbp.services.replay import BOT, feed_all, replay_run


@click.command("replay")
@click.argument("campaign", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("events", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--json", "as_json", is_flag=True, help="Print the JSON ledger instead of the replies."
)
@click.option("--seed", type=int, default=None, help="Make the dice reproducible from this number.")
@click.option(
    "--bot",
    "bot_name",
    default=None,
    help=f"The bot's username: posts by it are never read as actions "
    f"(default: the config's [bot] username, else {BOT}).",
)
@click.option(
    "--config",
    "config_path",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="Take the bot's username and ack setting from this "
    "configuration (its database and forum are not touched).",
)
def replay(
    campaign: Path,
    events: Path,
    as_json: bool,
    seed: int | None,
    bot_name: str | None,
    config_path: Path | None,
) -> None:
    """Replay a thread offline: CAMPAIGN.toml and EVENTS.jsonl (one event per line).

    Each event goes onto a local forum in a throw-away database and the bot polls it, exactly
    as `pbp run` would. Prints every reply the bot posted, or with --json the ledger of every
    round, action, character and rejected tag.
    """
    try:
        config = load_config(config_path) if config_path is not None else None
        bot = bot_name or (config.bot.username if config else BOT)
        ack = config.bot.ack if config else "errors"
        # a template of the campaign's folder that does not compile fails every reply using
        # it: said once, here, rather than logged at each post
        raise_all(template_errors(load_campaign(campaign)))
        loaded = _Reading(events)
        base = seed_from_int(seed) if seed is not None else new_seed()
        with (
            _start_kept(),
            replay_run(campaign, seed=base, bot=bot, ack=ack, keep_log=False) as run,
        ):
            try:
                feed_all(run, loaded)
            except ForumError as exc:  # the forum refused the event just read: say its line
                raise InputError(f"{loaded.where}: {exc}" if loaded.where else str(exc)) from exc
            if not run.polls:  # not one event: the bot never even saw the thread
                raise InputError(
                    f"{events}: no events to replay (one event a line, e.g. {EXAMPLE_EVENT})"
                )
            if as_json:  # a long thread's ledger goes out a round at a time
                with _chunks() as write:  # other people's text: no control characters
                    run.write_ledger(lambda piece: write(json_for_terminal(piece)))
            else:
                click.echo(for_terminal(run.transcript()))
    except PbpError as exc:
        click.echo(for_terminal(f"pbp replay: {exc}"), err=True)
        sys.exit(1)


class _Reading:
    """The events of the file, read as the replay asks for them; ``where`` is the file and line
    of the last one read (a post the forum refuses is the one just read: each is put on the
    forum as soon as it is read)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.where: str | None = None

    def __iter__(self) -> Iterator[Event]:
        for where, event in located_events(self.path):
            self.where = where
            yield event


CHUNK = 1 << 20  # characters written to standard output at a time
EXAMPLE_EVENT = (
    '{"type": "post", "id": "p1", "author": "alice", '
    '"at": "2026-11-29T10:00:00Z", "body": "[physical: attack Goblin]"}'
)


@contextmanager
def _start_kept() -> Iterator[None]:
    """What the start-up built (modules, classes) lives to the end of the replay: the
    collector's full passes leave it out until the block ends (0.16 s → 0.06 s of an
    8,000-post replay). Given back after, so a process that runs more (a test's) collects
    it as before (unless it had frozen some itself: then what it froze stays so)."""
    first = lasting.set_aside(collect=False)
    try:
        yield
    finally:
        lasting.given_back(first)


@contextmanager
def _chunks() -> Iterator[Callable[[str], object]]:
    """A writer to standard output, in chunks of about ``CHUNK`` characters, and a newline at
    the end."""
    pieces: list[str] = []
    size = 0

    def write(piece: str) -> None:
        nonlocal size
        pieces.append(piece)
        size += len(piece)
        if size >= CHUNK:
            click.echo("".join(pieces), nl=False)
            pieces.clear()
            size = 0

    yield write
    click.echo("".join(pieces))
