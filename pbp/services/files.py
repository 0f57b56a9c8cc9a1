"""Reading campaign files from disk (the pure parsing is ``pbp.campaign.loader``)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from pbp.campaign.loader import read_campaign
from pbp.campaign.model import Campaign
from pbp.campaign.tables import KeyPath, LineIndex
from pbp.config import read_text
from pbp.errors import ConfigError


def load_campaign(path: Path) -> Campaign:
    """The campaign in the file at ``path``; its ``templates`` folder resolved against the
    file's own folder and required to exist."""
    return check_campaign_file(path)[0]


def check_campaign_file(path: Path) -> tuple[Campaign, tuple[ConfigError, ...]]:
    """``load_campaign``'s campaign and the warnings about its file (``pbp check`` shows them)."""
    text = read_text(path)
    campaign, warnings = read_campaign(text, path=str(path))
    return _with_templates(path, text, campaign), warnings


def _with_templates(path: Path, text: str, campaign: Campaign) -> Campaign:
    if campaign.templates is None:
        return campaign
    folder = (path.parent / campaign.templates).resolve()
    if not folder.is_dir():
        raise ConfigError(
            path=str(path),
            where=_where(text, ("campaign", "templates")),
            problem=f'the templates folder "{campaign.templates}" does not exist ({folder})',
            expected="a folder, relative to the campaign file, holding template overrides",
        )
    return dataclasses.replace(campaign, templates=str(folder))


def _where(text: str, at: KeyPath) -> str:
    line = LineIndex(text).line_of(at)
    name = ".".join(str(part) for part in at)
    return f"{name} (line {line})" if line is not None else name
