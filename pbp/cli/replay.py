"""`pbp replay`: run a whole thread offline and print the replies or the ledger (SPEC §5)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from pbp.cli.app import app
from pbp.errors import PbpError
from pbp.rules.dice.seal import new_seed, seed_from_int
from pbp.services.events_file import read_events
from pbp.services.files import load_campaign
from pbp.services.ledger import LedgerBuilder
from pbp.services.thread import ThreadRun, new_run, round_seeds


def transcript(run: ThreadRun) -> str:
    """Every reply the bot would post, in order, each under a line saying what it answers."""
    blocks = []
    for reply in run.posted.values():
        where = f"reply to {reply.to}" if reply.to else "in the thread"
        edited = f" (edited {reply.edits}x)" if reply.edits else ""
        blocks.append(f"--- pbp, {where}{edited} [{reply.key}]\n{reply.text.rstrip()}\n")
    return "\n".join(blocks)


@app.command("replay")
@click.argument("campaign", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("events", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--json", "as_json", is_flag=True, help="Print the JSON ledger instead of the replies."
)
@click.option("--seed", type=int, default=None, help="Make the dice reproducible from this number.")
def replay(campaign: Path, events: Path, as_json: bool, seed: int | None) -> None:
    """Replay a thread offline: CAMPAIGN.toml and EVENTS.jsonl (one event per line).

    Prints every reply the bot would post, or with --json the ledger of every round, action,
    character and rejected tag. No forum is touched.
    """
    try:
        loaded = load_campaign(campaign)
        base = seed_from_int(seed) if seed is not None else new_seed()
        run = new_run(
            loaded,
            seed_for=round_seeds(base),
            templates=Path(loaded.templates) if loaded.templates else None,
        )
        for event in read_events(events):
            run.feed(event)
    except PbpError as exc:
        click.echo(f"pbp replay: {exc}", err=True)
        sys.exit(1)
    if as_json:
        ledger = LedgerBuilder(replies=run.replies, summaries=run.summaries).build(run.state)
        click.echo(json.dumps(ledger, indent=1, ensure_ascii=False))
    else:
        click.echo(transcript(run))
