"""What a running bot asks of Reddit in a day: requests per poll, through real praw.

    python benchmarks/reddit_day.py [--threads 1000] [--hours 24] [--seed 1] [--json FILE]
                                    [--no-turn-board]
    PYTHONPATH=OLDER python benchmarks/reddit_day.py ...   (OLDER: another checkout's folder)

One bot (one worker, a SQLite file) runs THREADS submissions of one subreddit on the fake
Reddit of the tests, polling every 60 s of a simulated clock (the fake's and the bot's, moved
on by the benchmark: a simulated day takes minutes). Each thread gets one post an hour on
average (each minute, a post with probability 1/60), as a table of four players and a GM
writes them:

- 62% a player's turn in a paragraph or two of prose (curly quotes and Markdown emphasis in
  some) with a good tag, 8% a turn whose tag has a mistake (a misspelt verb or an unknown
  target: the bot answers with an error), 18% out-of-character chatter with no tag, 12% the
  GM's narration with an NPC's tag, a third of them closing the round (`!close`); a player
  who has acted this round writes prose without a tag instead of another turn;
- half the mistaken turns are fixed by an edit 2 to 90 minutes later (the bot's error reply is
  then edited to say so), 5% of the good ones are edited too, 1% of all posts are deleted.

Each thread's opening post, the bot's cheat sheet, shows the turn board (the default): it is
edited in each poll that changes who has acted, one write more; ``--no-turn-board`` runs the
same day with ``turn_board = false``.

Every request the fake answers is counted, by kind: the listing (`/r/<sub>/comments`),
re-reads (`/api/info`), comment trees (`/comments/…`), the bot's history (`/user/…`, only when
a lost answer is looked for), the token, and writes (a reply, an edit, a private message,
a delete). Reads are what grows with the number of threads (a write answers one post, whatever
the number of threads); the figures are per poll after the first (the first reads every
thread once, and is shown apart).

What it does not measure: wall time (the fake answers in microseconds, Reddit in hundreds of
milliseconds), Reddit's own faults and rate limits (none are injected here), several workers,
and posts longer than a few paragraphs.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))  # the fake Reddit of the tests

import praw  # noqa: E402
import prawcore.rate_limit  # noqa: E402
import prawcore.sessions  # noqa: E402
from fake_reddit import FakeReddit, SleepRecorder, praw_settings  # noqa: E402

from pbp.forums.reddit import RedditForum  # noqa: E402
from pbp.services.bot import Bot, BotOptions, WatchedThread  # noqa: E402
from pbp.store.database import Store  # noqa: E402

SUB = "PbPTables"
BOT = "pbp_bot"
GM = "gm_sam"
POLL_SECONDS = 60
START = 1_800_000_000.0
PLAYERS = [("alice", "Aria"), ("bob", "Bram"), ("cara", "Cora"), ("dan", "Dax")]
BOARD_AT = 'visibility = "hide-npcs"\n'  # where --no-turn-board adds its line
CAMPAIGN = """
[campaign]
name = "A Day of Tables"
gms = ["gm_sam"]
visibility = "hide-npcs"

[[characters]]
name = "Aria"
player = "alice"
body = 6
mind = 3

[[characters]]
name = "Bram"
player = "bob"
body = 4
mind = 4

[[characters]]
name = "Cora"
player = "cara"
body = 3
mind = 6

[[characters]]
name = "Dax"
player = "dan"
body = 5
mind = 4

[[characters]]
name = "Goblin"
body = 30
mind = 20

