"""The tag reader: post text -> typed tags, commands and problems (pure)."""

from __future__ import annotations

from pbp.tags.names import resolve_name
from pbp.tags.post import ParsedPost, ReadContext, parse_post
from pbp.tags.problems import NameProblem
from pbp.tags.registry import format_tag

__all__ = ["NameProblem", "ParsedPost", "ReadContext", "format_tag", "parse_post", "resolve_name"]
