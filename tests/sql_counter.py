"""Counting what a store sends: statements (BEGIN not counted) and transactions (BEGINs),
through SQLAlchemy's engine events, on every engine the store talks through."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import event

from pbp.store.database import Store


@dataclass(slots=True)
class Sent:
    """What was sent: each statement's text (``statements``: their first words), and the
    number of transactions begun."""

    texts: list[str] = field(default_factory=list)
    transactions: int = 0

    @property
    def statements(self) -> list[str]:
        return [text.split(" ", 1)[0].upper() for text in self.texts]

    def __sub__(self, other: Sent) -> tuple[int, int]:
        return (
            len(self.texts) - len(other.texts),
            self.transactions - other.transactions,
        )

    def copy(self) -> Sent:
        return Sent(texts=list(self.texts), transactions=self.transactions)


@contextmanager
def counting(store: Store) -> Iterator[Sent]:
    """Count what the store sends inside the block."""
    sent = Sent()

    def statement(*args: Any) -> None:
        text = " ".join(str(args[2]).split())
        verb = text.split(" ", 1)[0].upper()
        if verb != "BEGIN":  # SQLite's BEGIN IMMEDIATE is the begin event below
            sent.texts.append(text)

    def begin(*_args: Any) -> None:
        sent.transactions += 1

    hooks = [("before_cursor_execute", statement), ("begin", begin)]
    for engine in store.engines:
        for name, hook in hooks:
            event.listen(engine, name, hook)
    try:
        yield sent
    finally:
        for engine in store.engines:
            for name, hook in hooks:
                event.remove(engine, name, hook)
