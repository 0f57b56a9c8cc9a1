"""`pbp parse`: show what the bot reads in a post, and the replies its problems would get."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import click

from pbp.cli.printable import for_terminal
from pbp.cli.shell import text_argument
from pbp.errors import PbpError
from pbp.tags import ParsedPost, ReadContext, format_tag, parse_post
from pbp.tags.commands import Command
from pbp.tags.model import SceneKind
from pbp.tags.registry import MEANINGS, Tag


def describe_tag(tag: Tag) -> str:
    """One line: the canonical tag, where it stood and what it means."""
    where = f"line {tag.source.line}, column {tag.source.column}"
    actor = f"; acting as {tag.as_name}" if tag.as_name else ""
    return f"{format_tag(tag)}  ({where}) {MEANINGS[type(tag)]}{actor}"


def describe_command(command: Command) -> str:
    """One line: the command as written and the values read from it."""
    values = ", ".join(
        f"{field.name}={getattr(command, field.name)!r}"
        for field in dataclasses.fields(command)
        if field.name != "source"
    )
    name = type(command).__name__.removesuffix("Command").lower()
    return f"{command.source.text}  (line {command.source.line}) {name} {values}".rstrip()


def report(parsed: ParsedPost, *, templates: Path | None) -> str:
    """The whole report: tags, commands, and the problem reply as the bot would post it."""
    lines = [f"Tags ({len(parsed.tags)}):", *(f"  {describe_tag(t)}" for t in parsed.tags)]
    lines += [f"Commands ({len(parsed.commands)}):"]
    lines += [f"  {describe_command(c)}" for c in parsed.commands]
    lines += [f"Problems ({len(parsed.problems)}):"]
    if parsed.problems:
        # the templates (Jinja2) are loaded only when there is a reply to show
        from pbp.render.environment import make_environment
        from pbp.render.problems import render_problem_reply

        lines += ["", render_problem_reply(parsed.problems, env=make_environment(templates))]
    return "\n".join(lines).rstrip() + "\n"


@click.command("parse")
@click.argument("text", required=False, default="-")
@click.option(
    "--campaign",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Match names against this campaign's characters and talents.",
)
@click.option(
    "--scene",
    type=click.Choice([kind.value for kind in SceneKind]),
    default=None,
    help="The scene the post is read in (default: the campaign's ruleset, or distat).",
)
@click.option("--gm", is_flag=True, help="Read the post as a GM's (commands, 100 tags).")
@click.option("--feature", "features", multiple=True, help="A feature of the scene (repeatable).")
@click.option("--task", "tasks", multiple=True, help="An abstract task of the scene (repeatable).")
def parse(
    text: str, campaign: Path | None, scene: str | None, gm: bool,
    features: tuple[str, ...], tasks: tuple[str, ...],
) -> None:  # fmt: skip
    """Show what the bot reads in a post: TEXT, or the standard input with - (the default).

    Prints each tag in its canonical form and what it means, each command, and the reply the
    problems would get. Exit 0: nothing wrong; 1: problems found; 2: usage.
    """
    body = text_argument(text, what="the post")
    context = ReadContext(features=features, tasks=tasks, gm=gm)
    templates: Path | None = None
    if campaign is not None:
        from pbp.engine.registry import ROSTER
        from pbp.services.files import load_campaign

        try:
            loaded = load_campaign(campaign)
        except PbpError as error:
            raise click.BadParameter(str(error), param_hint="--campaign") from error
        names = tuple(sheet.name for sheet in loaded.characters)
        # the talents a thread of this campaign starts with, as the bot reads its posts
        talents = ROSTER.start(loaded).talent_names()
        context = dataclasses.replace(
            context, characters=names, talents=talents, scene=loaded.ruleset
        )
        templates = Path(loaded.templates) if loaded.templates else None
    if campaign is not None and templates is not None:
        from pbp.services.files import template_errors

        broken = template_errors(loaded)  # a reply would fail on them
        if broken:
            raise click.BadParameter(str(broken[0]), param_hint="--campaign")
    if scene is not None:
        context = dataclasses.replace(context, scene=SceneKind(scene))
    parsed = parse_post(body, context=context)
    # the post and the campaign's names are other people's text: no control character
    click.echo(for_terminal(report(parsed, templates=templates)), nl=False)
    sys.exit(1 if parsed.problems else 0)
