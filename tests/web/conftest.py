"""The web pages' fixtures: a thread played by the real bot on the local forum (the service
tests' ``Table``), on SQLite and on PostgreSQL, and ``pbp serve``'s application over the same
store, driven by Starlette's TestClient. The web's bot is its own (a separate process's)."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "services"))

from service_table import BOT, THREAD, Table
from starlette.testclient import TestClient

from pbp.services.bot import Bot, BotOptions, WatchedThread
from pbp.store.accounts import Accounts
from pbp.web.app import Site, create_app
from pbp.web.reader import Reader
from pbp.web.security import Signer, hash_password

BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgresql", id="postgresql", marks=pytest.mark.postgres),
]
PASSWORD = "correct horse battery"


class Web:
    """A played table and the web application over its store."""

    def __init__(self, table: Table, *, https: bool = False) -> None:
        self.table = table
        self.accounts = Accounts(table.store)
        for name, gm in (("alice", False), ("bob", False), ("gm_sam", False), ("root", True)):
            self.accounts.add(name, password_hash=hash_password(PASSWORD), gm=gm, at=table.clock())
        self.bot = Bot(
            store=table.store,
            forum=table.forum,
            threads=[WatchedThread(key=THREAD, campaign=table.campaign)],
            options=BotOptions(username=BOT, ack=table.ack, owner="web"),
        )
        self.site = Site(
            reader=Reader(self.bot),
            accounts=self.accounts,
            signer=Signer(self.accounts.signing_key(at=table.clock())),
            clock=table.clock,
            config_hint="--config config.toml",
        )
        self.app = create_app(self.site)
        base = "https://testserver" if https else "http://testserver"
        self.client = TestClient(self.app, base_url=base, follow_redirects=False)

    def new_client(self) -> TestClient:
        return TestClient(self.app, base_url=str(self.client.base_url), follow_redirects=False)

    def csrf(self, client: TestClient | None = None, url: str = "/login") -> str:
        page = (client or self.client).get(url)
        found = re.search(r'name="csrf" value="([^"]+)"', page.text)
        assert found, page.text
        return found.group(1)

    def sign_in(self, name: str, client: TestClient | None = None) -> TestClient:
        client = client or self.client
        answer = client.post(
            "/login", data={"name": name, "password": PASSWORD, "csrf": self.csrf(client)}
        )
        assert answer.status_code == 303, answer.text
        return client


def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'pbp.db'}"
    database = request.getfixturevalue("postgres_database")
    database.reset()
    return str(database.url)


@pytest.fixture(params=BACKENDS)
def web(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Web]:
    table = Table(tmp_path, ack="all", url=store_url(request, tmp_path))
    try:
        yield Web(table)
    finally:
        table.store.dispose()
