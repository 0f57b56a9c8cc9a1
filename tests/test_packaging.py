"""The wheel carries the built-in templates, and pbp finds them there (not in the checkout)."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import pbp

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]

# Run with the unzipped wheel first on the path and the working folder outside the checkout.
RENDER = """
import pbp
from pbp.render.environment import builtin_templates_dir, make_environment
template = make_environment().get_template("about.md.j2")
print(template.render(version=pbp.__version__))
print(template.filename)
print(builtin_templates_dir())
print(pbp.__file__)
from pbp.rulesets import plugins
for plugin in plugins():
    print(plugin.templates_folder, len(list(plugin.templates_folder.rglob("*.j2"))))
"""


def test_wheel_ships_templates_that_render_from_inside_the_package(tmp_path: Path) -> None:
    dist, site, elsewhere = tmp_path / "dist", tmp_path / "site", tmp_path / "elsewhere"
    elsewhere.mkdir()
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "--no-cache-dir", "-q", "-w", str(dist), str(ROOT)],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    (wheel,) = dist.glob("pbp-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    shipped = sorted(p.name for p in (site / "pbp" / "templates").glob("*.j2"))
    assert shipped == sorted(p.name for p in (ROOT / "templates").glob("*.j2"))

    env = {**os.environ, "PYTHONPATH": str(site)}
    result = subprocess.run(
        [sys.executable, "-c", RENDER],
        cwd=elsewhere, env=env, capture_output=True, text=True, check=True, timeout=60,
    )  # fmt: skip
    rendered, filename, folder, module, *rulesets = result.stdout.splitlines()
    assert rendered == f"pbp {pbp.__version__}"
    packaged = (site / "pbp").resolve()
    assert Path(module).resolve().is_relative_to(packaged)
    assert Path(folder).resolve() == packaged / "templates"
    assert Path(filename).resolve() == packaged / "templates" / "about.md.j2"
    # each ruleset's own templates are package data inside its package, shipped with it
    assert len(rulesets) >= 4
    for line in rulesets:
        where, count = line.rsplit(" ", 1)
        assert Path(where).resolve().is_relative_to(packaged / "rulesets")
        assert int(count) > 0
