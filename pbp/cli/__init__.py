"""`pbp` and its subcommands (each imported only when it runs: see `pbp.cli.app`)."""

from __future__ import annotations

from pbp.cli.app import app


def main() -> None:
    """Entry point of the `pbp` console script."""
    app(prog_name="pbp")


__all__ = ["app", "main"]
