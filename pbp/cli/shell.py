"""What the bot's subcommands share: the --config option and loading it with clear errors."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click

from pbp.cli.printable import for_terminal
from pbp.config import DEFAULT_CONFIG_PATH, Config, load_config
from pbp.errors import PbpError

F = TypeVar("F", bound=Callable[..., Any])


def config_option(func: F) -> F:
    """``--config PATH`` (default ./config.toml)."""
    return click.option(
        "--config",
        "config_path",
        type=click.Path(dir_okay=False, path_type=Path),
        default=DEFAULT_CONFIG_PATH,
        show_default=True,
        help="The bot configuration (see config.example.toml).",
    )(func)


def load(config_path: Path, *, command: str) -> Config:
    """The configuration, or a clear message and exit status 2."""
    if not config_path.is_file():
        fail(
            command,
            f"no configuration at {config_path}: copy config.example.toml to "
            f"{config_path} and edit it, or give --config PATH",
            status=2,
        )
    try:
        return load_config(config_path)
    except PbpError as exc:
        fail(command, str(exc), status=2)


def fail(command: str, message: str, *, status: int = 1) -> NoReturn:
    """Print ``pbp COMMAND: message`` on stderr and exit. The message may repeat what a file
    holds: a control character in it is shown as an escape, never sent to the terminal."""
    click.echo(for_terminal(f"pbp {command}: {message}"), err=True)
    sys.exit(status)


def text_argument(text: str, *, what: str) -> str:
    """``text`` as given (``-``: the standard input), if it is Unicode text; else a usage
    error that says where it stops being text. Bytes that are not UTF-8 reach Python as lone
    surrogates (in argv, or stdin in a C locale): no database or forum could store them."""
    if text == "-":
        data = sys.stdin.buffer.read()
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise click.UsageError(
                f"{what} on the standard input is not UTF-8 text (byte "
                f"0x{data[exc.start]:02x} at offset {exc.start})"
            ) from None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise click.UsageError(f"{what} is not UTF-8 text (at character {exc.start + 1})") from None
    return text
