"""What a live bot's poll costs when one of its threads has one new post: statements,
transactions and CPU per post, on a SQLite file and on PostgreSQL.

    python benchmarks/live_poll.py [POLLS] [--postgres ADMIN_URL] [--before DIR] [--runs N]
                              [--threads N] [--where] [--phases] [--floor]
                              [--instructions]
                                            (default: 500 polls, 50 threads, 3 runs, SQLite only)

Input: 50 threads of the local forum, each opened with the first 20 to 29 posts of its own
``corpus.thread_events`` thread (realistic players' posts, the GM's close every tenth post,
each thread with its own campaign file of ``corpus.CAMPAIGN``), all read and answered by a
first poll of one bot in one process (``Bot.poll_once``, what `pbp run`'s scheduler calls; then
what the first poll left is set aside from the garbage collector, as `pbp run` does, in the
code that has ``pbp.services.lasting``), then 50 polls with one new post each (one per thread:
every state cached, every template compiled), begun once the campaign files have settled (2.5 s
after they were written: a running bot's were written long before; a file changed in the last 2
s is read again at each look, as its timestamps cannot yet tell a later change). Measured:
POLLS more polls on a simulated clock (a minute apart), each after exactly one new post, in the
threads in turn (a live bot at a 60 s poll sees under one post a poll). Each thread's next post
is its next in the corpus (edits left out): the threads stand at different points of a round,
so about one poll in ten closes one. ``--threads N`` runs N threads instead of 50: with fewer
threads and more polls, one process plays each thread further (``--threads 10`` and 4,000
polls: 400 posts, some 40 rounds a thread), as a `pbp run` of weeks does; the columns ``1st``
and ``last`` are the statements a poll in the first and the last tenth of the polls (a cost
that grows as the process ages shows there).

Counted through SQLAlchemy's engine events on every engine of the store, the local forum's
plain connections (its listing, the delivery's transaction) included: statements (every
``before_cursor_execute``; SQLite's ``BEGIN IMMEDIATE`` goes to the driver and is counted as
the transaction it begins), transactions (``begin``) and commits (``commit``), and the
process's CPU (``time.process_time``) and wall time per poll. ``--postgres ADMIN_URL`` also
runs it on a PostgreSQL database made for the run (and dropped after it) on that server;
``--before DIR`` runs the pbp in DIR (another checkout) the same way, first, in the same run,
and prints the ratios. Each is run ``--runs`` times, in turns, and its least CPU and wall
time kept (the counts are the same in every run). ``--where`` prints which code sent the
statements of a poll. ``--phases`` prints where a poll's CPU went (in the first of the
runs): the engine's step, the replies' rendering, the planned statements (their values, the
driver, their rows; a statement sent while a reply renders counts here), the driver's
commits, and the rest of the poll (the ingest, the claims, the delivery, SQLAlchemy's
connection and transaction, the file checks); the clocks read around each add about 3% to a
poll of this code and more where more statements are sent (take CPU figures and ratios from
a run without it), and code without one of those functions counts it in the rest.
``--floor`` (on the SQLite file) sends the statements of the measured polls again through the
bare driver (``sqlite3``, one cursor, the store's pragmas, each transaction begun as the
store begins it), on a copy of the database as those polls began, and prints what they and
the commits cost there: the database's own work in a poll, which no code above the driver can
go below (its recording adds a little to each statement of the run it is in).
``--instructions`` also counts the instructions of a poll (``instructions.py``, under
valgrind: a count a busy machine does not move, where one run's CPU time moves by 10-20%), on
the SQLite file: those of ``Bot.poll_once`` alone (what the CPU time measures too), the mean
of the POLLS polls (about five minutes a run for 100 polls).

It does not measure: the database server's own CPU (only this process's), the forum's own
posting of the new posts (outside the polls), Reddit (praw, its requests), several workers,
a poll with several posts, edits or deletes, start-up, nor a thread's first read.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
THREADS, OPENING = 50, 20
sys.path.insert(0, str(HERE))

import instructions  # noqa: E402

CHILD = r"""
import json, sys, time, tempfile, traceback
from collections import Counter
from datetime import timedelta
from pathlib import Path
from sqlalchemy import event
sys.path.insert(0, sys.argv[1])
import corpus
from pbp.forums.local import LocalForum
from pbp.services.bot import Bot, BotOptions, WatchedThread
from pbp.store.database import Store
from pbp.store.local_posts import SqlLocalStorage
try:
    from pbp.services import lasting
