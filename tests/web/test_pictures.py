"""The scenes' pictures, drawn as SVG on the server, read back as SVG: a Distat scene's groups,
a Markhorspire turn order with HP/WP bars, an Epic Path task's chance to finish. Their values
are the scene's own (the GM's status table, the summary's outlook line); under hide-npcs the
Ogre's numbers are neither written nor drawn for players, and are for its GM."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import Web
from service_table import THREAD, Table
from starlette.testclient import TestClient
from test_hide_npcs_everywhere import CAMPAIGN

NS = {"s": "http://www.w3.org/2000/svg"}
BLUE, RED = "#2f6db3", "#b33a2f"


class Pictured:
    """A hide-npcs thread (Aria, Bram, the Ogre) and a player's and a GM's browser on it."""

    def __init__(self, folder: Path) -> None:
        self.table = Table(folder, campaign=CAMPAIGN.format(visibility="hide-npcs"), ack="all")
        self.web = Web(self.table)
        self.player = self.web.sign_in("bob", self.web.new_client())
        self.gm = self.web.sign_in("gm_sam", self.web.new_client())
        self.minute = 0

    def say(self, *posts: tuple[str, str]) -> None:
        """Each (author, body) posted, then a poll."""
        for author, body in posts:
            self.minute += 1
            self.table.post(author, body, self.minute)
        self.minute += 1
        self.table.poll(self.minute)

    def page(self, client: TestClient, url: str = f"/thread/{THREAD}") -> str:
        answer = client.get(url)
        assert answer.status_code == 200
        return answer.text


@pytest.fixture
def pictured(tmp_path: Path) -> Iterator[Pictured]:
    made = Pictured(tmp_path)
    try:
        yield made
    finally:
        made.table.store.dispose()


def svg(html: str, label: str) -> ET.Element | None:
    """The page's picture labelled ``label``, parsed (None: the page has none)."""
    found = re.search(rf'<svg [^>]*aria-label="{label}">.*?</svg>', html, re.DOTALL)
    return None if found is None else ET.fromstring(found.group(0))


def _texts(element: ET.Element) -> list[str]:
    return [t.text or "" for t in element.findall("s:text", NS)]


