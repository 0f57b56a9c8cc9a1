"""`pbp` and its subcommands."""

from __future__ import annotations

from pbp.cli import (  # noqa: F401  (each module registers its subcommand)
    check,
    db,
    demo,
    export,
    parse,
    poll,
    post,
    replay,
    thread,
    verify,
)
from pbp.cli.app import app


def main() -> None:
    """Entry point of the `pbp` console script."""
    app(prog_name="pbp")


__all__ = ["app", "main"]
