"""`pbp thread show` and `pbp export` never print a control character to the terminal."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from pbp.cli.printable import for_terminal, json_for_terminal

CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # all of C0 but tab and newline, DEL, C1


def test_controls_and_ansi_escapes_show_as_visible_escapes() -> None:
    text = "red \x1b[31mtext\x1b[0m\tand\nmore\r\x07 bell \x9b2J csi \x7f"
    shown = for_terminal(text)
    assert not CONTROL.search(shown)
    assert shown == ("red \\x1b[31mtext\\x1b[0m\tand\nmore\\x0d\\x07 bell \\x9b2J csi \\x7f")
    plain = "plain text, ünïcödé and emoji 🎲\n"
    assert for_terminal(plain) == plain


def test_json_keeps_its_meaning_without_raw_controls() -> None:
    data = {"post": "a \x9b2J b \x1b[0m"}
    text = json_for_terminal(json.dumps(data, ensure_ascii=False))
    assert not CONTROL.search(text)
    assert json.loads(text) == data


@pytest.mark.slow
def test_thread_show_and_export_print_no_control_characters(
    site: Path, pbp_ok: Callable[..., str]
) -> None:
    campaign = site / "sunken-keep.toml"
    text = campaign.read_text(encoding="utf-8")
    # a campaign name with an ANSI "clear screen": the bot echoes it in what it writes
    campaign.write_text(
        re.sub(r'(?m)^name = "([^"]*)"', r'name = "\1\\u001b[2J"', text, count=1), encoding="utf-8"
    )
    pbp_ok(
        site,
        "post",
        "--thread",
        "keep-1",
        "--as",
        "alice",
        "Aria \x9b31mglows\x7f. [physical: attack Goblin]",
    )
    pbp_ok(site, "post", "--thread", "keep-1", "--as", "gm_sam", "!close")
    pbp_ok(site, "poll", "--once")
    pbp_ok(site, "poll", "--once")
    outputs = {
        "show": pbp_ok(site, "thread", "show", "keep-1"),
        "list": pbp_ok(site, "thread", "list"),
        "md": pbp_ok(site, "export", "keep-1", "--md"),
        "json": pbp_ok(site, "export", "keep-1", "--json"),
    }
    for name, output in outputs.items():
        assert not CONTROL.search(output), (name, CONTROL.findall(output))
    assert "Aria \\x9b31mglows\\x7f." in outputs["show"]
    assert "\\x1b[2J" in outputs["md"]  # the campaign's name, in the transcript's heading
    assert json.loads(outputs["json"])["campaign"].endswith("\x1b[2J")
