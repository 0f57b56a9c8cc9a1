"""A scene played through ``pbp replay``'s services: posts in, what players read out.

``play(folder, campaign, posts)`` writes the campaign file, feeds each ``(author, body)`` a
minute apart (post ids ``p1``, ``p2``, …) and returns the transcript of every reply in the
thread and the JSON ledger, as ``pbp replay`` and ``pbp replay --json`` print them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from pbp.engine.events import PostArrived
from pbp.services.replay import feed_all, replay_run

START = datetime(2026, 11, 29, 10, 0, tzinfo=UTC)


@dataclass(frozen=True)
class Played:
    transcript: str
    ledger: dict[str, Any]

    def reply_to(self, post: str) -> str:
        """Every reply to ``post`` in the transcript, one after another."""
        blocks = self.transcript.split("--- pbp, ")
        return "\n".join(b for b in blocks if b.startswith(f"reply to {post} "))

    def summary(self, number: int) -> str:
        """Round ``number``'s summary as posted."""
        return str(self.ledger["rounds"][number - 1]["summary"])

    def actions(self, number: int) -> list[dict[str, Any]]:
        return list(self.ledger["rounds"][number - 1]["actions"])


def play(
    folder: Path, campaign: str, posts: Sequence[tuple[str, str]], *, seed: str = "s"
) -> Played:
    path = folder / "campaign.toml"
    path.write_text(campaign, encoding="utf-8")
    events = [
        PostArrived(post_id=f"p{n}", author=author, at=START + timedelta(minutes=n), body=body)
        for n, (author, body) in enumerate(posts, start=1)
    ]
    with replay_run(path, seed=seed) as run:
        feed_all(run, events)
        return Played(transcript=run.transcript(), ledger=run.ledger())
