"""A round played end to end in a real browser: the distribution's Chromium driven by
Playwright, against ``pbp serve``'s application under a real uvicorn, on the local forum, with
the bot's poll (``Bot.poll_once``, what ``pbp poll --once`` runs) between the steps.

alice signs in, posts a tag with a typo, sees the bot's problem reply after a poll and fixes
it with an edit; the GM signs in and closes; the summary shows rendered, the sheet and the
scene picture have changed. Then a phone-sized viewport: no horizontal scroll on the thread
and sheet pages. Each page's screenshot is kept under ``test-artifacts/browser/`` and checked
to be more than one colour."""

from __future__ import annotations

import shutil
import socket
import struct
import threading
import time
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import PASSWORD, Web
from service_table import THREAD, Table

pytestmark = pytest.mark.slow

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "browser"


def colours(png: bytes) -> int:
    """How many different byte values a PNG's pixel rows hold (one for a blank picture, its
    row filters aside)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    at, data = 8, b""
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kind = png[at + 4 : at + 8]
        if kind == b"IDAT":
            data += png[at + 8 : at + 8 + length]
        at += 12 + length
    return len(set(zlib.decompress(data)))


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Web, str]]:
    if CHROMIUM is None:
        pytest.skip("no Chromium on this machine: apt-get install chromium (.ci/run does)")
    import uvicorn

    web = Web(Table(tmp_path, ack="errors"))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(web.app, host="127.0.0.1", port=port, log_level="warning")
    )
    runner = threading.Thread(target=server.run, daemon=True)
    runner.start()
    for _ in range(100):
        if server.started:
            break
        time.sleep(0.05)
    try:
        yield web, f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        runner.join(timeout=10)
        web.table.store.dispose()


def test_a_round_played_in_the_browser(served: tuple[Web, str]) -> None:
    from playwright.sync_api import sync_playwright

    web, base = served
    table = web.table
    table.post("gm_sam", "Goblins!\n!group Aria, Bram, Goblin", 1)
    table.poll(2)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    shots: list[Path] = []

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        # what the Content-Security-Policy blocks (an inline style or script) says so here
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)

        def shot(name: str) -> None:
            path = ARTIFACTS / f"{name}.png"
            page.screenshot(path=str(path), full_page=True)
            shots.append(path)

        def sign_in(name: str) -> None:
            page.goto(f"{base}/login")
            page.fill("input[name=name]", name)
            page.fill("input[name=password]", PASSWORD)
            page.click("button[type=submit] >> text=Sign in")
            page.wait_for_url(f"{base}/")

        sign_in("alice")
        page.goto(f"{base}/thread/{THREAD}")
        sheet_before = page.request.get(f"{base}/sheet?thread={THREAD}&name=Goblin").text()
        assert "Aria · Bram · Goblin" in page.content()
        page.fill("textarea[name=body]", "Aria charges. [phisical: attack Goblin]")
        page.click('form[action="/post"] button')
        page.wait_for_load_state()
        table.post("bob", "Bram steps back. [move: away]", 4)
        table.poll(5)
        page.reload()
        assert "Did you mean" in page.inner_text("article.post:has-text('phisical')")
        shot("thread-problem")
        page.click("article.post:has-text('phisical') >> text=Edit")
        page.fill("textarea[name=body]", "Aria charges. [physical: attack Goblin]")
        page.click("text=Save")
        page.wait_for_load_state()
        table.poll(7)
        page.reload()
        assert "Acted: Aria, Bram" in page.inner_text("section.open-round")
        page.click("text=Sign out")
        page.wait_for_load_state()

        sign_in("gm_sam")
        page.goto(f"{base}/thread/{THREAD}")
        assert "Full status (GM)" in page.content()
        page.fill("textarea[name=body]", "!close")
        page.click('form[action="/post"] button')
        page.wait_for_load_state()
        table.poll(9)
        page.goto(f"{base}/thread/{THREAD}/rounds")
        assert page.inner_text("article.summary h2") == "Round 1: results"
        assert page.locator("article.summary table").count() >= 1
        assert "The seal matches the seed." in page.content()
        shot("history")
        page.goto(f"{base}/thread/{THREAD}")
        assert "Bram, alone" in page.content() and "<h2>Round 2</h2>" in page.content()
        shot("thread-after-close")
        page.goto(f"{base}/sheet?thread={THREAD}&name=Goblin")
        sheet_after = page.content()
        assert page.inner_text("h1").startswith("Goblin")
        assert sheet_after != sheet_before and "Goblin" in sheet_after
        shot("sheet")

        phone = browser.new_page(viewport={"width": 390, "height": 844})
        for name, url in (
            ("phone-thread", f"/thread/{THREAD}"),
            ("phone-sheet", f"/sheet?thread={THREAD}&name=Aria"),
            ("phone-history", f"/thread/{THREAD}/rounds"),
        ):
            phone.goto(base + url)
            wide = phone.evaluate("document.documentElement.scrollWidth")
            seen = phone.evaluate("window.innerWidth")
            assert wide <= seen, (url, wide, seen)
            path = ARTIFACTS / f"{name}.png"
            phone.screenshot(path=str(path), full_page=True)
            shots.append(path)
        browser.close()
    assert errors == []
    for path in shots:
        assert colours(path.read_bytes()) > 8, path
