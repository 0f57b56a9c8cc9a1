"""Reading campaign files from disk (the pure parsing is ``pbp.campaign.loader``)."""

from __future__ import annotations

import dataclasses
import difflib
from itertools import islice
from pathlib import Path

from pbp.campaign.loader import read_campaign
from pbp.campaign.model import Campaign
from pbp.campaign.tables import KeyPath, LineIndex, shortened
from pbp.config import read_text
from pbp.errors import ConfigError, ConfigErrors

_TEMPLATES: KeyPath = ("campaign", "templates")
_OVERRIDE = "a folder, relative to the campaign file, holding template overrides"
_MOST_LISTED = 1000  # entries of a templates folder looked at for misnamed templates


def load_campaign(path: Path) -> Campaign:
    """The campaign in the file at ``path``; its ``templates`` folder resolved against the
    file's own folder and required to exist."""
    text = read_text(path)
    campaign, _warnings = read_campaign(text, path=str(path))
    return _with_templates(path, text, campaign)


def check_campaign_file(path: Path) -> tuple[Campaign, tuple[ConfigError, ...]]:
    """``load_campaign``'s campaign and the warnings about its file (``pbp check`` shows them):
    the loader's, and those about its templates folder (one that overrides nothing). A
    template of the folder that does not compile is an error (``template_errors``)."""
    text = read_text(path)
    campaign, warnings = read_campaign(text, path=str(path))
    campaign = _with_templates(path, text, campaign)
    if campaign.templates is not None:
        raise_all(template_errors(campaign))
        warnings += _template_warnings(path, text, campaign, Path(campaign.templates))
    return campaign, warnings


def template_errors(campaign: Campaign) -> tuple[ConfigError, ...]:
    """Each template of the campaign's folder that does not compile, with its file and line:
    every reply that uses it would fail (found here, not at a post of the thread)."""
    if campaign.templates is None:
        return ()
    # Jinja is loaded only here: `pbp parse --campaign` reads campaigns without it
    from pbp.render.environment import builtin_templates_dir, make_environment

    folder = Path(campaign.templates)
    builtin = builtin_templates_dir()
    env = make_environment(folder, reload=False)
    errors: list[ConfigError] = []
    for name in _builtin_names(builtin):
        if not (folder / name).is_file():
            continue
        try:
            env.get_template(name)
        except Exception as exc:
            # Jinja's TemplateSyntaxError, or UnicodeDecodeError for a file that is not UTF-8
            # (services do not import Jinja: its errors are told by their type's name)
            line = getattr(exc, "lineno", None)
            errors.append(
                ConfigError(
                    path=str(folder / name),
                    where=f"line {line}" if line else "template",
                    problem=f"the template does not compile: {type(exc).__name__}: "
                    f"{shortened(' '.join(str(exc).split()), longest=200)}",
                    expected=f"Jinja template syntax, as in pbp's own {builtin / name}",
                )
            )
    return tuple(errors)


def raise_all(errors: tuple[ConfigError, ...]) -> None:
    """Raise ``errors``: the one, or all of them (``pbp check`` prints each on its line)."""
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise ConfigErrors(errors)


def _builtin_names(builtin: Path) -> list[str]:
    """Every template of pbp's, the built-ins' and the rulesets', as a path relative to its
    folder (``effects/zeroed.md.j2``)."""
    from pbp.render.environment import ruleset_templates_dirs

    folders = (builtin, *ruleset_templates_dirs())
    return sorted(p.relative_to(f).as_posix() for f in folders for p in f.rglob("*.j2"))


def _with_templates(path: Path, text: str, campaign: Campaign) -> Campaign:
    if campaign.templates is None:
        return campaign
    given = campaign.templates
    if "\x00" in given:
        raise _error(path, text, "the templates folder's path holds a NUL character")
    try:
        folder = (path.parent / given).resolve()
        found = folder.is_dir()
    except OSError as exc:  # a name longer than the file system takes, a loop of links
        raise _error(
            path,
            text,
            f'the templates folder "{shortened(given)}" cannot be used ({exc.strerror or exc})',
        ) from None
    if not found:
        what = "is a file, not a folder" if folder.exists() else "does not exist"
        raise _error(
            path,
            text,
            f'the templates folder "{shortened(given)}" {what} ({shortened(str(folder))})',
        )
    return dataclasses.replace(campaign, templates=str(folder))


def _error(path: Path, text: str, problem: str) -> ConfigError:
    return ConfigError(
        path=str(path), where=_where(text, _TEMPLATES), problem=problem, expected=_OVERRIDE
    )


def _template_warnings(
    path: Path, text: str, campaign: Campaign, folder: Path
) -> tuple[ConfigError, ...]:
    """A templates folder that overrides no template (``/etc``, a folder of something else):
    every reply is pbp's own, which is not what the GM meant; and each ``.j2`` file in it that
    is named like no template of pbp's (a typo overrides nothing, silently)."""
    # Jinja is loaded only here: `pbp parse --campaign` reads campaigns without it
    from pbp.render.environment import builtin_templates_dir

    builtin = builtin_templates_dir()
    names = _builtin_names(builtin)
    where = _where(text, _TEMPLATES)
    shown = shortened(campaign.templates or str(folder))
    stray = [name for name in _listed_templates(folder, names) if name not in names]
    warnings = [
        ConfigError(
            path=str(path),
            where=where,
            problem=f'"{name}" in the templates folder is named like no template of pbp, so '
            f"it changes no reply{_close_to(name, names)}",
            expected=f"a file named as the template it replaces; pbp's own are in {builtin}",
        )
        for name in stray
    ]
    if not any((folder / name).is_file() for name in names):
        warnings.insert(
            0,
            ConfigError(
                path=str(path),
                where=where,
                problem=f'the templates folder "{shown}" holds no pbp template, so every reply '
                "stays pbp's own",
                expected="copies of the templates to change, named as pbp names them, e.g. "
                f"summary.md.j2 from {builtin}; or no templates key",
            ),
        )
    return tuple(warnings)


def _listed_templates(folder: Path, names: list[str]) -> list[str]:
    """The ``.j2`` files at the top of ``folder`` and in its folders that pbp's templates use
    (``effects/``, ``problems/``…), as paths relative to it. Only those: a templates key that
    names ``/`` must not walk the whole disk."""
    subfolders = sorted({name.rpartition("/")[0] for name in names} - {""})
    found: list[str] = []
    for sub in ["", *subfolders]:
        try:
            entries = sorted(islice((folder / sub).iterdir(), _MOST_LISTED))
        except OSError:  # not there, or not readable: nothing of it overrides anything
            continue
        found += [
            f"{sub}/{entry.name}".lstrip("/") for entry in entries if entry.name.endswith(".j2")
        ]
    return found


def _close_to(name: str, names: list[str]) -> str:
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.75)
    return f' (did you mean "{close[0]}"?)' if close else ""


def _where(text: str, at: KeyPath) -> str:
    line = LineIndex(text).line_of(at)
    name = ".".join(str(part) for part in at)
    return f"{name} (line {line})" if line is not None else name
