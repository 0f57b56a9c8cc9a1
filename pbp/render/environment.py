"""The Jinja environment: built-in templates, a campaign's overrides, Markdown-safe escaping."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jinja2

from pbp.render.tag_edits import FILTERS

_PACKAGED = Path(__file__).resolve().parent.parent / "templates"  # inside an installed wheel
_CHECKOUT = Path(__file__).resolve().parent.parent.parent / "templates"  # source or editable

# Characters that Reddit's Markdown gives a meaning to, anywhere in a line.
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()<>#+\-.!|~^>])")
_MENTION = re.compile(r"(?i)\b(u|r)/")
_URL_SCHEME = re.compile(r"(?i)\b(https?|ftp)://")


def builtin_templates_dir() -> Path:
    """The folder of the built-in templates, whether pbp runs from a wheel or a checkout."""
    for candidate in (_PACKAGED, _CHECKOUT):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"pbp's templates are missing (looked in {_PACKAGED} and {_CHECKOUT})")


def ruleset_templates_dirs() -> tuple[Path, ...]:
    """Each ruleset's own templates (its scenes' words, its refusals, its summary section),
    package data inside its package: after the built-ins, the same names a campaign overrides."""
    from pbp.rulesets import plugins

    return tuple(plugin.templates_folder for plugin in plugins())


def md_escape(value: object) -> str:
    """Escape user text so a reply that repeats it stays plain text.

    Every Markdown-special character gets a backslash, ``u/name`` and ``r/name`` lose their
    link (a zero-width joiner after the ``/`` would hide text, so the slash is escaped instead),
    bare URLs are broken, and line breaks fold to spaces so the text cannot start a quote, a
    list or a heading.
    """
    return _escaped(str(value))


@functools.lru_cache(maxsize=2048)
def _escaped(value: str) -> str:
    """``md_escape`` of a string (a pure function of it: a thread repeats its names)."""
    text = _MD_SPECIAL.sub(r"\\\1", " ".join(value.split()))
    if "/" not in text:  # no mention and no URL without a slash
        return text
    text = _MENTION.sub(lambda m: f"{m.group(1)}\\/", text)
    return _URL_SCHEME.sub(lambda m: f"{m.group(1)}\\:\\/\\/", text)


_DICT_ATTRIBUTES = frozenset(dir(dict))


class _Environment(jinja2.Environment):
    """Jinja's environment, quicker at ``view.key`` on the plain dicts the views are: Jinja
    tries the attribute first and falls back to the key; a dict has no attribute beyond
    dict's own, so for any other name the key is what Jinja would find, and is looked up
    first."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                pass  # Jinja's own lookup says what is undefined
        return super().getattr(obj, attribute)


_LOOKS = [0]  # how many times the template files were to be looked at again (``look_again``)


def look_again() -> None:
    """The next use of each template looks at its file again, and at the folders for a name
    none of them had (a reloading environment looks once between two calls of this, however
    often a reply includes a template)."""
    _LOOKS[0] += 1


class _Loader(jinja2.FileSystemLoader):
    """Jinja's loader of template files that remembers the names it found in no folder (an
    include with a fallback, ``{% include ["slots/" ~ slot ~ ".md.j2", "slots/_action.md.j2"]
    %}``, looks for its first name in every folder at each render, and Jinja keeps only the
    templates it found), and that, when files are read again as they change (``reload``),
    looks at a file's time and at the folders once a ``look_again``, not at each use."""

    def __init__(self, searchpath: list[str], *, reload: bool) -> None:
        super().__init__(searchpath)
        self._reload = reload
        self._missing: set[str] = set()
        self._missing_at = _LOOKS[0]  # the look the names missing were found missing in

    def get_source(
        self, environment: jinja2.Environment, template: str
    ) -> tuple[str, str, Callable[[], bool]]:
        if self._reload and self._missing_at != _LOOKS[0]:  # a GM may have added one since
            self._missing, self._missing_at = set(), _LOOKS[0]
        if template in self._missing:
            raise jinja2.TemplateNotFound(template)
        try:
            source, filename, uptodate = super().get_source(environment, template)
        except jinja2.TemplateNotFound:
            self._missing.add(template)
            raise
        if not self._reload:
            return source, filename, uptodate
        looked = [_LOOKS[0]]  # the look its file was last found unchanged in

        def unchanged() -> bool:
            if looked[0] == _LOOKS[0]:
                return True
            if not uptodate():
                return False
            looked[0] = _LOOKS[0]
            return True

        return source, filename, unchanged


def make_environment(override: Path | None = None, *, reload: bool = True) -> jinja2.Environment:
    """An environment that loads ``override`` first (a campaign's folder), then the built-ins.
    ``reload``: a template file changed since it was compiled is compiled again (its time is
    looked at once a ``look_again``); without it each template is compiled once."""
    folders = [str(override)] if override is not None else []
    folders.append(str(builtin_templates_dir()))
    folders += [str(folder) for folder in ruleset_templates_dirs()]
    env = _Environment(
        loader=_Loader(folders, reload=reload),
        autoescape=False,  # replies are Markdown, not HTML: user text goes through |md
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
        auto_reload=reload,
    )
    env.filters["md"] = md_escape
    env.filters.update(FILTERS)  # the writer's tag with one fix: the examples
    return env


@functools.lru_cache(maxsize=32)
def shared_environment(overrides: Path | None = None, *, reload: bool = True) -> jinja2.Environment:
    """One environment per override folder (and ``reload``), kept for the life of the process
    (the bot renders every reply of a thread with it; compiling the templates once is
    enough)."""
    return make_environment(overrides, reload=reload)
