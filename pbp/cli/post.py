"""`pbp post`: write, edit or delete a post on the local forum from the shell."""

from __future__ import annotations

import click

from pbp.bootstrap import local_forum, open_store, utc_now
from pbp.cli.shell import config_option, fail, load, text_argument
from pbp.config import Config
from pbp.errors import PbpError
from pbp.services.watched import binds_a_thread, bound_threads, run_by_the_bot
from pbp.store.database import Store

EXAMPLES = """
Examples:

\b
  pbp post --thread keep-1 --as alice "Aria charges. [physical: attack Goblin]"
  pbp post --edit p3 "Aria charges. [physical: attack Goblin]"
  pbp post --delete p3
  echo "!close" | pbp post --thread keep-1 --as gm_sam -
"""


@click.command("post", epilog=EXAMPLES)
@config_option
@click.option("--thread", "-t", "thread", metavar="THREAD", help="The thread to post in.")
@click.option("--as", "author", metavar="USER", help="Who writes the post.")
@click.option("--edit", "edit_id", metavar="ID", help="Replace the text of post ID.")
@click.option("--delete", "delete_id", metavar="ID", help="Delete post ID.")
@click.option(
    "--new",
    "new_thread",
    is_flag=True,
    help="Start THREAD even though the bot does not run it (not under [[threads]], not "
    "bound with !campaign): its posts are not read until it is.",
)
@click.argument("text", required=False)
def post(
    config_path: click.Path,
    thread: str | None,
    author: str | None,
    edit_id: str | None,
    delete_id: str | None,
    new_thread: bool,
    text: str | None,
) -> None:
    """Post TEXT to a thread of the local forum, or edit or delete a post.

    TEXT "-" reads the post from standard input. The bot reads it at its next poll
    (`pbp poll --once`, or a running `pbp run`).
    """
    modes = [m for m in (thread or author, edit_id, delete_id) if m]
    if len(modes) != 1:
        raise click.UsageError(
            "say what to do: --thread T --as USER TEXT, --edit ID TEXT, or --delete ID"
        )
    if delete_id is None:
        if text is None:
            raise click.UsageError("the post's TEXT is missing (or - to read it from stdin)")
        text = text_argument(text, what="the post's TEXT")
        if not text.strip():
            raise click.UsageError("the post's TEXT is empty")
        if "\x00" in text:  # no forum post holds one, and PostgreSQL cannot store it
            raise click.UsageError(
                f"the post's TEXT holds a NUL character (at character "
                f"{text.index(chr(0)) + 1}): take it out"
            )
    if (thread or author) and not (thread and author):
        raise click.UsageError("a new post needs both --thread THREAD and --as USER")
    config = load(config_path, command="post")  # type: ignore[arg-type]
    try:
        store = open_store(config)
        forum = local_forum(config, store)
        now = utc_now()
        if delete_id is not None:
            forum.delete(delete_id, at=now)
            click.echo(f"deleted {delete_id}")
        elif edit_id is not None:
            assert text is not None
            forum.edit(edit_id, body=text, at=now)
            click.echo(f"edited {edit_id}")
        else:
            assert thread and author and text is not None
            if not (new_thread or binds_a_thread(text) or forum.thread(thread)):
                _refuse_unread(thread, author, text, config=config, store=store)
            made = forum.post(thread=thread, author=author, body=text, at=now)
            click.echo(f"posted {made.id} in thread {thread} as {author}")
    except PbpError as exc:
        fail("post", str(exc))


def _refuse_unread(thread: str, author: str, text: str, *, config: Config, store: Store) -> None:
    """A new thread the bot would never read is refused, with the threads it does read and
    the ways to make it read this one (unless it runs it already)."""
    configured = [t.id for t in config.threads]
    if run_by_the_bot(thread, configured=configured, store=store):
        return
    runs = sorted({*configured, *bound_threads(store)})
    known = ", ".join(runs) if runs else "none yet"
    example = runs[0] if runs else "keep-1"
    said = text if len(text) <= 40 and "\n" not in text and '"' not in text else "…"
    fail(
        "post",
        f"the bot does not run a thread {thread!r}, so it would never read this post (it "
        f"runs: {known}). Post in a thread it runs (pbp post --thread {example} --as "
        f'{author} "{said}"), add {thread!r} under [[threads]] in the config, or start it with a '
        f'GM\'s "!campaign NAME" line; --new starts it anyway.',
        status=2,
    )
