"""`pbp post`: write, edit or delete a post on the local forum from the shell."""

from __future__ import annotations

import click

from pbp.bootstrap import local_forum, open_store, utc_now
from pbp.cli.shell import config_option, fail, load, text_argument
from pbp.errors import PbpError

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
@click.argument("text", required=False)
def post(
    config_path: click.Path,
    thread: str | None,
    author: str | None,
    edit_id: str | None,
    delete_id: str | None,
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
        forum = local_forum(config, open_store(config))
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
            made = forum.post(thread=thread, author=author, body=text, at=now)
            click.echo(f"posted {made.id} in thread {thread} as {author}")
    except PbpError as exc:
        fail("post", str(exc))
