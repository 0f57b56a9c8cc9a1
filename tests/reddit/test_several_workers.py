"""Several `pbp run` workers on one database lose nothing and post nothing twice.

Twenty Reddit threads on the fake Reddit, which runs on its real clock (the workers read the
real time). Workers are started a few seconds apart, exactly as a user starts `pbp run`, while a
driver posts steadily across the threads: good tags, typos that need an error reply, `!status`,
and now and then a GM's `!close`. One worker (never the last one started) is killed mid-run with
SIGKILL. Then every post that needs a reply has exactly one (every `!close` exactly one
summary), no reply key shows twice in a thread, no worker ever held much more than its share of
the thread leases while all were alive and settled, and the survivors stop cleanly on SIGTERM.

Four workers share a PostgreSQL database, reached through a TCP proxy that takes it away for
30 s twice while the driver posts: once refusing connections (a server down), once silent
(accepting and never answering: a hung host, a firewall dropping packets). After the second
outage a new worker starts in place of the killed one. Meanwhile the fake Reddit fails now and
then: 5xx answers, 429s, comments and messages it takes and then answers with an error or never
answers, answers slower than the workers' one-second timeout. Two workers share a SQLite file
(no outage, no faults: the control of the lease sharing on SQLite). They are slow (about three
minutes and one): ``pytest -k "not several_workers"`` leaves them out; ``play(...,
workers=1)`` tells a fault of this harness from one of pbp.
"""

from __future__ import annotations

import math
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any, Literal

import pytest
from fake_reddit import FakeComment, FakeReddit, write_praw_ini
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine, make_url
from tcp_proxy import TcpProxy

from pbp.forums.reddit import key_of

pytestmark = pytest.mark.slow

SUB = "MyPbPGame"
HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
BOT = "pbp_bot"
GM = "gm_sam"
THREADS = 20
POLL_SECONDS = 5  # the least the config accepts
DATABASE_TIMEOUT = 3  # seconds a worker waits for the database before it gives the poll up
PRAW_TIMEOUT = 1.0  # seconds a worker waits for Reddit's answer (the fake's slow ones: 2 s)
POSTS_PER_SECOND = 3.0  # in all threads together
START_GAP = (2.0, 4.0)  # seconds between two workers' starts
SAMPLE_EVERY = 0.5
SAMPLE_SECONDS = 20.0  # how long the leases are sampled before the kill
SAMPLES_SETTLED = 6  # of them at least, taken while every worker had settled
SETTLED_POLLS = 2  # a worker's polls before its share of the leases is looked at
OUTAGE_SECONDS = 30.0  # each of the database's two outages (PostgreSQL only)
SETTLE_SECONDS = 45.0  # how long the posts may wait for their replies after the driver stops
STOP_SECONDS = 10.0  # SIGTERM: at most this long, whatever the poll in hand waits for
TAIL_LINES = 25
# Reddit's faults while the driver posts, per request (the token's excepted)
CHAOS = {
    "500": 0.02,
    "429": 0.01,
    "commit_then_502": 0.02,
    "commit_then_timeout": 0.02,
    "slow": 0.02,
    "timeout": 0.01,
}

Kind = Literal["good", "typo", "status", "close"]
KINDS: tuple[Kind, ...] = ("good", "typo", "status", "close")
WEIGHTS = (45, 25, 20, 10)
BODIES: dict[Kind, tuple[str, str]] = {
    "good": ("alice", "Aria swings. [physical: attack Goblin]"),
    "typo": ("bob", "Bram mutters. [mentl: attack Goblin]"),
    "status": ("cara", "!status"),
    "close": (GM, "!close"),
}

CONFIG_HEAD = """
[bot]
username = "{bot}"
poll_seconds = {poll}
[database]
url = "{url}"
timeout_seconds = {timeout}
[forum]
kind = "reddit"
[forum.reddit]
site = "pbp-test"
subreddits = ["{sub}"]
"""
THREAD = """
[[threads]]
id = "{thread}"
campaign = "sunken-keep.toml"
"""


@dataclass(frozen=True)
class Post:
    """A comment the driver posted, and the reply it needs (``good`` needs none)."""

    id: str
    thread: str
    kind: Kind

    def answered_by(self, reply: FakeComment) -> bool:
        """Whether ``reply`` (a live bot comment) is the reply this post needs."""
        if reply.parent_id != f"t1_{self.id}":
            return False
        key = key_of(reply.body) or ""
        match self.kind:
            case "typo":
                return key == f"problems-{self.id}"
            case "status":
                return key == f"{self.id}-1"
            case "close":
                return key.startswith("summary-") and "/part" not in key  # a long one's 1st
            case _:
                return False

    def __str__(self) -> str:
        return f"{self.kind} {self.id} in {self.thread}"


