"""`pbp thread`: read the local forum from the shell."""

from __future__ import annotations

import shutil
import sys
import textwrap
from collections import defaultdict
from datetime import datetime
from pathlib import Path

import click

from pbp.bootstrap import local_forum, open_store
from pbp.cli.markdown_view import Formatter, plain_body, terminal_body
from pbp.cli.printable import for_terminal
from pbp.cli.shell import config_option, fail, load
from pbp.errors import PbpError
from pbp.forums.base import ForumPost, PrivateMessage
from pbp.services.watched import bound_threads, moved_threads


@click.group("thread")
def thread() -> None:
    """Read the threads of the local forum."""


def _when(at: datetime) -> str:
    return at.strftime("%Y-%m-%d %H:%M UTC")


def _block(post: ForumPost, *, indent: str, body: Formatter) -> list[str]:
    head = f"{post.id}  {post.author} · {_when(post.created_at)}"
    if post.reply_to:
        head += f" · reply to {post.reply_to}"
    if post.deleted_at is not None:
        return [for_terminal(f"{indent}{head} · deleted {_when(post.deleted_at)}"), ""]
    if post.edited_at is not None:
        head += f" · edited {_when(post.edited_at)}"
    return [for_terminal(f"{indent}{head}"), body(post.body.rstrip(), len(indent) + 4), ""]


def render_thread(posts: list[ForumPost], *, body: Formatter = plain_body) -> str:
    """A thread as text: each post, with the bot's replies to it right under it; ``body``
    shows a post's Markdown (plain text by default), printable."""
    answers: dict[str, list[ForumPost]] = defaultdict(list)
    top: list[ForumPost] = []
    for post in posts:
        if post.reply_to is not None:
            answers[post.reply_to].append(post)
        else:
            top.append(post)
    lines: list[str] = []
    for post in top:
        lines += _block(post, indent="", body=body)
        for answer in answers.pop(post.id, []):
            lines += _block(answer, indent="    ", body=body)
    for orphans in answers.values():  # replies to posts of another thread (should not happen)
        for answer in orphans:
            lines += _block(answer, indent="    ", body=body)
    return "\n".join(lines).rstrip() + "\n"


def render_inbox(user: str, messages: list[PrivateMessage]) -> str:
    """The private messages of one user, oldest first, each with its subject."""
    if not messages:
        return f"No private messages to {user} from this thread.\n"
    lines = [f"Private messages to {user} ({len(messages)}), only {user} can read these:", ""]
    for message in messages:
        lines.append(f"{message.id}  {message.subject} · {_when(message.sent_at)}")
        lines.append(textwrap.indent(message.body.rstrip(), "    ", lambda _line: True))
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


@thread.command("show")
@config_option
@click.option(
    "--as",
    "user",
    default=None,
    metavar="USER",
    help="Also show the private messages the bot sent USER about this thread "
    "(a GM's full numbers under hide-npcs, a player's !sheet private).",
)
@click.argument("name")
def show(config_path: Path, name: str, user: str | None) -> None:
    """Print thread NAME with every post and every reply of the bot."""
    config = load(config_path, command="thread show")
    try:
        forum = local_forum(config, open_store(config))
        posts = forum.thread(name)
        inbox = forum.inbox(user, thread=name) if user is not None else []
    except PbpError as exc:
        fail("thread show", str(exc))
    if not posts:
        fail(
            "thread show",
            f"there is no thread {name!r} on the local forum (yet): "
            f"start it with pbp post --thread {name} --as USER TEXT",
        )
    replies = sum(1 for p in posts if p.reply_key is not None)
    click.echo(
        for_terminal(f"Thread {name}: {len(posts) - replies} posts, {replies} replies by the bot\n")
    )
    stdout = sys.stdout
    shown: Formatter = (
        terminal_body(shutil.get_terminal_size().columns) if stdout.isatty() else plain_body
    )  # a terminal sees the Markdown rendered; a pipe plain text
    click.echo(render_thread(posts, body=shown))
    if user is not None:
        click.echo(for_terminal(render_inbox(user, inbox)), nl=False)


@thread.command("list")
@config_option
def list_threads(config_path: Path) -> None:
    """List the threads of the local forum, with their number of posts."""
    config = load(config_path, command="thread list")
    try:
        store = open_store(config)
        threads = local_forum(config, store).threads()
        bound = bound_threads(store)
        moved = moved_threads(store)
    except PbpError as exc:
        fail("thread list", str(exc))
    if not threads:
        click.echo("no threads yet: start one with pbp post --thread NAME --as USER TEXT")
        return
    watched = {t.id for t in config.threads}
    for name, count in threads:
        by = bound.get(name)
        mark = (
            f"  (no longer read: its campaign moved to {moved[name]})"
            if name in moved
            else "  (run by the bot)"
            if name in watched
            else f"  (run by the bot: bound by {by} with !campaign)"
            if by is not None
            else "  (run by the bot)"
            if name in bound
            else ""
        )
        click.echo(for_terminal(f"{name}: {count} post{'s' if count != 1 else ''}{mark}"))
