"""`pbp check`: validate campaign files and the bot configuration (SPEC §7)."""

from __future__ import annotations

import os
from pathlib import Path

import click

from pbp.bootstrap import check_forum
from pbp.cli.printable import for_terminal
from pbp.config import DEFAULT_CONFIG_PATH, load_config
from pbp.errors import ConfigError
from pbp.services.files import check_campaign_file

_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)


@click.command("check")
@click.argument("campaigns", nargs=-1, type=_FILE, metavar="[CAMPAIGN.toml ...]")
@click.option(
    "--config",
    "config_path",
    type=_FILE,
    default=None,
    help="Also check this bot configuration and every campaign it names "
    "(default when no file is given: ./config.toml).",
)
@click.pass_context
def check(ctx: click.Context, campaigns: tuple[Path, ...], config_path: Path | None) -> None:
    """Check campaign files and the bot configuration; print what is wrong.

    Prints one `ok:` line per good file, with a `warning:` line for each sheet key no scene of
    its ruleset reads, and every error of the others, one line each. Exit status 0 when every
    file is good (warnings or not), 1 when any is not, 2 when there is nothing to check.
    """
    if not campaigns and config_path is None:
        if not DEFAULT_CONFIG_PATH.is_file():
            raise click.UsageError(
                "nothing to check: give CAMPAIGN.toml files, or --config PATH "
                f"(no {DEFAULT_CONFIG_PATH} in this folder)"
            )
        config_path = DEFAULT_CONFIG_PATH
    results = [_check_campaign(path) for path in campaigns]
    if config_path is not None:
        results.extend(_check_config(config_path, already=set(campaigns)))
    if not all(results):
        ctx.exit(1)


def _check_campaign(path: Path) -> bool:
    try:
        campaign, warnings = check_campaign_file(path)
    except ConfigError as error:
        _echo_errors(error)
        return False
    count = len(campaign.characters)
    noun = "character" if count == 1 else "characters"
    click.echo(
        for_terminal(f"ok: {_shown(path)} ({count} {noun}, ruleset {campaign.ruleset.value})")
    )
    for warning in warnings:  # the file loads: these do not make the check fail
        click.echo(for_terminal(f"warning: {warning}"))
    return True


def _check_config(path: Path, *, already: set[Path]) -> list[bool]:
    try:
        config = load_config(path)
    except ConfigError as error:
        _echo_errors(error)
        return [False]
    count = len(config.threads)
    noun = "thread" if count == 1 else "threads"
    forum_problem = check_forum(config)
    if forum_problem is not None:
        click.echo(
            for_terminal(f"error: {_shown(path)}: forum {config.forum.kind}: {forum_problem}")
        )
    else:
        click.echo(for_terminal(f"ok: {_shown(path)} ({count} {noun}, forum {config.forum.kind})"))
    seen = {p.resolve() for p in already}
    results = [forum_problem is None]
    for campaign in config.campaign_files:
        if campaign not in seen:  # one campaign may run several threads
            seen.add(campaign)
            results.append(_check_campaign(campaign))
    return results


def _echo_errors(error: ConfigError) -> None:
    """One ``error:`` line for each mistake of the file (every one, not only the first)."""
    for each in error.every:
        click.echo(for_terminal(f"error: {ConfigError.__str__(each)}"))


def _shown(path: Path) -> str:
    """``path`` as the user would type it: relative to the working folder when inside it."""
    if not path.is_absolute():
        return str(path)
    relative = os.path.relpath(path)
    return str(path) if relative.startswith("..") else relative
