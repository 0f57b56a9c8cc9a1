"""The store contract, part 2: the repository (post versions, the event log, rounds, the
outbox, cursors and projections). Each test runs on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
from sql_counter import counting
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from pbp.store import Store
from pbp.store.inbox import Inbox
from pbp.store.leases import Leases
from pbp.store.records import ThreadChanges
from pbp.store.repository import LEDGER_PAGE, CharacterState, Repository
from pbp.store.schema import PostVersionRow, ThreadRow

T0 = datetime(2026, 11, 29, 10, 0, tzinfo=UTC)
NewThread = Callable[..., int]


def minutes(n: float) -> datetime:
    return T0 + timedelta(minutes=n)


def add_version(
    repo: Repository,
    thread_id: int,
    post_id: str,
    version: int,
    *,
    author: str = "alice",
    body: str | None = "text",
    deleted: bool = False,
    outcome: str = "handled",
    detail: str | None = None,
) -> None:
    repo.add_version(
        thread_id=thread_id,
        post_id=post_id,
        version=version,
        author=author,
        body=body,
        body_hash=f"hash-{post_id}-{version}",
        written_at=T0,
        seen_at=T0,
        deleted=deleted,
        outcome=outcome,
        detail=detail,
    )


# -- post versions and processed posts --------------------------------------------------------


def test_known_posts_gives_the_newest_version_of_the_posts_asked(
    store: Store, new_thread: NewThread
) -> None:
    tid, other = new_thread("keep-1"), new_thread("keep-2")
    with store.session() as s:
        repo = Repository(s)
        add_version(repo, tid, "p1", 2, body="second")
        add_version(repo, tid, "p1", 1, body="first")
        add_version(repo, tid, "p1", 3, body=None, deleted=True)
        add_version(repo, tid, "p2", 1, author="bob")
        add_version(repo, tid, "p3", 1)
        add_version(repo, other, "p4", 1)

    with store.session() as s:
        known = Repository(s).known_posts(tid, ["p1", "p2", "p2", "p4", "never"])

    assert sorted(known) == ["p1", "p2"]
    assert (known["p1"].version, known["p1"].body_hash, known["p1"].deleted) == (
        3,
        "hash-p1-3",
        True,
    )
    assert (known["p2"].version, known["p2"].author) == (1, "bob")


def test_known_posts_answers_for_more_ids_than_one_batch(
    store: Store, new_thread: NewThread
) -> None:
    tid = new_thread()
    with store.session() as s:
        repo = Repository(s)
        for n in range(1, 1201):
            add_version(repo, tid, f"p{n}", 1)
        for n in range(2, 1201, 2):
            add_version(repo, tid, f"p{n}", 2)
    asked = [f"p{n}" for n in range(200, 1301)]  # 1101 ids: three batches; 100 never seen

    with store.session() as s:
        known = Repository(s).known_posts(tid, asked)
        assert Repository(s).known_posts(tid, []) == {}

    assert set(known) == {f"p{n}" for n in range(200, 1201)}
    assert all(k.version == (2 if int(k.post_id[1:]) % 2 == 0 else 1) for k in known.values())


def test_purge_forgets_every_text_of_a_post_and_keeps_its_hashes(
    store: Store, new_thread: NewThread
) -> None:
    tid = new_thread()
    with store.session() as s:
        repo = Repository(s)
        add_version(repo, tid, "p1", 1, body="first")
        add_version(repo, tid, "p1", 2, body="second")
        add_version(repo, tid, "p2", 1, body="kept")

    with store.session() as s:
        Repository(s).purge(tid, "p1")

    with store.session() as s:
        rows = s.scalars(select(PostVersionRow).order_by(PostVersionRow.id)).all()
        assert [(r.post_id, r.version, r.body, r.body_hash, r.purged) for r in rows] == [
            ("p1", 1, None, "hash-p1-1", True),
            ("p1", 2, None, "hash-p1-2", True),
            ("p2", 1, "kept", "hash-p2-1", False),
        ]


def test_the_database_refuses_a_second_version_row_with_the_same_number(
    store: Store, new_thread: NewThread
) -> None:
    tid = new_thread()
    with store.session() as s:
        add_version(Repository(s), tid, "p1", 1)

    with pytest.raises(IntegrityError), store.session() as s:
        add_version(Repository(s), tid, "p1", 1)


def processed(s: Session, thread_id: int, post_id: str, version: int) -> bool:
    """Whether that version of the post was handled already."""
    return (
        s.scalars(
            select(PostVersionRow.id).where(
                PostVersionRow.thread_id == thread_id,
                PostVersionRow.post_id == post_id,
                PostVersionRow.version == version,
            )
        ).first()
        is not None
    )


def test_a_post_version_counts_as_processed_once_recorded_with_its_outcome(
    store: Store, new_thread: NewThread
) -> None:
    tid, other = new_thread("keep-1"), new_thread("keep-2")
    with store.session() as s:
        repo = Repository(s)
        assert not processed(s, tid, "p1", 1)
        add_version(repo, tid, "p1", 1)
        add_version(repo, tid, "p2", 1, outcome="failed", detail="bad tag")

    with store.session() as s:
        assert processed(s, tid, "p1", 1)
        assert not processed(s, tid, "p1", 2)
        assert not processed(s, other, "p1", 1)
        outcomes = s.execute(
            select(PostVersionRow.post_id, PostVersionRow.outcome, PostVersionRow.detail)
            .where(PostVersionRow.thread_id == tid)
            .order_by(PostVersionRow.post_id)
        )
        assert [tuple(r) for r in outcomes] == [
            ("p1", "handled", None),
            ("p2", "failed", "bad tag"),
        ]


# -- the event log ----------------------------------------------------------------------------


def log(store: Store, key: str, kind: str, post_id: str | None, version: int | None) -> int:
    with store.session() as s:
        repo = Repository(s)
        thread = repo.thread("local", key)
        assert thread is not None
        leases = Leases(s)
        leases.claim(thread.id, owner="w", now=T0, until=minutes(10))
        held = leases.hold(thread.id, owner="w")
        assert held is not None
        changes = ThreadChanges.of(held)
        changes.last_seq += 1  # the caller numbers the thread's events
        repo.log_event(
            thread.id,
            seq=changes.last_seq,
            kind=kind,
            post_id=post_id,
            version=version,
            at=minutes(1),
        )
        leases.keep(thread.id, changes)
        return changes.last_seq


def test_events_are_numbered_per_thread(store: Store, new_thread: NewThread) -> None:
    new_thread("keep-1")
    new_thread("keep-2")

    numbers = [
        log(store, "keep-1", "post", "p1", 1),
        log(store, "keep-2", "post", "q1", 1),
        log(store, "keep-1", "tick", None, None),
        log(store, "keep-1", "edit", "p1", 2),
        log(store, "keep-2", "tick", None, None),
    ]

    assert numbers == [1, 1, 2, 3, 2]


def test_events_after_come_in_order_with_their_post_text(
    store: Store, new_thread: NewThread
) -> None:
    tid = new_thread("keep-1")
    other = new_thread("keep-2")
    with store.session() as s:
        repo = Repository(s)
        add_version(repo, tid, "p1", 1, author="alice", body="[physical: attack Goblin]")
        add_version(repo, tid, "p1", 2, author="alice", body="[mental: study Ogre]")
        add_version(repo, tid, "p2", 1, author="bob", body="secret")
        add_version(repo, other, "p1", 1, author="cara", body="elsewhere")
    log(store, "keep-1", "post", "p1", 1)
    log(store, "keep-1", "post", "p2", 1)
    log(store, "keep-1", "tick", None, None)
    log(store, "keep-1", "edit", "p1", 2)
    log(store, "keep-2", "post", "p1", 1)
    with store.session() as s:
        Repository(s).purge(tid, "p2")

    with store.session() as s:
        events = Repository(s).events_after(tid, 1)

    assert [(e.seq, e.kind, e.post_id, e.author, e.body) for e in events] == [
        (2, "post", "p2", "bob", None),
        (3, "tick", None, None, None),
        (4, "edit", "p1", "alice", "[mental: study Ogre]"),
    ]
    assert all(e.at == minutes(1) and e.at.tzinfo is UTC for e in events)


# -- rounds and seeds -------------------------------------------------------------------------


def test_rounds_keep_their_seeds_summaries_and_ledgers(store: Store, new_thread: NewThread) -> None:
    tid, other = new_thread("keep-1"), new_thread("keep-2")
    with store.session() as s:
        repo = Repository(s)
        for number in (2, 1, 3):  # stored out of order: the answers go by round number
            assert repo.round_seed(tid, number, new=f"seed-{number}") == f"seed-{number}"
        repo.round_seed(other, 1, new="other-seed")
        # a round chosen before keeps its seed (its seal may be out): the new one is dropped
        assert repo.round_seed(tid, 2, new="another") == "seed-2"

    with store.session() as s:
        repo = Repository(s)
        repo.close_round(
            thread_id=tid, number=2, closed_by="deadline", closed_at=minutes(90), summary="round 2"
        )
        repo.close_round(
            thread_id=tid, number=1, closed_by="gm_sam", closed_at=None, summary="round 1"
        )
        repo.save_round_ledger(tid, 2, '{"round": 2}')
        repo.save_round_ledger(tid, 1, '{"round": 1}')
        repo.save_round_ledger(tid, 9, '{"round": 9}')  # no such round: nothing kept
        with pytest.raises(KeyError):
            repo.close_round(thread_id=tid, number=9, closed_by=None, closed_at=None, summary="x")

    with store.session() as s:
        repo = Repository(s)
        assert repo.seeds(tid) == {1: "seed-1", 2: "seed-2", 3: "seed-3"}
        assert repo.seeds(other) == {1: "other-seed"}
        assert repo.summaries(tid) == {1: "round 1", 2: "round 2"}
        assert repo.summaries(other) == {}
        assert repo.summaries(tid, numbers=[2, 3]) == {2: "round 2"}
        assert list(repo.round_ledgers(tid)) == ['{"round": 1}', '{"round": 2}']


def test_a_long_threads_round_ledgers_come_a_page_at_a_time_in_order(
    store: Store, new_thread: NewThread
) -> None:
    tid, other = new_thread("keep-1"), new_thread("keep-2")
    count = 2 * LEDGER_PAGE + 7  # two whole pages and a part
    with store.session() as s:
        repo = Repository(s)
        for number in reversed(range(1, count + 1)):
            repo.round_seed(tid, number, new=f"seed-{number}")
            repo.round_seed(other, number, new=f"other-{number}")
        for number in range(1, count + 1):
            if number != LEDGER_PAGE:  # a round closed without an entry is left out
                repo.save_round_ledger(tid, number, f'{{"round": {number}}}')
            repo.save_round_ledger(other, number, "{}")
    wanted = [f'{{"round": {n}}}' for n in range(1, count + 1) if n != LEDGER_PAGE]
    with store.session() as s:
        repo = Repository(s)
        ledgers = repo.round_ledgers(tid)
        assert next(ledgers) == '{"round": 1}'  # read as taken, inside the unit of work
        assert [wanted[0], *ledgers] == wanted
        assert list(repo.round_ledgers(tid, before=LEDGER_PAGE + 2)) == wanted[:LEDGER_PAGE]
        assert list(repo.round_ledgers(tid, before=1)) == []


# -- cursors and projections ------------------------------------------------------------------


def test_a_cursor_is_saved_and_updated_per_forum_and_scope(store: Store) -> None:
    with store.session() as s:
        repo = Repository(s)
        assert Inbox(repo.s).listing_start("local", "all")[0] is None
        repo.save_cursor("local", "all", "c-1", at=T0)
        repo.save_cursor("reddit", "all", "r-1", at=T0)

    with store.session() as s:
        Repository(s).save_cursor("local", "all", "c-2", at=minutes(1))

    with store.session() as s:
        repo = Repository(s)
        assert (
            Inbox(repo.s).listing_start("local", "all")[0],
            Inbox(repo.s).listing_start("reddit", "all")[0],
        ) == ("c-2", "r-1")
        assert Inbox(repo.s).listing_start("local", "other")[0] is None


def test_saving_characters_replaces_the_rows(store: Store, new_thread: NewThread) -> None:
    tid, other = new_thread("keep-1"), new_thread("keep-2")
    aria = CharacterState(name="Aria", side="players", group="1", status="ok", data="{}")
    goblin = CharacterState(name="Goblin", side="npcs", group="1", status="ok", data="{}")
    with store.session() as s:
        Repository(s).save_characters(tid, [aria, goblin])
        Repository(s).save_characters(other, [aria])

    with store.session() as s:
        Repository(s).save_characters(
            tid,
            [CharacterState(name="Goblin", side="npcs", group="2", status="down", data='{"hp":0}')],
        )

    with store.session() as s:
        rows = Repository(s).characters(tid)
        assert [(r.name, r.group, r.status, r.data) for r in rows] == [
            ("Goblin", "2", "down", '{"hp":0}')
        ]
        assert [r.name for r in Repository(s).characters(other)] == ["Aria"]


def test_saving_characters_writes_only_the_rows_that_changed(
    store: Store, new_thread: NewThread
) -> None:
    tid = new_thread()
    names = [f"Hero {n}" for n in range(12)]

    def sheet(name: str, hp: int = 5) -> CharacterState:
        return CharacterState(
            name=name, side="players", group="1", status="ok", data=f'{{"hp": {hp}}}'
        )

    with store.session() as s:
        assert Repository(s).save_characters(tid, [sheet(n) for n in names]) == 12
    with store.session() as s, counting(store) as sent:
        changed = Repository(s).save_characters(
            tid, [sheet(n, hp=4 if n == "Hero 3" else 5) for n in names[:-1]] + [sheet("Newcomer")]
        )
    assert changed == 3  # Hero 3 hurt, Hero 11 gone, Newcomer come
    # the rows read, one UPDATE, one DELETE, one INSERT: nothing for the ten unchanged
    assert sorted(sent.statements) == ["DELETE", "INSERT", "SELECT", "UPDATE"], sent
    with store.session() as s, counting(store) as sent:
        assert (
            Repository(s).save_characters(
                tid,
                [sheet(n, hp=4 if n == "Hero 3" else 5) for n in names[:-1]] + [sheet("Newcomer")],
            )
            == 0
        )
    assert sent.statements == ["SELECT"]
    with store.session() as s:
        rows = {r.name: r.data for r in Repository(s).characters(tid)}
    assert rows == {
        **{n: '{"hp": 5}' for n in names[:-1]},
        "Hero 3": '{"hp": 4}',
        "Newcomer": '{"hp": 5}',
    }


def test_deferred_log_rows_go_in_one_insert_per_table_and_reads_see_them(
    store: Store, new_thread: NewThread
) -> None:
    tid = new_thread()
    with store.session() as s:
        repo = Repository(s)
        with counting(store) as sent, repo.deferred():
            for n in range(1, 6):
                add_version(repo, tid, f"p{n}", 1)
                repo.log_event(tid, seq=n, kind="post", post_id=f"p{n}", version=1, at=minutes(n))
            assert sent.statements == []  # nothing written yet
            # a read of those tables writes them first
            assert [e.post_id for e in repo.events_after(tid, 4)] == ["p5"]
            assert sent.statements.count("INSERT") == 2
            add_version(repo, tid, "p6", 1)
        assert sent.statements.count("INSERT") == 3, sent  # the rest when the block ends
    with store.session() as s:
        repo = Repository(s)
        assert [e.post_id for e in repo.events_after(tid, 0)] == [f"p{n}" for n in range(1, 6)]
        assert set(repo.known_posts(tid, [f"p{n}" for n in range(1, 8)])) == {
            f"p{n}" for n in range(1, 7)
        }


def test_a_round_closed_inside_a_deferred_block_is_written_with_its_ledger_entry(
    store: Store, new_thread: NewThread
) -> None:
    tid = new_thread()
    with store.session() as s:
        repo = Repository(s)
        for number in (1, 2, 3):
            repo.round_seed(tid, number, new=f"seed-{number}")
    with store.session() as s:
        repo = Repository(s)
        with counting(store) as sent, repo.deferred():
            repo.close_round(thread_id=tid, number=1, closed_by="gm", closed_at=None, summary="1")
            repo.save_round_ledger(tid, 1, '{"round": 1}')
            assert len(sent.statements) == 1  # one UPDATE for both
            repo.close_round(thread_id=tid, number=2, closed_by="gm", closed_at=None, summary="2")
            assert sent.statements == sent.statements[:1]  # waits for its entry
            assert repo.summaries(tid) == {1: "1", 2: "2"}  # a read writes it first
            repo.close_round(
                thread_id=tid, number=3, closed_by="deadline", closed_at=minutes(9), summary="3"
            )
        # round 2's before the read, round 3's (no entry) when the block ended
        assert sent.statements == ["UPDATE", "UPDATE", "SELECT", "UPDATE"]
    with store.session() as s:
        repo = Repository(s)
        assert repo.summaries(tid) == {1: "1", 2: "2", 3: "3"}
        assert list(repo.round_ledgers(tid)) == ['{"round": 1}']


def test_a_deferred_block_that_raises_writes_nothing_of_it(
    store: Store, new_thread: NewThread
) -> None:
    tid = new_thread()
    with store.session() as s:
        repo = Repository(s)
        with pytest.raises(RuntimeError), repo.deferred():
            add_version(repo, tid, "p1", 1)
            raise RuntimeError("the cycle failed")
        add_version(repo, tid, "p2", 1)
    with store.session() as s:
        assert set(Repository(s).known_posts(tid, ["p1", "p2"])) == {"p2"}


def test_the_thread_row_keeps_its_scene(store: Store, new_thread: NewThread) -> None:
    tid = new_thread()
    for kind, number, deadline in [("combat", 1, minutes(60)), ("free", None, None)]:
        with store.session() as s:
            leases = Leases(s)
            leases.claim(tid, owner="w", now=T0, until=minutes(10))
            held = leases.hold(tid, owner="w")
            assert held is not None
            changes = ThreadChanges.of(held)
            changes.scene_kind, changes.scene_round, changes.scene_deadline = (
                kind,
                number,
                deadline,
            )
            leases.keep(tid, changes)
        with store.session() as s:
            thread = Repository(s).thread("local", "keep-1")
            assert thread is not None
            assert (thread.scene_kind, thread.scene_round, thread.scene_deadline) == (
                kind,
                number,
                deadline,
            )


def test_next_due_is_the_earliest_among_the_forums_threads(
    store: Store, new_thread: NewThread
) -> None:
    dues = {"t1": minutes(30), "t2": minutes(10), "t3": None, "t4": minutes(5)}
    for key in dues:
        new_thread(key)
    new_thread("t1", forum="reddit")
    with store.session() as s:
        for row in s.scalars(select(ThreadRow).where(ThreadRow.forum == "local")):
            row.next_due_at = dues[row.key]
        s.scalars(select(ThreadRow).where(ThreadRow.forum == "reddit")).one().next_due_at = T0

    with store.session() as s:
        repo = Repository(s)
        assert repo.next_due("local") == minutes(5)
        assert repo.next_due("reddit") == T0
        assert repo.next_due("nowhere") is None
