"""Reading an events file (SPEC §5): one JSON event per line, in time order."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from pbp.engine.events import Event, PostArrived, PostDeleted, PostEdited, Tick
from pbp.errors import InputError

EXAMPLE = (
    '{"type": "post", "id": "p1", "author": "alice", "at": "2026-11-29T10:00:00Z", "body": "…"}'
)


def _instant(value: object, where: str) -> datetime:
    if not isinstance(value, str):
        raise InputError(f'{where}: "at" must be a time like "2026-11-29T10:00:00Z"')
    try:
        at = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError as exc:
        raise InputError(f'{where}: "at" is not a time: {value!r} ({exc})') from exc
    return at.replace(tzinfo=UTC) if at.tzinfo is None else at.astimezone(UTC)


def _text(raw: dict[str, object], key: str, where: str) -> str:
    value = raw.get(key)
    if not isinstance(value, str):
        raise InputError(f'{where}: "{key}" must be a string (example: {EXAMPLE})')
    return value


def event_from(raw: object, *, where: str) -> Event:
    """One event from its JSON object; ``where`` names the file and line for errors."""
    if not isinstance(raw, dict):
        raise InputError(f"{where}: each line must be a JSON object (example: {EXAMPLE})")
    kind = raw.get("type")
    at = _instant(raw.get("at"), where)
    match kind:
        case "post":
            return PostArrived(
                post_id=_text(raw, "id", where),
                author=_text(raw, "author", where),
                at=at,
                body=_text(raw, "body", where),
            )
        case "edit":
            return PostEdited(
                post_id=_text(raw, "id", where), at=at, body=_text(raw, "body", where)
            )
        case "delete":
            return PostDeleted(post_id=_text(raw, "id", where), at=at)
        case "tick":
            return Tick(at=at)
    raise InputError(f"{where}: unknown event type {kind!r} (expected post, edit, delete or tick)")


def read_events(path: Path) -> Iterator[Event]:
    """The events of a JSONL file, checked line by line (blank lines are skipped)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise InputError(f"{path}: cannot read the events file ({exc.strerror})") from exc
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{where}: not valid JSON ({exc.msg}, column {exc.colno})") from exc
        yield event_from(raw, where=where)
