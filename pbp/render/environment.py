"""The Jinja environment: built-in templates, a campaign's overrides, Markdown-safe escaping."""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable, MutableMapping
from pathlib import Path
from typing import Any

import jinja2
from jinja2.loaders import split_template_path

from pbp.render.tag_edits import FILTERS
from pbp.render.template_cache import template_cache

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
    first. And quicker at an include with a fallback (``select_template``), and at starting
    each render (``make_globals``)."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        # (names, parent) -> (the look it was chosen in, the name chosen)
        self._chosen: dict[tuple[tuple[str, ...], str | None], tuple[object, str]] = {}

    def select_template(
        self,
        names: Any,
        parent: str | None = None,
        globals: MutableMapping[str, Any] | None = None,
    ) -> jinja2.Template:
        """Jinja's choice of the first template that exists among ``names``, remembered for
        as long as the folders cannot have changed (``look_of``): an include with
        a fallback otherwise asks for its first name, and is refused it, at each render."""
        if not isinstance(names, list | tuple) or not all(type(n) is str for n in names):
            return super().select_template(names, parent, globals)
        looked = look_of(self)
        key = (tuple(names), parent)
        chosen = self._chosen.get(key)
        if chosen is not None and looked is not None and chosen[0] == looked:
            try:
                return self._load_template(chosen[1], globals)
            except jinja2.TemplateNotFound:  # (gone since, and out of Jinja's cache)
                pass
        template = super().select_template(names, parent, globals)
        if looked is not None and template.name is not None:
            self._chosen[key] = (looked, template.name)
        return template

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        """A template's globals as one plain dict (Jinja's is a chain over the environment's,
        which every render copies key by key; pbp sets no global after it loads a template)."""
        return {**self.globals, **(d or {})}

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                pass  # Jinja's own lookup says what is undefined
        return super().getattr(obj, attribute)


_LOOKS = [0]  # how many times the template files were to be looked at again (``look_again``)


def look_of(env: jinja2.Environment) -> object | None:
    """Which look the templates ``env`` gives hold for: the same value as long as none of
    its folders may have changed (a value kept with what was made of its templates is good
    while it stays equal); None for an environment of another loader (nothing is known)."""
    loader = env.loader
    if not isinstance(loader, _Loader):
        return None
    return (loader, loader.generation())


def look_again() -> None:
    """The next use of each template looks at its file again, and at the folders for a name
    none of them had (a reloading environment looks once between two calls of this, however
    often a reply includes a template)."""
    _LOOKS[0] += 1


class _Loader(jinja2.BaseLoader):
    """Jinja's loader of template files: a campaign's folder first (``watched``), then the
    built-in and the rulesets' folders (``fixed``).

    The fixed folders are package data, the same while pbp runs: each name is looked for in
    them once, and a name none of them holds is remembered as missing (an include with a
    fallback, ``{% include ["slots/" ~ slot ~ ".md.j2", "slots/_action.md.j2"] %}``, asks for
    its first name at each render, and Jinja keeps only the templates it found). When files
    are read again as they change (``reload``), only the campaign's folder is looked at
    again, once a ``look_again``, not at each use: a file's time, and whether it now holds a
    name it did not (a GM's override added, or taken away)."""

    def __init__(self, watched: str | None, fixed: list[str], *, reload: bool) -> None:
        self._watched = jinja2.FileSystemLoader(watched) if watched is not None else None
        self._fixed = jinja2.FileSystemLoader(fixed)
        self._reload = reload
        self._fixed_missing: set[str] = set()  # names no fixed folder holds
        self._watched_missing: set[str] = set()  # names the campaign's folder did not hold
        self._missing_at = _LOOKS[0]  # the look those were found missing in

    def generation(self) -> int:
        """Which look the names found and missing hold for: the same number as long as no
        folder may have changed (-1 for ever, without a campaign's folder or without reload)."""
        return _LOOKS[0] if self._watched is not None and self._reload else -1

    def get_source(
        self, environment: jinja2.Environment, template: str
    ) -> tuple[str, str, Callable[[], bool]]:
        if self._watched is not None:
            self._look_again_if_due()
            if template not in self._watched_missing:
                try:
                    source, filename, uptodate = self._watched.get_source(environment, template)
                except jinja2.TemplateNotFound:
                    self._watched_missing.add(template)
                else:
                    return source, filename, self._once_a_look(uptodate)
        if template in self._fixed_missing:
            raise jinja2.TemplateNotFound(template)
        try:
            source, filename, _ = self._fixed.get_source(environment, template)
        except jinja2.TemplateNotFound:
            self._fixed_missing.add(template)
            raise
        return source, filename, self._once_a_look(lambda: not self._overridden(template))

    def _overridden(self, template: str) -> bool:
        """Whether the campaign's folder now holds ``template`` (looked at once a look)."""
        if self._watched is None:
            return False
        self._look_again_if_due()
        if template in self._watched_missing:
            return False
        pieces = split_template_path(template)
        if any(
            os.path.isfile(os.path.join(folder, *pieces)) for folder in self._watched.searchpath
        ):
            return True
        self._watched_missing.add(template)
        return False

    def _look_again_if_due(self) -> None:
        """A new look began (``reload``): the campaign's folder may hold a name it did not (a
        GM may have added one since)."""
        if self._reload and self._missing_at != _LOOKS[0]:
            self._watched_missing, self._missing_at = set(), _LOOKS[0]

    def _once_a_look(self, uptodate: Callable[[], bool]) -> Callable[[], bool]:
        """``uptodate``, asked at most once a look (a template unchanged stays unchanged until
        the next look, however often a reply includes it)."""
        if self.generation() < 0:
            return lambda: True  # (nothing it was read from may change)
        looked = [_LOOKS[0]]  # the look it was last found unchanged in

        def unchanged() -> bool:
            if looked[0] == _LOOKS[0]:
                return True
            if not uptodate():
                return False
            looked[0] = _LOOKS[0]
            return True

        return unchanged


def make_environment(override: Path | None = None, *, reload: bool = True) -> jinja2.Environment:
    """An environment that loads ``override`` first (a campaign's folder), then the built-ins.
    ``reload``: a template file changed since it was compiled is compiled again (its time is
    looked at once a ``look_again``); without it each template is compiled once."""
    fixed = [str(builtin_templates_dir()), *(str(f) for f in ruleset_templates_dirs())]
    watched = str(override) if override is not None else None
    env = _Environment(
        loader=_Loader(watched, fixed, reload=reload),
        autoescape=False,  # replies are Markdown, not HTML: user text goes through |md
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
        auto_reload=reload,
    )
    env.filters["md"] = md_escape
    env.filters.update(FILTERS)  # the writer's tag with one fix: the examples
    env.bytecode_cache = template_cache(env)  # compiled by an earlier run: not compiled again
    return env


@functools.lru_cache(maxsize=32)
def shared_environment(overrides: Path | None = None, *, reload: bool = True) -> jinja2.Environment:
    """One environment per override folder (and ``reload``), kept for the life of the process
    (the bot renders every reply of a thread with it; compiling the templates once is
    enough)."""
    return make_environment(overrides, reload=reload)
