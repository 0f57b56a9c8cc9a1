"""hide-npcs over every page a player can open (SPEC §4.5): the thread of
``tests/services/test_hide_npcs_everywhere.py`` played again through the real bot, Distat,
d20, an abstract encounter, a skirmish and a battle, and after every poll every page read as
anyone and as a signed-in player: the index, the thread (its posts, the bot's replies, the
scene's picture, the tags read), every history page, every character's sheet and every
round's text for ``pbp verify``. The same search for the Ogre's numbers finds none; the GM's
pages, searched alike, show them (so the forms searched are the forms the pages write)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from conftest import Web
from service_table import THREAD, Table
from starlette.testclient import TestClient
from test_hide_npcs_everywhere import CAMPAIGN, NPC, _npc_rows, numbers, play


class _Text(HTMLParser):
    """A page's text with the Markdown marks the scan's forms look for put back: table rows
    as ``| a | b |``, bold as ``**``, each block on its own line."""

    BLOCKS = frozenset({"p", "li", "h1", "h2", "h3", "div", "article", "section", "br",
                        "figcaption", "text", "tr", "pre", "blockquote", "summary"})  # fmt: skip

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "tr":
            self.out.append("\n|")
        elif tag in ("td", "th"):
            self.out.append(" ")
        elif tag == "strong":
            self.out.append("**")
        elif tag == "em":
            self.out.append("*")
        elif tag == "article":  # a reply or a post ends a !sheet block, as a reply's end does
            self.out.append("\n**\n")
        elif tag in self.BLOCKS:
            self.out.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th"):
            self.out.append(" |")
        elif tag == "strong":
            self.out.append("**")
        elif tag == "em":
            self.out.append("*")
        elif tag == "article":
            self.out.append("\n**\n")
        elif tag in self.BLOCKS:
            self.out.append("\n")

    def handle_data(self, data: str) -> None:
        self.out.append(data)


def page_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return re.sub(r"\n[ \t]*\n+", "\n\n", "".join(parser.out))


def _pages(client: TestClient) -> dict[str, str]:
    """Every page a reader of the thread can reach from its links, by URL."""
    found: dict[str, str] = {}
    todo = ["/", f"/thread/{THREAD}", f"/thread/{THREAD}/rounds"]
    while todo:
        url = todo.pop()
        if url in found:
            continue
        answer = client.get(url)
        if answer.status_code != 200:
            continue
        found[url] = answer.text if url.endswith(".txt") else page_text(answer.text)
        for link in re.findall(r'href="([^"#]+)"', answer.text):
            link = link.replace("&amp;", "&")
            if link.startswith("?"):
                link = url.split("?")[0] + link
            if link.startswith(("/thread/", "/sheet?")) and "/private" not in link:
                todo.append(link)
    return found


class ScanningTable(Table):
    """The service tests' table, every page read after every poll."""

    web: Web
    readers: tuple[TestClient, ...]
    gm: TestClient
    seen: dict[str, set[str]]
    pc_sheets: set[str]

    def poll(self, minute: float, bot: Any = None) -> Any:
        report = super().poll(minute, bot)
        if not hasattr(self, "web"):
            self.web = Web(self)
            self.readers = (self.web.new_client(), self.web.sign_in("bob", self.web.new_client()))
            self.gm = self.web.sign_in("gm_sam", self.web.new_client())
            self.seen = {"players": set(), "gm": set()}
            self.pc_sheets = set()
        for client in self.readers:
            for url, text in _pages(client).items():
                if url.startswith("/sheet?") and not url.endswith(f"name={NPC}"):
                    self.pc_sheets.add(text)
                else:
                    self.seen["players"].add(text)
        self.seen["gm"] |= set(_pages(self.gm).values())
        return report


@pytest.fixture(scope="module")
def scanned(tmp_path_factory: pytest.TempPathFactory) -> tuple[ScanningTable, dict[str, Any]]:
    folder: Path = tmp_path_factory.mktemp("pages")
    table = ScanningTable(folder, campaign=CAMPAIGN.format(visibility="hide-npcs"), ack="all")
    played = play(table)
    return table, played.ledger


def test_no_page_a_player_opens_holds_an_npc_number(
    scanned: tuple[ScanningTable, dict[str, Any]],
) -> None:
    table, ledger = scanned
    pages = table.seen["players"]
    leaks = [hit for fact in numbers(ledger).npc for hit in fact.hits(pages)]
    leaks += _npc_rows(pages)
    # a player character's own sheet shows its own numbers, some equal to the Ogre's (Aria's
    # Intuition 3, the Ogre's Stamina 3): there only the forms that name the Ogre are searched
    named = [f for f in numbers(ledger).npc if any(NPC in form for form in f.forms)]
    leaks += [hit for fact in named for hit in fact.hits(table.pc_sheets)]
    leaks += _npc_rows(table.pc_sheets)
    assert leaks == [], "\n".join(leaks)
    # the search saw every kind of page, in every scene
    for scene in ("distat", "d20", "abstract", "skirmish", "battle"):
        assert any(f"{scene}\n" in p or f"{scene} " in p for p in pages), scene
    assert any("Who stands with whom" in p for p in pages)
    assert any("Turn order, HP (red) and WP (blue)" in p for p in pages)
    assert any(f"\n{NPC}\n" in p and "(foes)" in p for p in pages)  # the Ogre's own sheet
    assert len(pages) >= 100 and len(table.pc_sheets) >= 10


def test_the_gms_pages_show_the_npcs_numbers(
    scanned: tuple[ScanningTable, dict[str, Any]],
) -> None:
    table, ledger = scanned
    pages = table.seen["gm"]
    shown = [fact for fact in numbers(ledger).npc if fact.hits(pages)]
    assert len(shown) >= 10  # its sheet's numbers, the full status, the private copies
    assert _npc_rows(pages)