except ImportError:  # code from before it: `pbp run` set nothing aside
    lasting = None

url, polls, threads, opening, where = sys.argv[2], *map(int, sys.argv[3:6]), sys.argv[6] == "1"
phases = sys.argv[7] == "1"
floor = sys.argv[8] == "1"  # (a SQLite file only)
folder = Path(tempfile.mkdtemp())
if not url:
    url = f"sqlite:///{folder / 'pbp.db'}"
store = Store(url)
store.upgrade()
clock = [corpus.START]
forum = LocalForum(SqlLocalStorage(store), bot="pbp_bot", clock=lambda: clock[0])
watched = []
for i in range(threads):
    campaign = folder / f"c{i}.toml"
    campaign.write_text(corpus.CAMPAIGN.replace('"Realistic"', f'"Realistic {i}"'))
    watched.append(WatchedThread(key=f"t{i}", campaign=campaign))
written = time.time()
bot = Bot(store=store, forum=forum, threads=watched,
          options=BotOptions(username="pbp_bot", owner="live"))
streams = [(e for e in corpus.thread_events(10_000, seed=i) if e["type"] == "post")
           for i in range(threads)]
for i, stream in enumerate(streams):
    for _ in range(opening + i % 10):
        e = next(stream)
        forum.post(thread=f"t{i}", author=e["author"], body=e["body"], at=clock[0])
clock[0] += timedelta(minutes=1)
bot.poll_once(clock[0])
if lasting is not None:  # what `pbp run` does after its first poll
    lasting.set_aside(collect=True)

sent = Counter()
places = Counter()
def _where():
    for frame in reversed(traceback.extract_stack()[:-3]):
        if "/pbp/" in frame.filename and "/pbp/store/" not in frame.filename:
            return f"{Path(frame.filename).name}:{frame.name}"
    return "?"
def statement(*args):
    sent["statements"] += 1
    if where:
        places[_where() + " " + " ".join(str(args[2]).split()[:3])] += 1
def begin(*args):
    sent["transactions"] += 1
    if where:
        places[_where() + " (BEGIN)"] += 1
def commit(*args):
    sent["commits"] += 1
counting = [False]
for engine in store.engines:
    event.listen(engine, "before_cursor_execute", lambda *a: counting[0] and statement(*a))
    event.listen(engine, "begin", lambda *a: counting[0] and begin(*a))
    event.listen(engine, "commit", lambda *a: counting[0] and commit(*a))

# --phases: the CPU of each part of a poll, each counted once (a statement sent while a reply
# is rendered counts as the statement's), by wrapping the functions that do it
spent = Counter()
inside = []  # the phases open, innermost last, and when the innermost was last charged
def _charge(now):
    if inside:
        spent[inside[-1][0]] += now - inside[-1][1]
REST = "the rest"  # the poll itself: every part is counted only inside it
def _timed(phase, function):
    def timed(*args, **kwargs):
        if not inside and phase != REST:  # outside a poll (the forum's posting of the next post)
            return function(*args, **kwargs)
        now = time.process_time_ns()
        _charge(now)
        inside.append([phase, now])
        try:
            return function(*args, **kwargs)
        finally:
            now = time.process_time_ns()
            _charge(now)
            inside.pop()
            if inside:
                inside[-1][1] = now
    return timed
def _wrap(module_name, owner_name, name, phase):
    import importlib
    try:
        owner = importlib.import_module(module_name)
        if owner_name:
            owner = getattr(owner, owner_name)
        setattr(owner, name, _timed(phase, getattr(owner, name)))
    except (ImportError, AttributeError):  # code without that function: not counted apart
        pass
