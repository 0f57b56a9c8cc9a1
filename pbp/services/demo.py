"""`pbp demo`: a complete example thread, replayed with the bot's replies in place."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pbp.engine.events import Event, PostArrived, PostDeleted, PostEdited, Tick
from pbp.services.events_file import read_events
from pbp.services.outbox import Delivered
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
    events = list(read_events(folder / THREAD))
    with replay_run(folder / CAMPAIGN, seed=f"demo:{seed}") as run:
        feed_all(run, events)
        return thread_text(events, run)


def _indent(text: str) -> str:
    return "\n".join(f"    {line}" if line else "" for line in text.rstrip().splitlines())


def _post_id(event: Event) -> str | None:
    return event.post_id if isinstance(event, PostArrived | PostEdited | PostDeleted) else None


def thread_text(events: Sequence[Event], run: ReplayRun) -> str:
    """The thread as a reader sees it: every post in order, and under each what the bot
    replied to it (a reply in the thread after the post the bot read it with)."""
    under: dict[int, list[Delivered]] = {}
    for event, replies in run.log:
        at = _index_of(events, event)
        for reply in replies:
            place = at
            if reply.to is not None:  # under the post it answers, as it stood then
                place = max(
                    (i for i, e in enumerate(events[: at + 1]) if _post_id(e) == reply.to),
                    default=at,
                )
            under.setdefault(place, []).append(reply)
    out: list[str] = []
    for i, event in enumerate(events):
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
                out.append(f"=== time passes: {when}\n")
        for reply in under.get(i, []):
            head = "edits its reply" if reply.edited else "replies"
            where = f"to {reply.to}" if reply.to else "in the thread"
            if reply.private_to is not None:
                head, where = "writes privately", f"to {reply.private_to}"
            out.append(f"  --- pbp {head} {where}:\n{_indent(reply.text)}\n")
    return "\n".join(out)


def _index_of(events: Sequence[Event], event: Event) -> int:
    """Where in ``events`` a polled event stands (the same event object, else by equality)."""
    for i, candidate in enumerate(events):
        if candidate is event:
            return i
    return events.index(event) if event in events else len(events) - 1


DEMO_CONFIG = """# Written by `pbp demo --keep`: the Sunken Keep, played, in pbp.db beside this.
# See it with: pbp serve --config {config}
[bot]
username = "pbp_bot"

[database]
url = "sqlite:///pbp.db"

[[threads]]
id = "{thread}"
campaign = "sunken-keep.toml"
"""


def keep_demo(folder: Path, seed: int = 1) -> Path:
    """The example thread played into a database of its own in ``folder`` (with a config
    and the campaign beside it), where ``pbp serve`` and ``pbp thread show`` read it; the
    config's path. A folder that holds a pbp.db already is refused (``FileExistsError``)."""
    from pbp.forums.local import LocalForum
    from pbp.services.bot import Bot, BotOptions, WatchedThread
    from pbp.services.replay import THREAD as DEMO_THREAD
    from pbp.services.replay import ReplayRun, _Clock
    from pbp.services.seeds import round_seeds
    from pbp.store.database import Store
    from pbp.store.local_posts import SqlLocalStorage

    folder.mkdir(parents=True, exist_ok=True)
    if (folder / "pbp.db").exists():
        raise FileExistsError(folder / "pbp.db")
    source = examples_dir()
    campaign = folder / CAMPAIGN
    campaign.write_bytes((source / CAMPAIGN).read_bytes())
    config = folder / "config.toml"
    config.write_text(DEMO_CONFIG.format(config=config, thread=DEMO_THREAD), encoding="utf-8")
    store = Store(f"sqlite:///{(folder / 'pbp.db').resolve()}")
    store.upgrade()
    clock, storage = _Clock(), SqlLocalStorage(store)
    forum = LocalForum(storage, bot="pbp_bot", clock=clock)
    seeds = round_seeds(f"demo:{seed}")
    bot = Bot(
        store=store,
        forum=forum,
        threads=[WatchedThread(key=DEMO_THREAD, campaign=campaign)],
        options=BotOptions(username="pbp_bot", ack="errors", owner="demo"),
        seed_maker=lambda _thread, number: seeds(number),
    )
    run = ReplayRun(bot=bot, forum=forum, clock=clock, storage=storage)
    try:
        feed_all(run, list(read_events(source / THREAD)))
        run.settle()
    finally:
        store.dispose()
    return config
