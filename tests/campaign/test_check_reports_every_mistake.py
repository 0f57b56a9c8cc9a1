"""Issue 26 item 18: `pbp check` reports every mistake of a broken campaign in one run, not
in waves (bonus_pool and level first, `kind` once those are fixed, `effect` after that)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from pbp.cli import app

BROKEN = """\
[campaign]
name = "Broken"
gms = ["gm_sam"]

[[characters]]
name = "Aria"
player = "alice"
body = 5
mind = 3
bonus_pool = "lots"

[[characters.talents]]
name = "Quick"
stat = "body"
level = "high"
kind = "sometimes"
effect = "explode"

[[characters]]
name = "Bram"
player = "bob"
body = 3
mind = 4

[[characters.talents]]
name = "Sly"
stat = "mind"
level = 5
kind = "passive"
effect = "attack"
"""


def test_check_reports_every_mistake_in_one_run(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text(BROKEN, encoding="utf-8")
    result = CliRunner().invoke(app, ["check", str(path)])
    assert result.exit_code == 1
    said = result.output
    for where, what in [
        (".bonus_pool (line 10)", "bonus_pool is a string"),
        ('"Quick" .level (line 15)', "level is a string"),
        ('"Quick" .kind (line 16)', 'kind = "sometimes" is not known'),
        ('"Quick" .effect (line 17)', 'effect = "explode" is not known'),
        ('"Sly" .level (line 28)', "level 5 needs 10 points in mind, the sheet has 4"),
        ('"Sly" .effect (line 30)', 'a passive talent cannot have effect = "attack"'),
    ]:
        assert f"{where}: {what}" in said, (where, said)
    assert said.count("error: ") == 6
