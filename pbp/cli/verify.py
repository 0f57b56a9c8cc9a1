"""`pbp verify`: recompute a round's dice from the public summary, or check a ledger (SPEC §6)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import NoReturn

import click

from pbp.cli.printable import for_terminal
from pbp.cli.shell import fail
from pbp.services.verify import Verification, verify_ledger, verify_text

NOTHING = 2  # the input held no round summary with a seed


@click.command("verify")
@click.argument(
    "source",
    required=False,
    default="-",
    metavar="[FILE]",
    type=click.Path(dir_okay=False, allow_dash=True, path_type=Path),
)
@click.option(
    "--ledger",
    "ledger_path",
    metavar="FILE.json",
    default=None,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Check an exported ledger (pbp export --json, pbp replay --json) instead.",
)
@click.pass_context
def verify(ctx: click.Context, source: Path, ledger_path: Path | None) -> None:
    """Recompute every roll of the round summaries in FILE (default: standard input).

    Paste one or more summaries as posted (with the cheat sheet or the previous summary, the
    round's seal is checked too). Prints one line per round. Exit status 0 when every roll and
    seal matches, 1 when any does not, 2 when the input holds no summary with its seed.
    """
    if ledger_path is not None:
        if str(source) != "-":
            raise click.UsageError("give either FILE or --ledger, not both")
        result = _ledger(ledger_path)
        what = f"{ledger_path} has no closed round whose summary reveals its seed"
    else:
        result = verify_text(_read(source))
        name = "the input" if str(source) == "-" else str(source)
        what = (
            f"{name} holds no round summary with its dice seed (a line like "
            "'Dice seed of round 1: ...'); paste the whole summary"
        )
    for line in result.lines():  # they may quote the input: shown without its controls
        click.echo(for_terminal(line))
    if not result.found:
        click.echo(f"pbp verify: {what}", err=True)
        ctx.exit(NOTHING)
    ctx.exit(0 if result.ok else 1)


def _read(source: Path) -> str:
    if str(source) == "-":
        data: bytes = sys.stdin.buffer.read()
    else:
        try:
            data = source.read_bytes()
        except OSError as exc:
            fail("verify", f"cannot read {source}: {exc.strerror or exc}", status=NOTHING)
    return data.decode("utf-8", errors="replace")


MAKE_ONE = "a ledger is what `pbp export --json` or `pbp replay CAMPAIGN EVENTS --json` writes"


def _ledger(path: Path) -> Verification:
    """The ledger's verification; a file that is no ledger is one message, and exit 2."""
    try:
        data = json.loads(_read(path))
    except json.JSONDecodeError as exc:
        _no_ledger(path, f"not JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})")
    except RecursionError:  # brackets nested past anything a ledger holds
        _no_ledger(path, "its JSON nests too deep")
    except ValueError:  # a number past Python's limit for reading one (4,300 digits)
        _no_ledger(path, "it holds a number thousands of digits long")
    if not isinstance(data, dict):
        _no_ledger(path, f'its JSON is {type(data).__name__}, not an object with "rounds"')
    if not isinstance(data.get("rounds"), list):
        _no_ledger(path, 'its JSON object has no list of "rounds"')
    return verify_ledger(data)


def _no_ledger(path: Path, why: str) -> NoReturn:
    fail("verify", f"{path} is not a pbp ledger: {why}; {MAKE_ONE}", status=NOTHING)