[[characters]]
name = "Shaman"
body = 20
mind = 30
"""
PROSE = [
    "{name} grits {pr} teeth and looks for an opening — the torchlight is poor, and the "
    "goblin’s crude blade catches it only now and then.",
    "“Not today,” {name} mutters, shifting {pr} weight onto the back foot. *Patience.*",
    "The floor is slick with something {name} would rather not name. {Name} edges closer to "
    "the wall, keeping the shaman in view, and waits for the chant to falter.",
    "{name} glances back at the others. “Cover me — I’m going in.” **Now or never.**",
    "Rain drums on the broken roof. {name} counts the heartbeats between the shaman’s "
    "gestures, then moves.",
]
GOOD_TAGS = [
    "[mental: attack Shaman]",
    "[move: Goblin]",
    "[mental: attack Goblin]",
    "[move: Shaman, mind]",
]
BAD_TAGS = [
    "[mentl: attack Goblin]",
    "[mental: attack Shamman]",
    "[moev: Goblin]",
    "[mental: attack Ogre]",
]
CHATTER = [
    "(OOC: sorry, busy week — I’ll post properly tomorrow!)",
    "OOC: does the shaman look hurt yet?",
    "Loving this scene, by the way.",
    "(OOC: I’m on my phone, forgive the typos)",
]
NARRATION = "The shaman’s chant rises to a shriek. [mental: attack {target} | as Shaman]"


@dataclass
class Table:
    """One submission and what its players still mean to do (edits and deletes to come)."""

    thread: str
    later: list[tuple[float, str, str]] = field(default_factory=list)  # (when, what, post id)
    acted: set[str] = field(default_factory=set)  # the players who took a turn this round


class Day:
    """The fake Reddit, the bot, the threads, and the requests counted poll by poll."""

    def __init__(self, folder: Path, *, threads: int, seed: int, board: bool = True) -> None:
        self.rng = random.Random(seed)
        self.fake = FakeReddit().start()
        self.fake.add_subreddit(SUB)
        self.fake.set_time(START)
        self.tables = [
            Table(self.fake.add_submission(SUB, GM, f"Table {n}")) for n in range(threads)
        ]
        campaign = folder / "day.toml"
        text = CAMPAIGN if board else CAMPAIGN.replace(BOARD_AT, BOARD_AT + "turn_board = false\n")
        campaign.write_text(text, encoding="utf-8")
        store = Store(f"sqlite:///{folder / 'pbp.db'}")
        store.upgrade()
        reddit = praw.Reddit(**praw_settings(self.fake))
        try:  # the bot's clock is the fake's
            forum = RedditForum(reddit, subreddits=[SUB], bot=BOT, clock=self.fake.now)
        except TypeError:  # a pbp from before the forum took a clock (PYTHONPATH=older/)
            forum = RedditForum(reddit, subreddits=[SUB], bot=BOT)
        self.bot = Bot(
            store=store,
            forum=forum,
            threads=[WatchedThread(key=t.thread, campaign=campaign) for t in self.tables],
            options=BotOptions(username=BOT, owner="day"),
        )
        self.posts = Counter[str]()

    def stop(self) -> None:
        self.fake.stop()

    # -- the players -----------------------------------------------------------------------------

    def minute(self) -> None:
        """A minute of the tables: new posts, and the edits and deletes that fall due."""
        now = self.fake.now()
        for table in self.tables:
            due = [item for item in table.later if item[0] <= now]
            for item in due:
                table.later.remove(item)
                _, what, post = item
                if what == "delete":
                    self.fake.delete_comment(post)
                else:
                    self.fake.edit_comment(post, what)
                self.posts["edit" if what != "delete" else "delete"] += 1
            if self.rng.random() < 1 / 60:
                self.post(table, now)

    def post(self, table: Table, now: float) -> None:
        rng = self.rng
        kind = rng.choices(["good", "mistake", "chatter", "gm"], [62, 8, 18, 12])[0]
        player, name = rng.choice(PLAYERS)
        prose = " ".join(
            p.format(name=name, Name=name, pr="her") for p in rng.sample(PROSE, rng.randint(1, 3))
        )
        if kind in ("good", "mistake") and player in table.acted:
            kind = "prose"  # acted already this round: more of the story, no tag
        if kind in ("good", "mistake"):
            table.acted.add(player)
        if kind == "good":
            body = f"{prose} {rng.choice(GOOD_TAGS)}"
        elif kind == "prose":
            body = prose
        elif kind == "mistake":
            body = f"{prose} {rng.choice(BAD_TAGS)}"
        elif kind == "chatter":
            body = rng.choice(CHATTER)
        else:
            player = GM
            body = NARRATION.format(target=rng.choice(PLAYERS)[1])
            if rng.random() < 1 / 3:
                body += "\n\n!close"
                kind = "close"
                table.acted.clear()
        post = self.fake.add_comment(player, f"t3_{table.thread}", body)
        self.posts[kind] += 1
        if kind == "mistake" and rng.random() < 0.5:
            fixed = f"{prose} {rng.choice(GOOD_TAGS)}"
            table.later.append((now + rng.uniform(2, 90) * 60, fixed, post))
        elif kind == "good" and rng.random() < 0.05:
            table.later.append((now + rng.uniform(2, 240) * 60, body + " (edited: typo)", post))
        if rng.random() < 0.01:
            table.later.append((now + rng.uniform(1, 120) * 60, "delete", post))

    # -- the bot ---------------------------------------------------------------------------------

    def poll(self) -> Counter[str]:
        self.fake.clear_log()
        report = self.bot.poll_once(datetime.fromtimestamp(self.fake.now(), UTC))
        if report.errors or report.failed:
            raise SystemExit(f"the poll failed: {report.errors or report.failed}")
        return Counter(_kind(r.method, r.path) for r in self.fake.requests)


WRITES = ("/api/comment", "/api/editusertext", "/api/compose", "/api/del")


def _kind(method: str, path: str) -> str:
    if path.startswith(WRITES):
        return "write"
    for prefix, kind in (
        ("/r/", "listing"),
        ("/api/info", "reread"),
        ("/comments/", "tree"),
        ("/user/", "history"),
        ("/api/v1/access_token", "token"),
        ("/api/morechildren", "tree"),
        ("/message/", "history"),
    ):
        if path.startswith(prefix):
            return kind
    return f"other {method} {path}"


def run(*, threads: int, hours: float, seed: int, board: bool = True) -> dict[str, object]:
    for module in (prawcore.sessions, prawcore.rate_limit):
        module.time = SleepRecorder()  # type: ignore[attr-defined]
    with tempfile.TemporaryDirectory() as folder:
        day = Day(Path(folder), threads=threads, seed=seed, board=board)
        try:
            began = time.perf_counter()
            first = day.poll()
            polls: list[Counter[str]] = []
            for _ in range(int(hours * 3600 / POLL_SECONDS)):
                day.fake.advance(POLL_SECONDS)
                day.minute()
                polls.append(day.poll())
            seconds = time.perf_counter() - began
        finally:
            day.stop()
    reads = [sum(n for k, n in p.items() if k not in ("write", "token")) for p in polls]
    kinds = sum(polls, Counter())
    return {
        "threads": threads,
        "hours": hours,
        "polls": len(polls),
        "posts": dict(day.posts),
        "first_poll": dict(first),
        "reads_per_poll": round(statistics.fmean(reads), 3),
        "reads_p99": sorted(reads)[int(0.99 * (len(reads) - 1))],
        "writes_per_poll": round(kinds["write"] / len(polls), 3),
        "all_per_poll": round(sum(kinds.values()) / len(polls), 3),
        "by_kind_per_poll": {k: round(n / len(polls), 3) for k, n in sorted(kinds.items())},
        "seconds": round(seconds, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=1000)
    parser.add_argument("--hours", type=float, default=24.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument(
        "--no-turn-board",
        action="store_true",
        help="the campaign with turn_board = false (no edits of the opening posts)",
    )
    args = parser.parse_args()
    figures = run(
        threads=args.threads, hours=args.hours, seed=args.seed, board=not args.no_turn_board
    )
    print(json.dumps(figures, indent=1))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