if phases:
    _wrap("pbp.services.cycle", None, "step", "the engine's step")
    _wrap("pbp.services.cycle", "ThreadCycle", "_render", "rendering")
    for module in ("pbp.store.execute", "pbp.store.local_posts"):
        _wrap(module, None, "execute", "statements (planned: values, driver, rows)")
    _wrap("sqlalchemy.engine.default", "DefaultDialect", "do_commit", "the driver's commit")
    _wrap("pbp.services.bot", "Bot", "poll_once", REST)

def one_poll(n):
    i = n % threads
    e = next(streams[i])
    forum.post(thread=f"t{i}", author=e["author"], body=e["body"], at=clock[0])
    clock[0] += timedelta(minutes=1)
    counting[0] = True
    cpu, wall = time.process_time(), time.perf_counter()
    sys.getswitchinterval()  # the poll's instructions are counted from here (--instructions)
    report = bot.poll_once(clock[0])
    sys.is_finalizing()  # to here
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    counting[0] = False
    assert report.events == 1 and not report.errors, report
    return cpu, wall, sum(len(d) for d in report.delivered.values())

# a running bot's campaign files were written long before its polls: settled (SETTLED_NS in
# pbp.services.campaign_files), a file is not read again while its look is the same
time.sleep(max(0.0, written + 2.5 - time.time()))
for n in range(threads):  # warm: every thread polled with one new post
    one_poll(n)
sent.clear()
places.clear()
spent.clear()
# --floor: the database as the measured polls begin, and every statement sent from then on
# (in a poll or not), to send again through the bare driver once the bot is done
said = []
if floor:
    import sqlite3
    now, kept = sqlite3.connect(folder / "pbp.db"), sqlite3.connect(folder / "floor.db")
    now.backup(kept)
    now.close()
    kept.close()
    def _said(conn, cursor, sql, parameters, context, many):
        said.append((sql, parameters, many, counting[0]))
    def _committed(*args):
        said.append(("COMMIT", None, False, counting[0]))
    def _rolled_back(*args):
        said.append(("ROLLBACK", None, False, counting[0]))
    recorders = {"before_cursor_execute": _said, "commit": _committed, "rollback": _rolled_back}
    for engine in store.engines:
        for name, recorder in recorders.items():
            event.listen(engine, name, recorder)
per_poll, cpu_total, wall_total, replies = [], 0.0, 0.0, 0
for n in range(polls):
    before = sent["statements"], sent["transactions"]
    cpu, wall, done = one_poll(n)
    per_poll.append((sent["statements"] - before[0], sent["transactions"] - before[1]))
    cpu_total, wall_total, replies = cpu_total + cpu, wall_total + wall, replies + done
for engine in store.engines if floor else ():
    for name, recorder in recorders.items():
        event.remove(engine, name, recorder)
bot.release_leases()
store.dispose()

# --floor: the CPU a poll's statements and commit cost sent again through the bare driver, on
# a copy of the database as the measured polls began, by kind of statement (ms a poll; the
# least of three sendings). The statements between the polls are sent too, not counted.
def _bare_driver():
    import shutil
    least = {}
    for _ in range(3):
        copy = folder / "floor-copy.db"
        shutil.copy(folder / "floor.db", copy)
        con = sqlite3.connect(copy, isolation_level=None)
        for pragma in ("foreign_keys=ON", "journal_mode=WAL", "synchronous=NORMAL"):
            con.execute(f"PRAGMA {pragma}")
        cursor, open_, cost = con.cursor(), False, Counter()
        for sql, parameters, many, in_poll in said:
            began = time.process_time_ns()
            if sql in ("COMMIT", "ROLLBACK"):
                if open_:
                    con.execute(sql)
                open_, kind = False, sql
            else:
                if not open_:
                    con.execute("BEGIN IMMEDIATE")  # (as the store begins each transaction)
                    open_ = True
                kind = sql.split(None, 1)[0].upper()
                if many:
                    cursor.executemany(sql, parameters)
                else:
                    cursor.execute(sql, parameters)
                    if cursor.description is not None:
                        cursor.fetchall()
            if in_poll:
                cost[kind] += time.process_time_ns() - began
        con.close()
        for kind, ns in cost.items():
            least[kind] = min(least.get(kind, ns), ns)
        copy.unlink()
    return {kind: ns / polls / 1e6 for kind, ns in least.items()}

