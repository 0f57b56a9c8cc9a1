"""No module of pbp imports, through any chain, a module that imports it: not at run time,
and not for type checking either (a cycle of annotations is a cycle of meaning all the same:
neither module can be read, or moved, without the other)."""

from __future__ import annotations

from pathlib import Path

import grimp
import pytest


def test_no_module_of_pbp_is_part_of_an_import_cycle() -> None:
    graph = grimp.build_graph("pbp")  # type-checking imports included
    cycles = sorted(
        (module, imported)
        for module in graph.modules
        for imported in graph.find_modules_directly_imported_by(module)
        if graph.chain_exists(importer=imported, imported=module)
    )
    assert not cycles, f"imports that close a cycle: {cycles}"


def test_the_check_finds_a_cycle_when_there_is_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "loop"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from loop import b\n"
    )
    (package / "b.py").write_text("from loop import a\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    graph = grimp.build_graph("loop")
    assert graph.chain_exists(importer="loop.a", imported="loop.b")
    assert graph.chain_exists(importer="loop.b", imported="loop.a")
