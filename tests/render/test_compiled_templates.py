"""pbp's own templates are compiled once for every process (kept on disk, compiled again when
their source changes); a campaign's templates are compiled in each process and leave nothing
behind; a cache that cannot be read or written costs a compile, never a reply."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jinja2
import pytest

from pbp.render.environment import _CompiledTemplates, builtin_templates_dir, make_environment

BUILT_IN = "ack.md.j2"
ACK = {"actions": ["attack Goblin"], "closed": False}


def _cached(env: jinja2.Environment, cache: _CompiledTemplates) -> jinja2.Environment:
    env.bytecode_cache = cache
    return env


def _compiling_nothing(env: jinja2.Environment, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Names ``env`` compiled (``compile`` is only reached when the cache had no code)."""
    compiled: list[str] = []
    compile_ = env.compile

    def counting(source: str, name: str | None = None, *args: Any, **kwargs: Any) -> Any:
        compiled.append(str(name))
        return compile_(source, name, *args, **kwargs)

    monkeypatch.setattr(env, "compile", counting)
    return compiled


def _cache(folder: Path, fixed: Path | None = None) -> _CompiledTemplates:
    return _CompiledTemplates((str(fixed or builtin_templates_dir()),), directory=str(folder))


def test_a_new_process_takes_pbp_s_own_templates_compiled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = _cache(tmp_path)
    first = _cached(make_environment(), cache)
    compiled_first = _compiling_nothing(first, monkeypatch)
    first.get_template(BUILT_IN)
    assert compiled_first == [BUILT_IN]
    assert len(list(tmp_path.iterdir())) == 1  # kept
    later = _cached(make_environment(), _cache(tmp_path))  # (as a new process makes it)
    compiled_later = _compiling_nothing(later, monkeypatch)
    template = later.get_template(BUILT_IN)
    assert compiled_later == []
    assert template.render(**ACK) == first.get_template(BUILT_IN).render(**ACK)


def test_a_campaign_s_templates_are_compiled_in_each_process_and_leave_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    campaign, kept = tmp_path / "campaign", tmp_path / "kept"
    campaign.mkdir()
    kept.mkdir()
    (campaign / BUILT_IN).write_text("the GM's", encoding="utf-8")
    for _ in range(2):
        env = _cached(make_environment(campaign), _cache(kept))
        compiled = _compiling_nothing(env, monkeypatch)
        assert env.get_template(BUILT_IN).render(**ACK) == "the GM's"
        assert compiled == [BUILT_IN]
    assert list(kept.iterdir()) == []


def test_a_template_whose_source_changed_is_compiled_again(tmp_path: Path) -> None:
    fixed, kept = tmp_path / "fixed", tmp_path / "kept"
    fixed.mkdir()
    kept.mkdir()
    (fixed / "t.md.j2").write_text("one", encoding="utf-8")

    def rendered() -> str:
        env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(fixed)), bytecode_cache=_cache(kept, fixed)
        )
        return env.get_template("t.md.j2").render()

    assert rendered() == "one"
    assert rendered() == "one"  # from the cache
    (fixed / "t.md.j2").write_text("two", encoding="utf-8")
    assert rendered() == "two"


def test_a_cache_file_that_cannot_be_read_is_passed_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _cached(make_environment(), _cache(tmp_path)).get_template(BUILT_IN)
    for kept in tmp_path.iterdir():
        kept.write_bytes(kept.read_bytes()[:40])  # cut short, after Jinja's magic header
    env = _cached(make_environment(), _cache(tmp_path))
    compiled = _compiling_nothing(env, monkeypatch)
    assert env.get_template(BUILT_IN).render(**ACK) == make_environment().get_template(
        BUILT_IN
    ).render(**ACK)
    assert compiled == [BUILT_IN]


def test_a_cache_folder_that_cannot_be_written_is_passed_over(tmp_path: Path) -> None:
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("", encoding="utf-8")
    env = _cached(make_environment(), _cache(not_a_folder))
    assert env.get_template(BUILT_IN).render(**ACK) == make_environment().get_template(
        BUILT_IN
    ).render(**ACK)