@dataclass
class Worker:
    """A `pbp run` process with its stdout and stderr files."""

    number: int
    process: subprocess.Popen[bytes]
    out: Path
    err: Path
    killed: bool = False

    def tail(self) -> str:
        """The end of its stderr, without the lines naming threads another worker runs."""
        lines = self.err.read_text(errors="replace").splitlines()
        kept = [line for line in lines if not line.lstrip().startswith("skipped: thread")]
        state = "killed" if self.killed else f"exit {self.process.poll()}"
        return "\n".join(
            [
                f"--- worker {self.number} (pid {self.process.pid}, {state}), the last "
                f"{min(TAIL_LINES, len(kept))} of {len(lines)} stderr lines "
                f"({len(lines) - len(kept)} 'skipped: thread' lines left out):",
                *kept[-TAIL_LINES:],
            ]
        )


class Table:
    """A folder pbp runs from: a config for THREADS submissions on the fake, praw.ini, and a
    database (migrated before any worker starts)."""

    def __init__(self, folder: Path, fake: FakeReddit, database_url: str) -> None:
        self.folder, self.fake = folder, fake
        fake.add_subreddit(SUB)
        fake.ratelimit_reset = 1
        self.threads = [
            fake.add_submission(SUB, GM, f"The Sunken Keep, part {n + 1}") for n in range(THREADS)
        ]
        shutil.copy(REPO / "examples" / "sunken-keep.toml", folder / "sunken-keep.toml")
        config = CONFIG_HEAD.format(
            bot=BOT, poll=POLL_SECONDS, url=database_url, sub=SUB, timeout=DATABASE_TIMEOUT
        )
        config += "".join(THREAD.format(thread=t) for t in self.threads)
        (folder / "config.toml").write_text(config, encoding="utf-8")
        write_praw_ini(folder, fake, site="pbp-test")
        self.env = {k: v for k, v in os.environ.items() if k != "PBP_DATABASE_URL"}
        self.env.update(
            PYTHONPATH=str(REPO),
            XDG_CONFIG_HOME=str(folder),
            PRAW_ALLOW_ENDPOINT_OVERRIDE="1",
            PYTHONUNBUFFERED="1",
            PBP_TEST_PRAW_TIMEOUT=str(PRAW_TIMEOUT),
        )
        self.workers: list[Worker] = []
        self.posts: list[Post] = []

    def upgrade_database(self) -> None:
        done = subprocess.run(
            [sys.executable, str(HERE / "pbp_without_sleeps.py"), "db", "upgrade"],
            cwd=self.folder,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == 0, f"pbp db upgrade failed:\n{done.stdout}\n{done.stderr}"

    def start_worker(self) -> None:
        number = len(self.workers)
        out, err = self.folder / f"worker{number}.out", self.folder / f"worker{number}.err"
        with out.open("wb") as stdout, err.open("wb") as stderr:
            process = subprocess.Popen(
                [sys.executable, str(HERE / "pbp_without_sleeps.py"), "run"],
                cwd=self.folder,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=stdout,
                stderr=stderr,
            )
        self.workers.append(Worker(number, process, out, err))

    def kill_worker(self, number: int) -> None:
        """SIGKILL, and reap it: a zombie's pid would still look alive to the other workers."""
        worker = self.workers[number]
        worker.process.send_signal(signal.SIGKILL)
        worker.process.wait(timeout=10)
        worker.killed = True

    def stop_survivors(self) -> list[str]:
        """SIGTERM every live worker; what went wrong with their stopping."""
        survivors = [w for w in self.workers if not w.killed]
        for worker in survivors:
            worker.process.send_signal(signal.SIGTERM)
        problems = []
        for worker in survivors:
            try:
                status = worker.process.wait(timeout=STOP_SECONDS)
            except subprocess.TimeoutExpired:
                problems.append(
                    f"worker {worker.number} still runs {STOP_SECONDS:.0f} s after SIGTERM"
                )
                continue
            if status != 0:
                problems.append(f"worker {worker.number} exited {status} on SIGTERM")
            if "Traceback" in worker.err.read_text(errors="replace"):
                problems.append(f"worker {worker.number} printed a Traceback")
        return problems

    def kill_all(self) -> None:
        for worker in self.workers:
            if worker.process.poll() is None:
                worker.process.kill()
                worker.process.wait()

    def post(self, thread: str, kind: Kind) -> None:
        author, body = BODIES[kind]
        comment = self.fake.add_comment(author, f"t3_{thread}", body)
        self.posts.append(Post(comment, thread, kind))

    def post_planned(self, thread: str, kind: Kind) -> None:
        """A planned post; a ``!close`` only in a thread the bot has answered in already (a
        round closed before the bot first read its thread posts no summary, by design)."""
        if kind == "close" and not any(c.submission_id == thread for c in self.bot_comments()):
            kind = "good"
        self.post(thread, kind)

    def bot_comments(self) -> list[FakeComment]:
        return [c for c in self.fake.comments_by(BOT) if not c.gone]

    def unanswered(self) -> list[Post]:
        replies = self.bot_comments()
        return [
            p for p in self.posts if p.kind != "good" and not any(p.answered_by(r) for r in replies)
        ]

    def reply_problems(self) -> list[str]:
        """Posts without exactly one reply, and keys posted twice in a thread."""
        replies = self.bot_comments()
        problems = []
        for post in self.posts:
            if post.kind == "good":
                continue
            count = sum(post.answered_by(r) for r in replies)
            if count != 1:
                problems.append(f"{post} has {count} replies")
        keys = Counter((r.submission_id, key_of(r.body)) for r in replies)
        problems += [
            f"key {key} posted {n} times in {thread}" for (thread, key), n in keys.items() if n > 1
        ]
        return problems


@dataclass
class LeaseSamples:
    """``SELECT lease_owner, count(*) FROM threads GROUP BY lease_owner``, sampled while every
    worker started has polled a few times (before that, the first one holds every thread)."""

    engine: Engine
    started: Callable[[], int]  # how many workers were started (and not killed) so far
    taken: list[tuple[float, dict[str, int]]] = field(default_factory=list)
    unsettled: int = 0  # samples left out: a worker had not polled enough yet
    last_workers: str = ""  # the workers table at the last sample left out

    def sample(self, at: float) -> None:
        with self.engine.connect() as conn:
            workers = conn.execute(text("SELECT started_at, seen_at FROM workers")).all()
            rows = conn.execute(
                text("SELECT lease_owner, count(*) FROM threads GROUP BY lease_owner")
            ).all()
        # a worker beats at its start and then once every half lease (not every poll): how
        # long it has been up tells how many polls it has had
        now = time.time()
        settled = [
            w for w in workers if now - _seconds(w.started_at) >= SETTLED_POLLS * POLL_SECONDS
        ]
        if len(settled) < self.started():
            self.unsettled += 1
            self.last_workers = f"t={at:5.1f}s {len(settled)} of {self.started()} settled: " + (
                ", ".join(f"{w.started_at}..{w.seen_at}" for w in workers)
            )
            return
        self.taken.append((at, {str(owner): int(n) for owner, n in rows if owner is not None}))

    def most(self) -> int:
        return max((max(counts.values(), default=0) for _, counts in self.taken), default=0)

    def shown(self) -> str:
        return "\n".join(
            [f"  t={at:5.1f}s {counts}" for at, counts in self.taken]
            + [
                f"  ({self.unsettled} samples before every worker had settled; "
                f"the last: {self.last_workers})"
            ]
        )


def _seconds(moment: Any) -> float:
    """A stored time (naive UTC, or SQLite's text of it) in seconds."""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    return float(moment.replace(tzinfo=UTC).timestamp())


@dataclass(order=True)
class Step:
    """Something the test does ``at`` seconds after the first worker starts."""

    at: float
    action: Callable[[], None] = field(compare=False)


@dataclass(frozen=True)
class Outage:
    """The database goes away through the proxy: ``mode`` for OUTAGE_SECONDS, from ``after``
    seconds after the kill (the leases are sampled before it, with every worker polling)."""

    after: float
    mode: Literal["refuse", "silent"]


def plan(
    table: Table,
    samples: LeaseSamples,
    rng: random.Random,
    *,
    workers: int,
    drive: float,
    outages: tuple[Outage, ...] = (),
    proxy: TcpProxy | None = None,
    restart_after: float | None = None,
) -> list[Step]:
    """The timeline: worker starts, lease samples, the kill, the outages and a restart (both
    counted from the kill), and the driver's posts for ``drive`` seconds after the kill."""
    starts = [0.0]
    for _ in range(workers - 1):
        starts.append(starts[-1] + rng.uniform(*START_GAP))
    steps = [Step(at, table.start_worker) for at in starts]
    sampling = starts[-1] + SETTLED_POLLS * POLL_SECONDS
    count = int(SAMPLE_SECONDS / SAMPLE_EVERY)  # the first ones may come before all settled
    steps += [
        Step(at, partial(samples.sample, at))
        for at in (sampling + i * SAMPLE_EVERY for i in range(count))
    ]
    kill = sampling + SAMPLE_SECONDS
    if workers > 1:
        victim = rng.randrange(workers - 1)  # never the last one started
        steps.append(Step(kill, partial(table.kill_worker, victim)))
    for outage in outages:
        assert proxy is not None
        steps.append(Step(kill + outage.after, partial(proxy.set_mode, outage.mode)))
        steps.append(Step(kill + outage.after + OUTAGE_SECONDS, partial(proxy.set_mode, "forward")))
    if restart_after is not None:
        steps.append(Step(kill + restart_after, table.start_worker))
    at = 0.0
    while (at := at + rng.expovariate(POSTS_PER_SECOND)) < kill + drive:
        thread = rng.choice(table.threads)
        [kind] = rng.choices(KINDS, WEIGHTS)
        steps.append(Step(at, partial(table.post_planned, thread, kind)))
    return sorted(steps)


def wait_for(done: Callable[[], bool], *, seconds: float, every: float = 1.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if done():
            return True
        time.sleep(every)
    return done()


def play(
    table: Table,
    lease_url: str,
    *,
    workers: int,
    seed: int,
    drive: float,
    outages: tuple[Outage, ...] = (),
    proxy: TcpProxy | None = None,
    restart_after: float | None = None,
    chaos: dict[str, float] | None = None,
) -> None:
    """Run the workers through the whole timeline; fail with everything that went wrong."""
    for thread in table.threads:
        table.fake.add_comment(GM, f"t3_{thread}", "!group Aria, Bram, Goblin")
    samples = LeaseSamples(
        create_engine(lease_url), started=lambda: sum(not w.killed for w in table.workers)
    )
    steps = plan(
        table,
        samples,
        random.Random(seed),
        workers=workers,
        drive=drive,
        outages=outages,
        proxy=proxy,
        restart_after=restart_after,
    )
    if chaos:
        table.fake.chaos(seed, chaos)
    began = time.monotonic()
    try:
        for step in steps:
            time.sleep(max(0.0, began + step.at - time.monotonic()))
            step.action()
        table.fake.calm()  # what waits goes out now: the faults had their say
        settled = wait_for(lambda: not table.unanswered(), seconds=SETTLE_SECONDS)
        waited = time.monotonic() - began - steps[-1].at
        time.sleep(2 * POLL_SECONDS)  # anything late, or twice, would show now
        problems = []
        if not settled:  # each such post is named below
            problems.append(
                f"{len(table.unanswered())} posts still unanswered {waited:.0f} s "
                "after the driver stopped"
            )
        problems += table.reply_problems()
        limit = math.ceil(THREADS / workers) + 1
        if len(samples.taken) < SAMPLES_SETTLED:
            problems.append(
                f"{len(samples.taken)} lease samples taken while every worker had "
                f"settled (at least {SAMPLES_SETTLED} wanted)"
            )
        if samples.most() > limit:
            problems.append(f"a worker held {samples.most()} leases (at most {limit} allowed)")
        problems += table.stop_survivors()
    finally:
        table.kill_all()
        samples.engine.dispose()
    kinds = Counter(p.kind for p in table.posts)
    faults = Counter(r.fault for r in table.fake.requests if r.fault)
    assert not problems, "\n".join(
        [
            f"{len(table.posts)} posts ({dict(kinds)}), {workers} worker(s), seed {seed}, "
            f"Reddit's faults {dict(faults)}:",
            *problems,
            "lease samples (owner: threads held):",
            samples.shown(),
            *(w.tail() for w in table.workers),
        ]
    )
    if chaos:  # the faults did strike, lost answers among them
        assert faults["commit_then_timeout"] and faults["slow"] and faults["500"], faults


@pytest.mark.postgres
def test_four_workers_on_postgresql_through_two_outages_and_reddits_faults_lose_nothing(
    tmp_path: Path,
    fake_reddit: FakeReddit,
    postgres_database: Any,
) -> None:
    postgres_database.reset()
    direct: str = postgres_database.url
    server = make_url(direct)
    with TcpProxy(server.port or 5432, target_host=server.host or "127.0.0.1") as proxy:
        proxied = server.set(host="127.0.0.1", port=proxy.port).render_as_string(
            hide_password=False
        )
        table = Table(tmp_path, fake_reddit, proxied)
        table.upgrade_database()
        outages = (Outage(5.0, "refuse"), Outage(5.0 + OUTAGE_SECONDS + 10.0, "silent"))
        restart = outages[-1].after + OUTAGE_SECONDS + 5.0
        play(
            table,
            direct,
            workers=4,
            seed=4,
            drive=restart + 10.0,
            outages=outages,
            proxy=proxy,
            restart_after=restart,
            chaos=CHAOS,
        )
        assert proxy.connections > 10  # the workers did go through it


def test_two_workers_on_sqlite_lose_nothing_and_double_nothing(
    tmp_path: Path,
    fake_reddit: FakeReddit,
) -> None:
    table = Table(tmp_path, fake_reddit, "sqlite:///pbp.db")
    table.upgrade_database()
    play(table, f"sqlite:///{tmp_path / 'pbp.db'}", workers=2, seed=2, drive=5.0)