def groups(html: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """Each group's label and its members' (text, dot colour)."""
    picture = svg(html, "Who stands with whom")
    assert picture is not None, html
    out = []
    for g in picture.findall("s:g", NS):
        label, *members = _texts(g)
        dots = [c.get("fill", "") for c in g.findall("s:circle", NS)]
        out.append((label, list(zip(members, dots, strict=True))))
    return out


def fighters(html: str) -> list[tuple[str, list[str], list[float]]]:
    """Each place of the turn order: its text, its two pool numbers as written, and the
    widths of the bars drawn over their grey tracks."""
    picture = svg(html, "Turn order with HP and WP")
    assert picture is not None, html
    out = []
    for g in picture.findall("s:g", NS):
        name, *values = _texts(g)
        rects = g.findall("s:rect", NS)
        tracks = [r for r in rects if r.get("fill") == "#e6e6e6" and r.get("width") == "150"]
        assert len(tracks) == 2  # HP's and WP's, each drawn
        drawn = [float(r.get("width", "0")) for r in rects if r not in tracks]
        out.append((name, values, drawn))
    return out


def status_pools(html: str) -> dict[str, tuple[str, str]]:
    """HP and WP of each row of the GM's full status table on the thread page."""
    status = html.split("Full status (GM)", 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr>\s*(.*?)</tr>", status, re.DOTALL)
    head = re.findall(r"<th[^>]*>(.*?)</th>", rows[0])
    hp, wp = head.index("Skirmish HP"), head.index("Skirmish WP")
    cells = [re.findall(r"<td[^>]*>(.*?)</td>", r) for r in rows[1:]]
    return {c[0]: (c[hp], c[wp]) for c in cells}


def test_a_distat_scene_is_drawn_as_who_stands_with_whom(pictured: Pictured) -> None:
    pictured.say(("gm_sam", "!group Aria, Ogre\n!group Bram"))
    expected = [
        ("Aria · Ogre", [("Aria · party", BLUE), ("Ogre · foes", RED)]),
        ("Bram, alone", [("Bram · party", BLUE)]),
    ]
    assert groups(pictured.page(pictured.player)) == expected
    assert groups(pictured.page(pictured.gm)) == expected
    pictured.say(("gm_sam", "!group Aria, Bram, Ogre"))
    assert groups(pictured.page(pictured.player)) == [
        ("Aria · Bram · Ogre", [("Aria · party", BLUE), ("Bram · party", BLUE),
                                ("Ogre · foes", RED)]),
    ]  # fmt: skip


def test_a_markhorspire_turn_order_has_the_statuss_pools_and_hides_the_npcs(
    pictured: Pictured,
) -> None:
    pictured.say(("gm_sam", "!group Aria, Ogre\n!group Bram"), ("gm_sam", "!encounter skirmish"))
    pictured.say(("alice", "[attack: Ogre]"), ("gm_sam", "[attack: Aria | as Ogre]"))
    pictured.say(("gm_sam", "!close"))
    gm_page = pictured.page(pictured.gm)
    pools = status_pools(gm_page)
    assert set(pools) == {"Aria", "Bram", "Ogre"} and "?" not in pools["Ogre"]
    order = re.search(r"Turn order: (.*?)\.</p>", gm_page)
    assert order is not None
    names = order.group(1).split(" → ")

    seen = fighters(gm_page)
    assert [n for n, _, _ in seen] == [f"{i}. {name}" for i, name in enumerate(names, 1)]
    top_hp = max(int(pools[n][0]) for n in names)
    top_wp = max(int(pools[n][1]) for n in names)
    for (_, values, drawn), name in zip(seen, names, strict=True):
        hp, wp = pools[name]
        assert values == [hp, wp]
        assert drawn == [round(150 * int(hp) / top_hp, 1), round(150 * int(wp) / top_wp, 1)]

    shown = fighters(pictured.page(pictured.player))
    assert [n for n, _, _ in shown] == [n for n, _, _ in seen]  # the same order
    pcs = [n for n in names if n != "Ogre"]
    top_hp = max(int(pools[n][0]) for n in pcs)  # the scale is the players' own numbers'
    top_wp = max(int(pools[n][1]) for n in pcs)
    for (_, values, drawn), name in zip(shown, names, strict=True):
        if name == "Ogre":
            assert values == ["?", "?"] and drawn == []  # neither written nor drawn
        else:
            hp, wp = pools[name]
            assert values == [hp, wp]
            assert drawn == [round(150 * int(hp) / top_hp, 1), round(150 * int(wp) / top_wp, 1)]


def outlook(html: str) -> dict[str, list[tuple[int, str, float]]]:
    """Each line of the chance-to-finish chart: (intervals, label, height above 0%)."""
    picture = svg(html, "Chance to finish")
    assert picture is not None, html
    out = {}
    for g in picture.findall("s:g", NS):
        dots = g.findall("s:circle", NS)
        labels = [t for t in _texts(g) if t.endswith("%")]
        out[f"{g.get('data-character')} on {g.get('data-task')}"] = [
            (int(d.get("data-intervals", "0")), label, round((120 - float(d.get("cy", "0"))) / 1.1))
            for d, label in zip(dots, labels, strict=True)
        ]
    return out


def test_an_epic_path_chart_draws_the_summarys_chances_and_not_the_npcs(
    pictured: Pictured,
) -> None:
    pictured.say(("gm_sam", "!encounter abstract interval 1 hour\n!task Vault dc 47 secret\n"
                            "!task Wall dc 30"))  # fmt: skip
    pictured.say(("alice", "[abstract: Athletics on Wall]"),
                 ("gm_sam", "[abstract: Athletics on Wall | as Ogre]"))  # fmt: skip
    pictured.say(("gm_sam", "!close"))
    history = pictured.page(pictured.player, f"/thread/{THREAD}/rounds")
    line = re.search(r"<li>Aria on Wall \(bank \d+\): (.*?)</li>", history)
    assert line is not None, history
    said = [
        (int(n), pct.replace("&lt;", "<").replace("&gt;", ">"))
        for pct, n in re.findall(r"(\S+%) within (\d+) interval", line.group(1))
    ]
    assert len(said) >= 2
    assert "Ogre on Wall" not in history  # the summary tells players nothing of the Ogre's

    drawn = outlook(pictured.page(pictured.player))
    assert list(drawn) == ["Aria on Wall"]  # no line for the Ogre
    assert [(n, label) for n, label, _ in drawn["Aria on Wall"]] == said
    for _, label, height in drawn["Aria on Wall"]:
        value = float(label.strip("<>%"))
        assert abs(height - value) <= 1  # each point as high as its chance

    for_gm = outlook(pictured.page(pictured.gm))
    assert set(for_gm) == {"Aria on Wall", "Ogre on Wall"}  # the GM's picture has the Ogre's
    assert for_gm["Aria on Wall"] == drawn["Aria on Wall"]
