"""`pbp export`: a thread's ledger or a readable transcript."""

from __future__ import annotations

import os
from pathlib import Path

import click

from pbp.bootstrap import make_bot
from pbp.cli.printable import for_terminal, json_for_terminal
from pbp.cli.shell import config_option, fail, load
from pbp.errors import PbpError
from pbp.services.export import thread_markdown, write_ledger


@click.command("export")
@config_option
@click.argument("thread")
@click.option("--json", "as_json", is_flag=True, help="The JSON ledger (SPEC §5).")
@click.option("--md", "as_md", is_flag=True, help="A readable Markdown transcript.")
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write to this file instead of standard output.",
)
def export(config_path: Path, thread: str, as_json: bool, as_md: bool, output: Path | None) -> None:
    """Export THREAD: every round, action, character and rejected tag."""
    if as_json == as_md:
        raise click.UsageError("choose one of --json and --md")
    if output is not None:
        _check_writable(output)  # before the work: a typo in the path costs nothing
    config = load(config_path, command="export")
    try:
        bot = make_bot(config)
        # other people's text, for a terminal or a file read on one: no control characters
        if as_json:  # its rounds made entries one at a time, never held as one tree
            pieces: list[str] = []
            write_ledger(bot, thread, lambda piece: pieces.append(json_for_terminal(piece)))
            text = "".join([*pieces, "\n"])
        else:
            text = for_terminal(thread_markdown(bot, thread))
    except PbpError as exc:
        fail("export", str(exc))
    if output is None:
        click.echo(text, nl=False)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:  # the disk filled up, the folder went away meanwhile
        fail("export", f"cannot write {output}: {exc.strerror or exc}")
    click.echo(f"wrote {output}")


def _check_writable(output: Path) -> None:
    """A usage error unless ``output`` names a file that can be written in a folder that
    exists (click checks only that it is not a folder itself)."""
    folder = output.parent
    if not str(output).strip() or output.is_dir():
        raise click.BadParameter(
            f"{str(output)!r} is a folder, not a file", param_hint="'--output' / '-o'"
        )
    if not folder.is_dir():
        what = (
            f"{folder} is a file, not a folder"
            if folder.exists()
            else f"the folder {folder} does not exist"
        )
        raise click.BadParameter(
            f"{what}: make the folder first, or write the file elsewhere",
            param_hint="'--output' / '-o'",
        )
    if not os.access(folder, os.W_OK) or (output.exists() and not os.access(output, os.W_OK)):
        raise click.BadParameter(
            f"cannot write {output}: no permission", param_hint="'--output' / '-o'"
        )