print(json.dumps({**sent, "polls": polls, "cpu": cpu_total, "wall": wall_total,
                  "floor": _bare_driver() if floor else {},
                  "replies": replies, "per_poll": per_poll,
                  "places": places.most_common(60), "phases": dict(spent)}))
"""


def _postgres_database(admin_url: str) -> tuple[str, Any]:
    """A database made for this run on the server of ``admin_url``; its URL, and the
    function that drops it."""
    import secrets

    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    name = f"pbp_bench_{secrets.token_hex(6)}"
    with admin.connect() as conn:
        conn.execute(text(f"CREATE DATABASE {name}"))

    def drop() -> None:
        with admin.connect() as conn:
            conn.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin.dispose()

    return make_url(admin_url).set(database=name).render_as_string(hide_password=False), drop


def _child(
    url: str,
    polls: int,
    *,
    where: bool,
    threads: int = THREADS,
    phases: bool = False,
    floor: bool = False,
) -> list[str]:
    return [
        sys.executable,
        "-c",
        CHILD,
        str(HERE),
        url,
        str(polls),
        str(threads),
        str(OPENING),
        "1" if where else "0",
        "1" if phases else "0",
        "1" if floor and not url else "0",  # (SQLite only)
    ]


def _env(source: str | None) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = source or str(HERE.parent)
    return env


def per_poll_instructions(polls: int, source: str | None, *, threads: int = THREADS) -> float:
    """The instructions of one poll (``Bot.poll_once`` alone), on a SQLite file: the mean of
    the ``polls`` measured, after the warm ones."""
    child = _child("", polls, where=False, threads=threads)
    counts = instructions.count_each(child, cwd="/", env=_env(source))
    if len(counts) != threads + polls:
        sys.exit(
            f"{len(counts)} polls counted, not {threads} warm and {polls} measured (none: "
            "valgrind cannot read this interpreter's symbols, a stripped build)"
        )
    return sum(counts[threads:]) / polls


def run(
    url: str,
    polls: int,
    source: str | None,
    *,
    where: bool,
    threads: int = THREADS,
    phases: bool = False,
    floor: bool = False,
) -> dict[str, Any]:
    """The benchmark in a new process, on the pbp in ``source`` (None: this checkout)."""
    done = subprocess.run(
        _child(url, polls, where=where, threads=threads, phases=phases, floor=floor),
        capture_output=True,
        text=True,
        env=_env(source),
        cwd="/",
    )
    if done.returncode != 0:
        sys.exit(f"the bot failed:\n{done.stderr}")
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def _option(args: list[str], name: str) -> str | None:
    if name not in args:
        return None
    at = args.index(name)
    value = args[at + 1]
    del args[at : at + 2]
    return value


def _line(label: str, got: dict[str, Any]) -> str:
    polls = got["polls"]
    each = [s for s, _ in got["per_poll"]]
    counts = sorted(each)
    tenth = max(1, len(each) // 10)
    first, last = sum(each[:tenth]) / tenth, sum(each[-tenth:]) / tenth
    return (
        f"  {label:<24} {got['statements'] / polls:>6.2f} {got['transactions'] / polls:>6.2f} "
        f"{got['commits'] / polls:>6.2f} {counts[len(counts) // 2]:>4} {counts[-1]:>4} "
        f"{first:>6.2f} {last:>6.2f} "
        f"{got['cpu'] / polls * 1000:>7.2f} {got['wall'] / polls * 1000:>7.2f}"
    )


def _print_phases(got: dict[str, Any]) -> None:
    """Where a poll's CPU went (``--phases``: this run's, not its fastest), in ms a poll."""
    spent, polls = got["phases"], got["polls"]
    total = sum(spent.values())
    if not total:
        return
    for phase, ns in sorted(spent.items(), key=lambda kv: -kv[1]):
        print(f"      {ns / polls / 1e6:6.3f} ms  {100 * ns / total:4.1f}%  {phase}")


def _print_floor(got: dict[str, Any]) -> None:
    """What the same statements and commits cost through the bare driver (``--floor``)."""
    spent = got["floor"]
    if not spent:
        return
    kinds = ", ".join(
        f"{kind} {ms:.3f}" for kind, ms in sorted(spent.items(), key=lambda kv: -kv[1])
    )
    total = sum(spent.values())
    print(f"      {total:6.3f} ms  the same statements through the bare driver ({kinds})")


def main() -> None:
    args = sys.argv[1:]
    before = _option(args, "--before")
    postgres = _option(args, "--postgres")
    runs = int(_option(args, "--runs") or 3)
    threads = int(_option(args, "--threads") or THREADS)
    where = "--where" in args
    phases = "--phases" in args
    floor = "--floor" in args
    counting = "--instructions" in args
    if counting and not instructions.available():
        sys.exit("--instructions needs valgrind (apt-get install valgrind)")
    args = [a for a in args if a not in ("--where", "--instructions", "--phases", "--floor")]
    polls = int(args[0]) if args else 500
    databases: list[tuple[str, str | None]] = [("SQLite file", None)]
    if postgres:
        databases.append(("PostgreSQL", postgres))
    print(
        f"{threads} threads, {polls} polls of one new post each\n"
        f"  {'':<24} {'stmts':>6} {'txns':>6} {'cmts':>6} {'med':>4} {'max':>4} "
        f"{'1st':>6} {'last':>6} {'cpu ms':>7} {'wall ms':>7}"
        "   (per poll; med, max, 1st and last tenth: statements)"
    )
    for name, admin in databases:
        print(name)
        sources = ([before] if before else []) + [None]
        found: dict[str | None, dict[str, Any]] = {}
        for _ in range(runs):  # in turns, each source's fastest run kept
            for source in sources:
                url, drop = _postgres_database(admin) if admin else ("", None)
                try:
                    got = run(
                        url,
                        polls,
                        source,
                        where=where,
                        threads=threads,
                        phases=phases,
                        floor=floor,
                    )
                finally:
                    if drop is not None:
                        drop()
                kept = found.setdefault(source, got)
                kept["cpu"], kept["wall"] = (
                    min(kept["cpu"], got["cpu"]),
                    min(kept["wall"], got["wall"]),
                )
        for source in sources:
            got = found[source]
            print(_line(f"before ({source})" if source else "this checkout", got), flush=True)
            if where:
                for place, count in got["places"]:
                    print(f"      {count / polls:6.2f}  {place}")
            if phases:
                _print_phases(got)
            if floor:
                _print_floor(got)
        if before:
            old, new = found[before], found[None]
            print(
                "  before / this checkout:"
                f" statements {old['statements'] / new['statements']:.2f}x,"
                f" transactions {old['transactions'] / new['transactions']:.2f}x,"
                f" CPU per post {old['cpu'] / new['cpu']:.2f}x,"
                f" wall per post {old['wall'] / new['wall']:.2f}x"
            )
    if counting:
        print("instructions a poll (SQLite file; user space, valgrind):")
        sources = ([before] if before else []) + [None]
        counted = {
            source: per_poll_instructions(polls, source, threads=threads) for source in sources
        }
        for source, each in counted.items():
            print(f"  {f'before ({source})' if source else 'this checkout':<24} {each:>14,.0f}")
        if before:
            print(f"  before / this checkout: {counted[before] / counted[None]:.2f}x")


if __name__ == "__main__":
    main()
