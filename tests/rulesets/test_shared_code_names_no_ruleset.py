"""Shared code (everything of pbp outside ``pbp/rulesets/``) names no ruleset: it holds the
plugins (``pbp.rulesets.RulesetPlugin``) and asks them. A ruleset's name in its code or its
strings (comments and docstrings may tell of them) is one of the exceptions below, each with
its reason; a new one fails here."""

from __future__ import annotations

import io
import re
import tokenize
from collections import Counter
from pathlib import Path

import pbp

PACKAGE = Path(pbp.__file__).resolve().parent
NAMES = re.compile(r"(?i)\b(distat|markhor|markhorspire|d20|abstract)\b")

# file -> (how many tokens name a ruleset, why)
EXCEPTIONS: dict[str, tuple[int, str]] = {
    "tags/model.py": (
        7,
        "SceneKind: the scene kinds a campaign file and !encounter accept "
        "(SPEC §1), and `abstract`, a verb no name may be",
    ),
    "tags/post.py": (1, "a post is read in a Distat scene when nothing says otherwise (SPEC §1)"),
    "campaign/model.py": (1, "a campaign without a ruleset runs Distat (SPEC §1)"),
    "campaign/loader.py": (1, "a campaign without a ruleset runs Distat (SPEC §1)"),
    "render/problems.py": (2, "a problem reply's examples are Distat's when no scene is given"),
    "cli/parse.py": (2, "`pbp parse --help` says the default scene and what --task is for"),
    "campaign/sheets/skills.py": (4, "the skills part, read by two rulesets, says which"),
}


def _named(path: Path) -> int:
    """The tokens of code and strings (not comments, not docstrings) that name a ruleset."""
    count, previous = 0, tokenize.NEWLINE
    for token in tokenize.generate_tokens(io.StringIO(path.read_text()).readline):
        if token.type in (tokenize.NL, tokenize.COMMENT):
            continue
        docstring = token.type == tokenize.STRING and previous in (
            tokenize.NEWLINE,
            tokenize.INDENT,
            tokenize.DEDENT,
            tokenize.ENCODING,
        )
        if token.type in (tokenize.NAME, tokenize.STRING) and not docstring:
            count += len(NAMES.findall(token.string))
        previous = token.type
    return count


def test_shared_code_names_no_ruleset_beyond_its_documented_exceptions() -> None:
    found = Counter(
        {
            path.relative_to(PACKAGE).as_posix(): _named(path)
            for path in PACKAGE.rglob("*.py")
            if "rulesets" not in path.relative_to(PACKAGE).parts
        }
    )
    found = +found  # the files that name one
    assert dict(found) == {name: count for name, (count, _) in EXCEPTIONS.items()}
