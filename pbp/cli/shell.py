"""What the bot's subcommands share: the --config option and loading it with clear errors."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click

from pbp.config import DEFAULT_CONFIG_PATH, Config, load_config
from pbp.errors import PbpError

F = TypeVar("F", bound=Callable[..., Any])


def config_option(func: F) -> F:
    """``--config PATH`` (default ./config.toml)."""
    return click.option(
        "--config", "config_path", type=click.Path(dir_okay=False, path_type=Path),
        default=DEFAULT_CONFIG_PATH, show_default=True,
        help="The bot configuration (see config.example.toml).",
    )(func)


def load(config_path: Path, *, command: str) -> Config:
    """The configuration, or a clear message and exit status 2."""
    if not config_path.is_file():
        fail(command, f"no configuration at {config_path}: copy config.example.toml to "
             f"{config_path} and edit it, or give --config PATH", status=2)
    try:
        return load_config(config_path)
    except PbpError as exc:
        fail(command, str(exc), status=2)


def fail(command: str, message: str, *, status: int = 1) -> NoReturn:
    """Print ``pbp COMMAND: message`` on stderr and exit."""
    click.echo(f"pbp {command}: {message}", err=True)
    sys.exit(status)
