"""The web application made from the bot's configuration, and uvicorn serving it."""

from __future__ import annotations

from pbp.bootstrap import make_bot, open_store, utc_now
from pbp.config import Config
from pbp.store.accounts import Accounts
from pbp.web.app import Site, create_app
from pbp.web.reader import Reader
from pbp.web.security import Signer


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


def gm_link(config: Config, gm: str, *, base_url: str | None = None) -> str:
    """A signed one-time sign-in URL for ``gm`` (valid for an hour)."""
    accounts = Accounts(open_store(config))
    signer = Signer(accounts.signing_key(at=utc_now()))
    base = base_url or config.serve.base_url or f"http://{config.serve.host}:{config.serve.port}"
    return f"{base.rstrip('/')}/link?token={signer.link(gm)}"


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
    )
