"""A thread played through `pbp replay` as a user runs it, and what the bot posted, by reply key:
the harness of the tests that assert what a player or GM reads (issue 26)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from pbp.cli import app

START = datetime(2026, 11, 29, 10, 0, tzinfo=UTC)
_HEADER = re.compile(r"^--- pbp, (?P<where>.+?)(?: \(edited \d+x\))? \[(?P<key>[^\]]+)\]$", re.M)


def stamp(minutes: float) -> str:
    """The time ``minutes`` after the start of a test thread, as an events file writes it."""
    return (START + timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M:%SZ")


def post(post_id: str, author: str, body: str, minute: float) -> dict[str, str]:
    """A post event ``minute`` minutes into the thread."""
    return {"type": "post", "id": post_id, "author": author, "at": stamp(minute), "body": body}


def edit(post_id: str, body: str, minute: float) -> dict[str, str]:
    """An edit event ``minute`` minutes into the thread."""
    return {"type": "edit", "id": post_id, "at": stamp(minute), "body": body}


def tick(minute: float) -> dict[str, str]:
    """Time passing, ``minute`` minutes into the thread."""
    return {"type": "tick", "at": stamp(minute)}


@dataclass(frozen=True)
class Played:
    """What a replay printed: the replies by key (``where`` each went), the exit code, the
    error output."""

    replies: dict[str, str]
    where: dict[str, str]
    code: int
    output: str
    error: str

    def to(self, post_id: str) -> list[str]:
        """The replies to post ``post_id``, in posting order."""
        return [
            text for key, text in self.replies.items() if self.where[key] == f"reply to {post_id}"
        ]


def replay(
    folder: Path, campaign: str, events: list[dict[str, Any]], *, as_json: bool = False
) -> Played:
    """Run ``pbp replay`` on the campaign file's text and the events, as a user would."""
    (folder / "campaign.toml").write_text(campaign, encoding="utf-8")
    (folder / "events.jsonl").write_text(
        "".join(json.dumps(e) + "\n" for e in events), encoding="utf-8"
    )
    args = ["replay", str(folder / "campaign.toml"), str(folder / "events.jsonl"), "--seed", "7"]
    result = CliRunner().invoke(app, [*args, *(["--json"] if as_json else [])])
    replies: dict[str, str] = {}
    where: dict[str, str] = {}
    if not as_json:
        heads = list(_HEADER.finditer(result.stdout))
        for head, after in zip(heads, [*heads[1:], None][: len(heads)], strict=True):
            end = after.start() if after is not None else len(result.stdout)
            replies[head["key"]] = result.stdout[head.end() : end].strip()
            where[head["key"]] = head["where"]
    return Played(
        replies=replies,
        where=where,
        code=result.exit_code,
        output=result.stdout,
        error=result.stderr,
    )
