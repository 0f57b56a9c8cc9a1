"""The `pbp` command group; each subcommand lives in its own module of this package.

The group imports a subcommand's module only when that subcommand runs (or its own help is
asked for): `pbp --help` and `pbp parse` stay fast because they never load the store, the
database driver or the bot. The one-line summaries `pbp --help` lists are kept here, so the
help needs no subcommand module; a test checks that they match each command's own docstring.
"""

from __future__ import annotations

import gc
import importlib
import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, Any

import click

from pbp import __version__
from pbp.cli.printable import for_terminal

# name -> (module of pbp.cli, the command's attribute in it, its one-line summary)
SUBCOMMANDS: dict[str, tuple[str, str, str]] = {
    "check": (
        "check",
        "check",
        "Check campaign files and the bot configuration; print what is wrong.",
    ),
    "db": ("db", "db", "Set up or migrate the bot's database."),
    "demo": ("demo", "demo", "Play a complete example thread and print it with the bot's replies."),
    "export": (
        "export",
        "export",
        "Export THREAD: every round, action, character and rejected tag.",
    ),
    "parse": (
        "parse",
        "parse",
        "Show what the bot reads in a post: TEXT, or the standard input with - (the default).",
    ),
    "poll": (
        "poll",
        "poll",
        "Poll the forum once: read new posts, check them, reply, resolve what is due.",
    ),
    "post": ("post", "post", "Post TEXT to a thread of the local forum, or edit or delete a post."),
    "replay": (
        "replay",
        "replay",
        "Replay a thread offline: CAMPAIGN.toml and EVENTS.jsonl (one event per line).",
    ),
    "run": (
        "poll",
        "run",
        "Run the bot: poll every poll_seconds, close rounds at their deadlines, remind players.",
    ),
    "serve": ("serve", "serve", "Serve the campaigns as web pages, over the bot's database."),
    "thread": ("thread", "thread", "Read the threads of the local forum."),
    "user": ("user", "user", "Manage the accounts of the web pages (pbp serve)."),
    "verify": (
        "verify",
        "verify",
        "Recompute every roll of the round summaries in FILE (default: standard input).",
    ),
}


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The garbage collector off while a subcommand's modules load: they make a few hundred
    thousand objects that all last (modules, classes, SQLAlchemy's and Jinja's machinery) and
    no garbage, and the collector's passes over them were a twentieth of loading them."""
    if not gc.isenabled():  # (someone else's choice: left as it is)
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        if gc.get_freeze_count() == 0:
            # what was made since the last pass (the modules' objects, most of it) joins
            # the oldest generation at once, as it would after two passes over it: frozen,
            # then given back (each a move of whole lists, and no pass counted), not walked
            # by the young generations' passes on the way
            gc.freeze()
            gc.unfreeze()
        gc.enable()


class LazyGroup(click.Group):
    """A click group whose subcommands are imported from their modules on first use."""

    def __init__(
        self, *args: object, lazy: dict[str, tuple[str, str, str]], **kwargs: object
    ) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.lazy = lazy

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.commands or cmd_name not in self.lazy:
            return super().get_command(ctx, cmd_name)
        module, attribute, _summary = self.lazy[cmd_name]
        with _collector_paused():
            command = getattr(importlib.import_module(f"pbp.cli.{module}"), attribute)
        if not isinstance(command, click.Command):
            raise TypeError(f"pbp.cli.{module}.{attribute} is not a click command")
        self.commands[cmd_name] = command
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The help's command list, from the summaries above: no subcommand module is imported."""
        names = [
            name
            for name in self.list_commands(ctx)
            if name not in self.commands or not self.commands[name].hidden
        ]
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = [(name, self.summary_of(name, limit)) for name in names]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def summary_of(self, name: str, limit: int) -> str:
        """One line on subcommand ``name``, cut to ``limit`` characters as click cuts it."""
        command = self.commands.get(name) or click.Command(name, help=self.lazy[name][2])
        return command.get_short_help_str(limit)

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        """The group's own options read; a mistake in them is one line (``pbp --bogus``)."""
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.exceptions.NoArgsIsHelpError:
            raise
        except click.UsageError as error:
            raise OneLineUsageError(error) from None

    def invoke(self, ctx: click.Context) -> Any:
        """Run the subcommand. A usage mistake is one line, and so is an error no command
        expected (a bug: its traceback shows with ``pbp -v``), so a user never sees a
        traceback in place of a message."""
        try:
            return super().invoke(ctx)
        except click.exceptions.NoArgsIsHelpError:
            raise  # `pbp db` alone: the group's help is the answer
        except click.UsageError as error:
            raise OneLineUsageError(error) from None
        except (click.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except Exception as error:
            if logging.getLogger("pbp").isEnabledFor(logging.DEBUG):
                raise
            name = f"pbp {ctx.invoked_subcommand}" if ctx.invoked_subcommand else "pbp"
            click.echo(
                for_terminal(
                    f"{name}: unexpected error ({type(error).__name__}: "
                    f"{_shortened(str(error))}); this is a bug in pbp: please report it with "
                    f"what `{name.replace('pbp', 'pbp -v', 1)} ...` prints"
                ),
                err=True,
            )
            sys.exit(1)


def _shortened(text: str, *, longest: int = 300) -> str:
    """``text`` on one line, each word longer than ``longest`` cut in its middle (a 5,000-digit
    --seed is not shown whole; a long path keeps its start and its file's name)."""
    keep = longest // 2
    return " ".join(
        word if len(word) <= longest else f"{word[:keep]}…({len(word)} characters)…{word[-keep:]}"
        for word in text.split()
    )


class OneLineUsageError(click.UsageError):
    """A usage mistake told in one line: what is wrong, the command's usage, where the help
    is (click's own form takes four lines, with the message last)."""

    def __init__(self, error: click.UsageError) -> None:
        super().__init__(error.message, error.ctx)
        # click words its subclasses' messages itself
        self.detail = _shortened(error.format_message())

    def show(self, file: IO[Any] | None = None) -> None:
        ctx = self.ctx
        if ctx is None:
            click.echo(for_terminal(f"pbp: {self.detail}"), err=file is None, file=file)
            return
        usage = ctx.get_usage().removeprefix("Usage:").strip()
        click.echo(
            for_terminal(
                f"{ctx.command_path}: {self.detail} (usage: {usage}; see {ctx.command_path} --help)"
            ),
            err=file is None,
            file=file,
        )


@click.group(
    cls=LazyGroup, lazy=SUBCOMMANDS, context_settings={"help_option_names": ["-h", "--help"]}
)
@click.version_option(__version__, prog_name="pbp")
@click.option("--verbose", "-v", is_flag=True, help="Log what the bot does (to stderr).")
def app(verbose: bool) -> None:
    """pbp: a play-by-post moderator bot.

    Players write their turns as forum posts with action tags in the prose
    ([physical: attack Goblin], [move: Door]); pbp reads and checks every tag and, when the
    GM closes the round, resolves it and replies with one summary.
    """
    logging.basicConfig(
        level=logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    # --verbose: pbp says what it does; the libraries under it keep to their warnings (their
    # debug output would show SQL parameters and HTTP headers)
    logging.getLogger("pbp").setLevel(logging.DEBUG if verbose else logging.WARNING)
