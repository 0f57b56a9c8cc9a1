"""The web application made from the bot's configuration, and uvicorn serving it."""

from __future__ import annotations

from pbp.bootstrap import make_bot, open_store, utc_now
from pbp.config import Config
from pbp.errors import InputError
from pbp.store.accounts import Accounts
from pbp.web.app import Site, create_app
from pbp.web.reader import Reader
from pbp.web.security import Signer

# an idle connection is kept longer than a reverse proxy keeps its own (nginx: 60 s), so the
# server never closes one just as a request is sent on it (a reader's error, a proxy's 502)
KEEP_ALIVE_SECONDS = 75


def build_site(config: Config) -> Site:
    """The pages over the configured store and forum (the bot that reads them never polls)."""
    store = open_store(config)
    accounts = Accounts(store)
    return Site(
        reader=Reader(make_bot(config, store=store)),
        accounts=accounts,
        signer=Signer(accounts.signing_key(at=utc_now())),
        clock=utc_now,
        config_hint=f"--config {config.path}",
    )


def campaign_gms(config: Config) -> tuple[str, ...]:
    """The GMs every campaign file of the configuration names."""
    from pbp.services.files import load_campaign

    gms = (g for path in config.campaign_files for g in load_campaign(path).gms)
    return tuple(dict.fromkeys(gms))


def gm_link(config: Config, gm: str, *, base_url: str | None = None) -> str:
    """A signed one-time sign-in URL for ``gm`` (valid for an hour), a name some campaign of
    the configuration lists among its gms (anyone else: ``InputError``)."""
    gms = campaign_gms(config)
    named = next((g for g in gms if g.casefold() == gm.casefold()), None)
    if named is None:
        listed = ", ".join(gms) or "none"
        raise InputError(f"{gm!r} is not a GM of these campaigns (their gms: {listed})")
    accounts = Accounts(open_store(config))
    signer = Signer(accounts.signing_key(at=utc_now()))
    base = base_url or config.serve.base_url or f"http://{config.serve.host}:{config.serve.port}"
    return f"{base.rstrip('/')}/link?token={signer.link(named)}"


def serve(config: Config, *, host: str, port: int) -> None:
    """Serve the pages until stopped (Ctrl-C), behind ``forwarded_allow_ips``' proxies."""
    import uvicorn

    app = create_app(build_site(config))
    uvicorn.run(
        app,
        host=host,
        port=port,
        proxy_headers=True,
        forwarded_allow_ips=config.serve.forwarded_allow_ips,
        log_level="warning",
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
    )
