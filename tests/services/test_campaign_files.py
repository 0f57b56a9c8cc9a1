"""The campaign files a bot runs: read again when they change, whatever the change."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from pbp.errors import ConfigError
from pbp.services.campaign_files import SETTLED_NS, CampaignFiles

SHEET = """
[campaign]
name = "{name}"
gms = ["gm"]
[[characters]]
name = "Aria"
player = "alice"
body = 60
mind = 30
"""


def _write(path: Path, name: str, *, ago_s: float = 0.0) -> None:
    path.write_text(SHEET.format(name=name))
    if ago_s:
        at = time.time_ns() - int(ago_s * 1e9)
        os.utime(path, ns=(at, at))


def test_a_settled_file_is_kept_until_it_changes(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    _write(path, "Keep", ago_s=10)
    files = CampaignFiles({}, [])
    first = files.load(path)
    assert files.load(path) is first  # unchanged: the same load

    _write(path, "Lost")  # the same size, other bytes, changed now
    again = files.load(path)
    assert again.campaign.name == "Lost" and again.file_hash != first.file_hash


def test_a_file_changed_just_now_is_read_at_every_look(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    _write(path, "Keep")
    files = CampaignFiles({}, [])
    assert files.load(path).campaign.name == "Keep"
    # changed again within the same moment, and given back the timestamps it had: a file this
    # fresh is read again at each look
    stamp = path.stat()
    _write(path, "Lost")
    os.utime(path, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    assert time.time_ns() - stamp.st_mtime_ns < SETTLED_NS
    assert files.load(path).campaign.name == "Lost"


def test_a_file_gone_no_longer_loads(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    _write(path, "Keep", ago_s=10)
    files = CampaignFiles({}, [])
    files.load(path)
    path.unlink()
    with pytest.raises(ConfigError):
        files.load(path)
    kept = files.last_good(path)
    assert kept is not None and kept.name == "Keep"
