"""200 readers at once against ``pbp serve``'s application under a real uvicorn, on SQLite
and PostgreSQL: every answer a 200 (the pages wait their turn for the store's connection
pool, never time out on it)."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections import Counter

import httpx
import pytest
import uvicorn
from conftest import Web
from service_table import THREAD

from pbp.web.serve import KEEP_ALIVE_SECONDS

pytestmark = pytest.mark.slow

READERS = 200


async def _read_all(base: str, urls: list[str]) -> Counter[str]:
    limits = httpx.Limits(max_connections=READERS, max_keepalive_connections=READERS)
    async with httpx.AsyncClient(base_url=base, timeout=120, limits=limits) as client:

        async def reader() -> list[str]:
            codes = []
            for url in urls:
                try:
                    codes.append(str((await client.get(url)).status_code))
                except httpx.HTTPError as exc:
                    codes.append(type(exc).__name__)
            return codes

        results = await asyncio.gather(*(reader() for _ in range(READERS)))
    return Counter(code for codes in results for code in codes)


def test_two_hundred_readers_at_once_get_their_pages(web: Web) -> None:
    t = web.table
    t.post("gm_sam", "Goblins!\n!group Aria, Bram, Goblin", 1)
    t.poll(2)
    for n in range(3):
        t.post("alice", "[physical: attack Goblin]", 10 + 3 * n)
        t.post("gm_sam", "!close", 11 + 3 * n)
        t.poll(12 + 3 * n)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = uvicorn.Config(web.app, host="127.0.0.1", port=port, log_level="warning",
                            backlog=2048, timeout_keep_alive=KEEP_ALIVE_SECONDS)  # fmt: skip
    server = uvicorn.Server(config)
    runner = threading.Thread(target=server.run, daemon=True)
    runner.start()
    try:
        for _ in range(200):
            if server.started:
                break
            time.sleep(0.05)
        urls = [
            f"/thread/{THREAD}",
            f"/thread/{THREAD}/rounds",
            f"/sheet?thread={THREAD}&name=Aria",
        ]
        codes = asyncio.run(_read_all(f"http://127.0.0.1:{port}", urls))
    finally:
        server.should_exit = True
        runner.join(timeout=20)
    assert codes == Counter({"200": READERS * len(urls)})
