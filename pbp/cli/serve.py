"""`pbp serve`: the campaigns in the browser; `pbp serve link GM`: a GM's sign-in link."""

from __future__ import annotations

from pathlib import Path

import click

from pbp.cli.printable import for_terminal
from pbp.cli.shell import config_option, fail, load
from pbp.errors import PbpError


@click.group("serve", invoke_without_command=True)
@config_option
@click.option(
    "--host", default=None, help="The address to listen on (else [serve] host, else 127.0.0.1)."
)
@click.option(
    "--port",
    type=click.IntRange(1, 65535),
    default=None,
    help="The port to listen on (else [serve] port, else 8080).",
)
@click.pass_context
def serve(ctx: click.Context, config_path: Path, host: str | None, port: int | None) -> None:
    """Serve the campaigns as web pages, over the bot's database.

    Everyone reads the threads, their open rounds, closed rounds (each seal checked) and
    sheets; on the local forum, users of `pbp user add` sign in and write, and the bot
    (`pbp run`, beside it) answers at its next poll. GMs sign in with an account or a link of
    `pbp serve link GM`. The [serve] section of the config sets host, port, base_url and
    forwarded_allow_ips; /health answers "ok" for a process manager.
    """
    if ctx.invoked_subcommand is not None:
        ctx.obj = config_path
        return
    config = load(config_path, command="serve")
    from pbp.web.serve import serve as run

    where_host = host or config.serve.host
    where_port = port or config.serve.port
    click.echo(for_terminal(f"pbp serve: http://{where_host}:{where_port}/ (Ctrl-C stops)"))
    try:
        run(config, host=where_host, port=where_port)
    except PbpError as exc:
        fail("serve", str(exc))


@serve.command("link")
@config_option
@click.option(
    "--base-url", default=None, help="Where people reach pbp serve (else [serve] base_url)."
)
@click.argument("gm")
@click.pass_context
def link(ctx: click.Context, config_path: Path, gm: str, base_url: str | None) -> None:
    """Print a one-time sign-in URL for GM (it works once, within the hour).

    GM is a name a campaign of the config lists among its gms (anyone else is refused):
    signed in through it, the pages show what that GM sees (every number under hide-npcs,
    the secret DCs, the private messages, !preview). Give it to the GM privately: whoever
    opens it first within the hour is signed in as GM.
    """
    if ctx.get_parameter_source("config_path") is click.core.ParameterSource.DEFAULT:
        config_path = ctx.obj or config_path  # `pbp serve --config FILE link GM`
    config = load(config_path, command="serve link")
    from pbp.web.serve import gm_link

    try:
        click.echo(gm_link(config, gm.strip().removeprefix("u/"), base_url=base_url))
    except PbpError as exc:
        fail("serve link", str(exc))
