"""Templates compiled by one run are taken by the next from the user's cache folder, never
when their text, or the folder's owner, says they should not be; and nothing that goes wrong
with the folder does more than compile the template again."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import jinja2
import pytest

from pbp.render.environment import make_environment
from pbp.render.template_cache import cache_folder, template_cache


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PBP_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache" / "templates"


def _run(override: Path | None = None) -> tuple[jinja2.Environment, list[str]]:
    """A new run's environment (nothing compiled in memory) and the templates it compiles."""
    env = make_environment(override, reload=False)
    compiled: list[str] = []
    compile_source = env.compile

    def counted(source: Any, name: str | None = None, *args: Any, **kwargs: Any) -> Any:
        compiled.append(str(name))
        return compile_source(source, name, *args, **kwargs)

    env.compile = counted  # type: ignore[method-assign]
    return env, compiled


def test_a_second_run_takes_what_the_first_compiled(cache: Path) -> None:
    first, compiled = _run()
    text = first.get_template("closed_problems.md.j2").render()
    assert compiled == ["closed_problems.md.j2"]
    assert cache.is_dir() and len(list(cache.glob("*.jinja"))) == 1
    assert cache.stat().st_mode & 0o777 == 0o700  # the user's alone
    second, compiled_again = _run()
    assert second.get_template("closed_problems.md.j2").render() == text
    assert compiled_again == []


def test_a_template_whose_text_changed_is_compiled_anew(cache: Path, tmp_path: Path) -> None:
    folder = tmp_path / "campaign"
    folder.mkdir()
    (folder / "closed_problems.md.j2").write_text("first {{ 1 + 1 }}", encoding="utf-8")
    env, _ = _run(folder)
    assert env.get_template("closed_problems.md.j2").render() == "first 2"
    (folder / "closed_problems.md.j2").write_text("second {{ 2 + 2 }}", encoding="utf-8")
    env, compiled = _run(folder)
    assert env.get_template("closed_problems.md.j2").render() == "second 4"
    assert compiled == ["closed_problems.md.j2"]


def test_an_override_and_the_built_in_of_one_name_are_kept_apart(
    cache: Path, tmp_path: Path
) -> None:
    built_in, _ = _run()
    words = built_in.get_template("closed_problems.md.j2").render()
    folder = tmp_path / "campaign"
    folder.mkdir()
    (folder / "closed_problems.md.j2").write_text("the GM's own", encoding="utf-8")
    for _ in range(2):
        env, _ = _run(folder)
        assert env.get_template("closed_problems.md.j2").render() == "the GM's own"
        env, _ = _run()
        assert env.get_template("closed_problems.md.j2").render() == words


def test_environments_of_other_options_keep_apart(cache: Path, tmp_path: Path) -> None:
    (tmp_path / "t.j2").write_text("{% if true %}\nyes{% endif %}", encoding="utf-8")

    def rendered(trim_blocks: bool) -> str:
        env = jinja2.Environment(loader=jinja2.FileSystemLoader(tmp_path), trim_blocks=trim_blocks)
        env.bytecode_cache = template_cache(env)
        return env.get_template("t.j2").render()

    for _ in range(2):  # the second time from the cache
        assert rendered(trim_blocks=True) == "yes"
        assert rendered(trim_blocks=False) == "\nyes"
    assert len(list(cache.glob("*.jinja"))) == 2


def test_a_damaged_file_is_compiled_anew(cache: Path) -> None:
    env, _ = _run()
    text = env.get_template("closed_problems.md.j2").render()
    [kept] = cache.glob("*.jinja")
    kept.write_bytes(kept.read_bytes()[:40])  # cut short: a run killed while writing
    env, compiled = _run()
    assert env.get_template("closed_problems.md.j2").render() == text
    assert compiled == ["closed_problems.md.j2"]


def test_a_folder_that_cannot_be_made_keeps_nothing_and_fails_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "cache").write_text("a file, not a folder", encoding="utf-8")
    monkeypatch.setenv("PBP_CACHE_DIR", str(tmp_path / "cache"))
    for _ in range(2):
        env, compiled = _run()
        assert env.get_template("closed_problems.md.j2").render()
        assert compiled == ["closed_problems.md.j2"]


def test_a_folder_others_may_write_to_is_never_read(cache: Path) -> None:
    env, _ = _run()
    text = env.get_template("closed_problems.md.j2").render()
    cache.chmod(0o777)  # anybody could have put code there
    env, compiled = _run()
    assert env.get_template("closed_problems.md.j2").render() == text
    assert compiled == ["closed_problems.md.j2"]
    cache.chmod(0o700)


def test_an_empty_setting_keeps_nothing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PBP_CACHE_DIR", "")
    assert cache_folder() is None
    env, _ = _run()
    assert env.bytecode_cache is None
    assert env.get_template("closed_problems.md.j2").render()


def test_the_default_folder_is_the_users_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PBP_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", "/somewhere/cache")
    assert cache_folder() == Path("/somewhere/cache/pbp/templates")
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert cache_folder() == Path(os.path.expanduser("~")) / ".cache" / "pbp" / "templates"


def test_no_home_keeps_nothing_rather_than_a_folder_named_by_the_tilde(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("PBP_CACHE_DIR")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setattr(os.path, "expanduser", lambda path: path)  # as with no home found
    assert cache_folder() is None


def test_a_relative_xdg_cache_home_is_passed_over_as_the_spec_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("PBP_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    assert cache_folder() == Path(os.path.expanduser("~")) / ".cache" / "pbp" / "templates"
