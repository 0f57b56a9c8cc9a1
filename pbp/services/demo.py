"""`pbp demo`: a complete example thread, replayed with the bot's replies in place."""

from __future__ import annotations

from pathlib import Path

from pbp.engine.events import PostArrived, PostDeleted, PostEdited, Tick
from pbp.services.events_file import read_events
from pbp.services.replay import ReplayRun, feed_all, replay_run

_PACKAGED = Path(__file__).resolve().parent.parent / "examples"  # inside an installed wheel
_CHECKOUT = Path(__file__).resolve().parent.parent.parent / "examples"  # source or editable
CAMPAIGN = "sunken-keep.toml"
THREAD = "sunken-keep-thread.jsonl"


def examples_dir() -> Path:
    """The folder of the bundled example campaign, from a wheel or a checkout."""
    for candidate in (_PACKAGED, _CHECKOUT):
        if (candidate / CAMPAIGN).is_file():
            return candidate
    raise FileNotFoundError(f"pbp's examples are missing (looked in {_PACKAGED} and {_CHECKOUT})")


def demo_text(seed: int = 1) -> str:
    """The bundled example thread played through the bot, as a reader sees it."""
    folder = examples_dir()
    with replay_run(folder / CAMPAIGN, seed=f"demo:{seed}") as run:
        feed_all(run, read_events(folder / THREAD))
        return thread_text(run)


def _indent(text: str) -> str:
    return "\n".join(f"    {line}" if line else "" for line in text.rstrip().splitlines())


def thread_text(run: ReplayRun) -> str:
    """The thread as a reader sees it: each post, and under it what the bot replied."""
    out: list[str] = []
    for event, replies in run.log:
        when = event.at.strftime("%Y-%m-%d %H:%M")
        match event:
            case PostArrived():
                out.append(
                    f"=== {event.post_id} by {event.author}, {when}\n{event.body.rstrip()}\n"
                )
            case PostEdited():
                out.append(f"=== {event.post_id} edited, {when}\n{event.body.rstrip()}\n")
            case PostDeleted():
                out.append(f"=== {event.post_id} deleted, {when}\n")
            case Tick():
                pass
        for reply in replies:
            head = "edits its reply" if reply.edited else "replies"
            where = f"to {reply.to}" if reply.to else "in the thread"
            out.append(f"  --- pbp {head} {where}:\n{_indent(reply.text)}\n")
    return "\n".join(out)
