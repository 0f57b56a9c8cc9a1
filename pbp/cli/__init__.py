"""`pbp` and its subcommands (each imported only when it runs: see `pbp.cli.app`)."""

from __future__ import annotations

from pbp.cli.app import app
from pbp.cli.leaving import leave


def main() -> None:
    """Entry point of the `pbp` console script: the process ends with the command
    (``leaving``)."""
    try:
        app(prog_name="pbp")
    except SystemExit as ended:
        leave(ended.code)
        raise


__all__ = ["app", "main"]
