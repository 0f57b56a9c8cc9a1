"""`pbp poll --once` and `pbp run`: the bot."""

from __future__ import annotations

import os
import sys
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING

import click

from pbp.bootstrap import make_bot, poll_is_idle, utc_now
from pbp.cli.shell import config_option, fail, load
from pbp.errors import PbpError

if TYPE_CHECKING:  # loaded by make_bot: an idle `pbp poll --once` needs none of it
    from pbp.services.bot import Bot, PollReport


def _count(n: int, one: str, many: str | None = None) -> str:
    """``1 reply``, ``2 replies``, ``0 replies``."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _said(*, events: int, replies: int, private: int) -> str:
    """The poll's one line: what it read, posted and sent."""
    line = (
        f"read {_count(events, 'new post version')}; "
        f"posted or edited {_count(replies, 'reply', 'replies')}"
    )
    if private:  # the GMs' full view, a player's own sheet
        line += f"; sent {_count(private, 'private message')}"
    return line


def _say(report: PollReport, *, skipped: bool = True) -> None:
    sent = [d for done in report.delivered.values() for d in done]
    private = sum(1 for d in sent if d.private_to is not None)
    click.echo(_said(events=report.events, replies=len(sent) - private, private=private))
    for line in report.failed:
        click.echo(f"  post failed: {line}", err=True)
    for line in report.errors:
        click.echo(f"  error: {line}", err=True)
    for line in report.skipped if skipped else ():
        click.echo(f"  skipped: thread {line}", err=True)
    for line in report.waiting:
        click.echo(f"  later: {line}", err=True)


@click.command("poll")
@config_option
@click.option(
    "--once",
    is_flag=True,
    default=True,
    help="Poll once and exit (the default; `pbp run` polls on a schedule).",
)
def poll(config_path: Path, once: bool) -> None:
    """Poll the forum once: read new posts, check them, reply, resolve what is due.

    Exit status 0 when everything was handled, 1 when a thread or post failed (see the
    messages; the bot tries again next poll).
    """
    del once
    config = load(config_path, command="poll")
    if not config.threads:
        fail("poll", f"{config_path} lists no [[threads]] to run", status=2)
    if poll_is_idle(config, now=utc_now()):  # said as the full poll would say it
        click.echo(_said(events=0, replies=0, private=0))
        return
    try:
        bot = make_bot(config)
        _say_new(bot, "poll")
        report = _poll_and_release(bot)
    except PbpError as exc:
        fail("poll", str(exc))
    _say(report)
    if report.errors or report.failed:
        raise SystemExit(1)


@click.command("run")
@config_option
def run(config_path: Path) -> None:
    """Run the bot: poll every poll_seconds, close rounds at their deadlines, remind players.

    Stops cleanly on Ctrl-C or SIGTERM, after the post in hand.
    """
    config = load(config_path, command="run")
    if not config.threads:
        fail("run", f"{config_path} lists no [[threads]] to run", status=2)
    try:
        bot = make_bot(config)
    except PbpError as exc:
        fail("run", str(exc), status=2)
    _say_new(bot, "run")
    click.echo(
        f"pbp runs {len(config.threads)} thread(s) on the {config.forum.kind} forum, "
        f"polling every {config.bot.poll_seconds} s; Ctrl-C stops it"
    )
    from pbp.scheduler import BotRunner  # APScheduler loads only for `pbp run`

    outage = config.database.outage_seconds
    runner = BotRunner(
        bot,
        poll_seconds=config.bot.poll_seconds,
        clock=utc_now,
        on_poll=_log,
        give_up_after=timedelta(seconds=outage) if outage else None,
        set_aside=True,  # the process lasts: what the first poll leaves, the collector leaves
    )
    runner.run()
    if runner.failure is not None:
        click.echo(f"pbp run: {runner.failure}", err=True)
        _end(1, abandoned=runner.abandoned)
    click.echo("pbp stopped")
    _end(0, abandoned=runner.abandoned)


def _poll_and_release(bot: Bot) -> PollReport:
    """One poll; then the leases go back, so the next poll, from any process, may take the
    threads (not after the database failed: it would only wait for it again)."""
    from pbp.store.database import StoreError  # loaded with the bot already

    try:
        report = bot.poll_once(utc_now())
    except StoreError:
        raise
    except BaseException:
        bot.release_leases()
        raise
    bot.release_leases()
    return report


def _end(status: int, *, abandoned: bool) -> None:
    """Exit with ``status``; at once if a poll was left blocked (its thread would keep the
    process waiting for the database or the forum, for nothing: it is abandoned as a crash
    would abandon it, and every unit of work is a transaction)."""
    if abandoned:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)
    raise SystemExit(status)


def _say_new(bot: Bot, command: str) -> None:
    """A new database is said so: after a restart it means the old one was not found."""
    if bot.store.created:
        click.echo(
            f"pbp {command}: no database at {bot.store.shown_url} yet: set up a new one "
            "(the threads are read from their start; replies already on the forum are "
            "not posted again)",
            err=True,
        )


def _log(report: PollReport) -> None:
    # a thread another worker runs is no news to a running worker: it says what it did
    if report.events or report.delivered or report.errors or report.failed:
        _say(report, skipped=False)
