"""Reading an events file (SPEC §5): one JSON event per line, in time order.

Every mistake is one ``InputError`` line that names the file and the line (``events.jsonl:3``):
a line that is no JSON (or nests deeper than any event, or holds a number too long to read),
bytes that are not UTF-8, a missing or wrong field, a time out of range or out of order.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from pbp.engine.events import Event, PostArrived, PostDeleted, PostEdited, Tick
from pbp.engine.times import EARLIEST, LATEST
from pbp.errors import InputError

EXAMPLE = (
    '{"type": "post", "id": "p1", "author": "alice", "at": "2026-11-29T10:00:00Z", "body": "…"}'
)
_TIME_EXAMPLE = '"2026-11-29T10:00:00Z"'
_TYPES = ("post", "edit", "delete", "tick")


def _instant(raw: dict[str, object], where: str) -> datetime:
    if "at" not in raw:
        raise InputError(f'{where}: missing "at", the time of the event (example: {EXAMPLE})')
    value = raw["at"]
    if not isinstance(value, str):
        raise InputError(f'{where}: "at" must be a time like {_TIME_EXAMPLE}, not {value!r}')
    try:
        at = datetime.fromisoformat(value.replace("Z", "+00:00"))
        at = at.replace(tzinfo=UTC) if at.tzinfo is None else at.astimezone(UTC)
    except (ValueError, OverflowError):  # OverflowError: a zone that moves it past year 1
        raise InputError(
            f'{where}: "at" is not a time: {value!r} (expected a time like '
            f"{_TIME_EXAMPLE}, or with a zone like +01:00)"
        ) from None
    if not EARLIEST <= at < LATEST:
        # the bot adds deadlines and leases to the times it reads: a time at the end of the
        # calendar would have nowhere to go
        raise InputError(
            f'{where}: "at" is {value}, out of range (pbp takes times from '
            f"{EARLIEST:%Y-%m-%d} to {LATEST.year - 1}-12-31)"
        )
    return at


def _text(raw: dict[str, object], key: str, where: str) -> str:
    value = raw.get(key)
    if key not in raw:
        raise InputError(f'{where}: missing "{key}" (example: {EXAMPLE})')
    if not isinstance(value, str):
        raise InputError(f'{where}: "{key}" must be a string, not {value!r} (example: {EXAMPLE})')
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:  # JSON may write half of a character: "\ud800"
        raise InputError(
            f'{where}: "{key}" holds \\u{ord(value[exc.start]):04x}, half of a '
            "character (a lone surrogate), which no post can hold"
        ) from None
    return value


def event_from(raw: object, *, where: str) -> Event:
    """One event from its JSON object; ``where`` names the file and line for errors."""
    if not isinstance(raw, dict):
        raise InputError(f"{where}: each line must be a JSON object (example: {EXAMPLE})")
    kind = raw.get("type")
    if kind not in _TYPES:
        found = 'missing "type"' if "type" not in raw else f"unknown event type {kind!r}"
        raise InputError(f"{where}: {found} (expected post, edit, delete or tick)")
    at = _instant(raw, where)
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
    return Tick(at=at)


def read_events(path: Path) -> Iterator[Event]:
    """The events of a JSONL file, checked line by line (blank lines are skipped)."""
    for _where, event in located_events(path):
        yield event


def located_events(path: Path) -> Iterator[tuple[str, Event]]:
    """Each event of the file with where it is (``events.jsonl:3``), so that what goes wrong
    with it later (a post id used twice) can name its line too."""
    previous: tuple[str, datetime] | None = None
    for number, line in enumerate(_text_of(path).splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        event = event_from(_json(line, where), where=where)
        if previous is not None and event.at < previous[1]:
            raise InputError(
                f"{where}: this event is at {event.at:%Y-%m-%dT%H:%M:%SZ}, before "
                f"the one on {previous[0]} ({previous[1]:%Y-%m-%dT%H:%M:%SZ}): "
                "the events go in time order"
            )
        previous = (f"line {number}", event.at)
        yield where, event


def _text_of(path: Path) -> str:
    """The file as text: UTF-8, a byte-order mark at its start allowed (Windows editors)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot read the events file ({exc.strerror})") from exc
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputError(
            f"{path}:{line}: not UTF-8 text (byte 0x{data[exc.start]:02x} at "
            f"column {column}): save the file as UTF-8"
        ) from None


def _json(line: str, where: str) -> object:
    try:
        return json.loads(line)
    except json.JSONDecodeError as exc:
        message = exc.msg.removesuffix(" at")  # "Invalid control character at"
        raise InputError(f"{where}: not valid JSON ({message}, column {exc.colno})") from None
    except RecursionError:  # a hostile line of nested brackets: no event nests that deep
        raise InputError(
            f"{where}: not an event: its JSON nests too deep (an event is one "
            f"flat object, e.g. {EXAMPLE})"
        ) from None
    except ValueError:  # a number past Python's limit for reading one (4,300 digits)
        raise InputError(
            f"{where}: not an event: it holds a number thousands of digits long"
        ) from None
