"""The store contract, part 3: what the poll's three steps share (the inbox, the bot's replies
found on the forum, the live workers, the leases, the threads with work). Each test runs on
SQLite and on PostgreSQL."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone

import pytest
from sql_counter import counting
from sqlalchemy import or_, select, update
from sqlalchemy.orm import Session

from pbp.forums.base import ForumPost
from pbp.store import Store
from pbp.store.inbox import Inbox
from pbp.store.leases import OWED, Leases, ThreadWork
from pbp.store.records import ThreadChanges
from pbp.store.repository import Repository, Sent
from pbp.store.schema import (
    CampaignRow,
    FoundReplyRow,
    InboxRow,
    ReplyRow,
    ThreadRow,
    WorkerRow,
)

T0 = datetime(2026, 11, 29, 10, 0, tzinfo=UTC)
TTL = timedelta(minutes=5)
NewThread = Callable[..., int]


def minutes(n: float) -> datetime:
    return T0 + timedelta(minutes=n)


def post(
    post_id: str,
    *,
    thread: str = "keep-1",
    body: str = "text",
    author: str = "alice",
    deleted: bool = False,
) -> ForumPost:
    return ForumPost(
        id=post_id,
        thread=thread,
        author=author,
        body=body,
        created_at=T0,
        deleted_at=T0 if deleted else None,
    )


def surveyed(store: Store, *thread_ids: int) -> None:
    with store.session() as s:
        for tid in thread_ids:
            Inbox(s).surveyed(tid, read_whole=False)


# -- the oracles: plain reads of the tables the poll's combined statements read -------------


def waiting(s: Session, thread_id: int) -> list[str]:
    """The ids of the thread's post versions in the inbox, in the order they were listed."""
    return list(
        s.scalars(
            select(InboxRow.post_id).where(InboxRow.thread_id == thread_id).order_by(InboxRow.id)
        )
    )


def found(s: Session, thread_id: int) -> dict[str, str]:
    """The replies found on the forum in a thread: forum key -> id."""
    rows = s.execute(
        select(FoundReplyRow.key, FoundReplyRow.forum_id).where(
            FoundReplyRow.thread_id == thread_id
        )
    )
    return {r.key: r.forum_id for r in rows}


def workers(s: Session, forum: str, *, seen_since: datetime) -> list[str]:
    """The workers of a forum that polled since ``seen_since``."""
    return list(
        s.scalars(
            select(WorkerRow.name)
            .where(WorkerRow.forum == forum, WorkerRow.seen_at >= seen_since)
            .order_by(WorkerRow.name)
        )
    )


def counts(s: Session, forum: str, *, owner: str) -> tuple[int, int]:
    """How many threads the forum has, and how many of them ``owner`` holds."""
    threads = list(s.scalars(select(ThreadRow.lease_owner).where(ThreadRow.forum == forum)))
    return len(threads), threads.count(owner)


def with_work(s: Session, forum: str, *, now: datetime) -> list[ThreadWork]:
    """The threads with something to do now: post versions in the inbox, replies owed, a
    whole read, a deadline or reminder due; none the forum was not asked about yet."""
    rows = s.execute(
        select(ThreadRow, CampaignRow.path)
        .join(CampaignRow, CampaignRow.id == ThreadRow.campaign_id)
        .where(
            ThreadRow.forum == forum,
            ThreadRow.needs_survey.is_(False),
            or_(
                ThreadRow.id.in_(select(InboxRow.thread_id)),
                ThreadRow.id.in_(select(ReplyRow.thread_id).where(ReplyRow.status.in_(OWED))),
                ThreadRow.needs_read.is_(True),
                ThreadRow.next_due_at <= now,
            ),
        )
        .order_by(ThreadRow.id)
    )
    return [
        ThreadWork(
            id=t.id,
            key=t.key,
            campaign_path=path,
            owner=t.lease_owner,
            expires=t.lease_expires,
            bound=t.bound_by is not None,
        )
        for t, path in rows
    ]


# -- the inbox --------------------------------------------------------------------------------


def test_versions_wait_in_listing_order_and_a_take_leaves_later_ones(
    store: Store, new_thread: NewThread
) -> None:
    tid, other = new_thread("keep-1"), new_thread("keep-2")
    with store.session() as s:
        inbox = Inbox(s)
        assert inbox.put(tid, [post("p2"), post("p1", body="first\ttab\nline")], at=T0) == 2
        inbox.put(other, [post("q1", thread="keep-2")], at=T0)
    with store.session() as s:
        taken = Inbox(s).take_pending(tid, "keep-1")
        assert [(p.post.id, p.post.body) for p in taken] == [
            ("p2", "text"),
            ("p1", "first\ttab\nline"),
        ]
        Inbox(s).put(tid, [post("p3")], at=T0)  # listed while the worker was at it
    with store.session() as s:
        assert waiting(s, tid) == ["p3"]
        assert waiting(s, other) == ["q1"]


def test_a_take_reads_the_versions_waiting_in_order_and_a_rollback_leaves_them(
    store: Store, new_thread: NewThread
) -> None:
    tid, other = new_thread("keep-1"), new_thread("keep-2")
    with store.session() as s:
        Inbox(s).put(tid, [post("p2"), post("p1"), post("p2", body="again")], at=T0)
        Inbox(s).put(other, [post("q1", thread="keep-2")], at=T0)
    with store.session() as s:
        taken = Inbox(s).take_pending(tid, "keep-1")
        assert [(p.post.id, p.post.body) for p in taken] == [
            ("p2", "text"),
            ("p1", "text"),
            ("p2", "again"),
        ]
        assert taken[0].post.created_at == T0 and taken[0].post.thread == "keep-1"
        assert Inbox(s).take_pending(tid, "keep-1") == []  # taken
        s.rollback()  # a unit of work that rolls back leaves them
    with store.session() as s:
        assert waiting(s, tid) == ["p2", "p1", "p2"]
        assert waiting(s, other) == ["q1"]


def test_a_new_thread_waits_for_its_survey_and_the_survey_may_ask_a_whole_read(
    store: Store, new_thread: NewThread
) -> None:
    one, two = new_thread("keep-1"), new_thread("keep-2")
    new_thread("keep-1", forum="reddit")
    with store.session() as s:
        inbox = Inbox(s)
        assert [(t.key, t.id) for t in inbox.listing_start("local", "all")[1]] == [
            ("keep-1", one),
            ("keep-2", two),
        ]
        assert [(t.key, t.id, t.bound) for t in inbox.watched("local", ["keep-2", "nope"])] == [
            ("keep-2", two, False)
        ]
        inbox.surveyed(one, read_whole=False)
        inbox.surveyed(two, read_whole=True)
    with store.session() as s:
        assert Inbox(s).listing_start("local", "all")[1] == []
        assert [t.key for t in Inbox(s).all_keys("local")] == ["keep-1", "keep-2"]
        rows = {
            r.key: r.needs_read
            for r in s.scalars(select(ThreadRow).where(ThreadRow.forum == "local"))
        }
        assert rows == {"keep-1": False, "keep-2": True}
        Inbox(s).read_whole([one])
    with store.session() as s:
        assert all(
            r.needs_read for r in s.scalars(select(ThreadRow).where(ThreadRow.forum == "local"))
        )


def test_the_posts_a_thread_accounts_for_are_those_read_waiting_and_replied_not_deleted(
    store: Store, new_thread: NewThread
) -> None:
    tid = new_thread()
    with store.session() as s:
        repo = Repository(s)
        for post_id, deleted in (("p1", False), ("p2", False), ("p2", True)):
            version = 2 if deleted else 1
            repo.add_version(
                thread_id=tid,
                post_id=post_id,
                version=version,
                author="alice",
                body=None if deleted else "x",
                body_hash="h",
                written_at=T0,
                seen_at=T0,
                deleted=deleted,
            )
        Inbox(s).put(tid, [post("p3"), post("p4", deleted=True)], at=T0)
        repo.queue_reply(thread_id=tid, key="cheatsheet", to=None, text="hi", at=T0)
        reply = repo.latest_reply(tid, "cheatsheet")
        assert reply is not None
        repo.mark_all_sent([Sent(reply_id=reply.id, forum_id="r1", text="hi")], at=T0)
    with store.session() as s:
        assert Inbox(s).known_posts([tid]) == {tid: {"p1", "p3", "r1"}}


def test_replies_found_on_the_forum_are_kept_unless_the_outbox_posted_them(
    store: Store, new_thread: NewThread
) -> None:
    tid = new_thread()
    with store.session() as s:
        repo = Repository(s)
        repo.queue_reply(thread_id=tid, key="cheatsheet", to=None, text="hi", at=T0)
        reply = repo.latest_reply(tid, "cheatsheet")
        assert reply is not None
        repo.mark_all_sent([Sent(reply_id=reply.id, forum_id="r1", text="hi")], at=T0)
    with store.session() as s:
        Inbox(s).found_replies(tid, {"cheatsheet": "r1", "summary-1": "r7"})
        Inbox(s).found_replies(tid, {"summary-1": "r7"})  # found again: no second row
    with store.session() as s:
        assert found(s, tid) == {"summary-1": "r7"}
        Inbox(s).forget_found(tid, "summary-1")
    with store.session() as s:
        assert found(s, tid) == {}


def test_a_thread_and_a_campaign_added_twice_are_one_row_each(store: Store) -> None:
    with store.session() as s:
        repo = Repository(s)
        first = repo.save_campaign(path="/c.toml", name="Keep", file_hash="a", at=T0)
        again = repo.save_campaign(path="/c.toml", name="Keep 2", file_hash="b", at=T0)
        assert first.id == again.id and (again.name, again.file_hash) == ("Keep 2", "b")
        one = repo.add_thread(
            forum="local", key="k", campaign_id=first.id, campaign_hash="b", at=T0
        )
        two = repo.add_thread(
            forum="local",
            key="k",
            campaign_id=first.id,
            campaign_hash="b",
            at=T0,
            bound_by="gm_sam",
        )
        assert one.id == two.id and two.bound_by is None and two.needs_survey


def test_a_cursor_of_thousands_of_characters_is_kept_whole(store: Store) -> None:
    long = '{"seen": [' + ", ".join(f'"{i:07x}"' for i in range(2000)) + '], "newest": 1.5}'
    with store.session() as s:
        Repository(s).save_cursor("reddit", "all", long, at=T0)
    with store.session() as s:
        assert Inbox(s).listing_start("reddit", "all")[0] == long


# -- workers and leases -----------------------------------------------------------------------


def claim(store: Store, tid: int, owner: str, now: datetime, *, dead: tuple[str, ...] = ()) -> bool:
    with store.session() as s:
        return Leases(s).claim(tid, owner=owner, now=now, until=now + TTL, dead=dead)


def owner_of(store: Store, tid: int) -> str | None:
    with store.session() as s:
        return s.get(ThreadRow, tid).lease_owner  # type: ignore[union-attr]


def test_a_live_lease_keeps_other_workers_out_until_it_expires(
    store: Store, new_thread: NewThread
) -> None:
    tid = new_thread()
    assert claim(store, tid, "A", T0)
    assert not claim(store, tid, "B", minutes(4))
    assert claim(store, tid, "B", minutes(6))
    assert not claim(store, tid, "A", minutes(7))
    assert owner_of(store, tid) == "B"


def test_a_lease_expiry_is_compared_in_utc(store: Store, new_thread: NewThread) -> None:
    tid = new_thread()
    claim(store, tid, "A", T0)
    new_york = timezone(timedelta(hours=-5))
    assert not claim(store, tid, "B", minutes(4).astimezone(new_york))
    assert claim(store, tid, "B", minutes(6).astimezone(new_york))


def test_a_released_lease_is_free_a_dead_workers_is_taken_and_an_owner_renews_its_own(
    store: Store, new_thread: NewThread
) -> None:
    tid = new_thread()
    claim(store, tid, "A", T0)
    assert claim(store, tid, "A", minutes(1))
    with store.session() as s:
        Leases(s).release([tid], owner="B")  # not B's to give up
    assert not claim(store, tid, "B", minutes(2))
    assert not claim(store, tid, "B", minutes(2), dead=("C",))
    assert claim(store, tid, "B", minutes(2), dead=("A",))
    with store.session() as s:
        Leases(s).release([tid], owner="B")
    assert claim(store, tid, "C", minutes(3))


def test_a_beat_renews_every_lease_of_its_worker_in_one_go(
    store: Store, new_thread: NewThread
) -> None:
    one, two, three = new_thread("t1"), new_thread("t2"), new_thread("t3")
    claim(store, one, "A", T0)
    claim(store, two, "A", T0)
    claim(store, three, "B", T0)
    with store.session() as s:
        Leases(s).beat(name="A", forum="local", now=minutes(4), until=minutes(9))
    assert not claim(store, one, "C", minutes(8))  # renewed: still A's
    assert claim(store, three, "C", minutes(8))  # B never beat: expired
    with store.session() as s:
        assert counts(s, "local", owner="A") == (3, 2)
        assert Leases(s).held("local", owner="A") == [two, one]


def test_live_workers_are_those_seen_lately_and_a_leaving_worker_frees_its_threads(
    store: Store, new_thread: NewThread
) -> None:
    tid = new_thread()
    with store.session() as s:
        leases = Leases(s)
        leases.beat(name="A", forum="local", now=T0, until=minutes(5))
        leases.beat(name="B", forum="local", now=minutes(3), until=minutes(8))
        leases.beat(name="R", forum="reddit", now=minutes(3), until=minutes(8))
    claim(store, tid, "A", minutes(3))
    with store.session() as s:
        assert workers(s, "local", seen_since=T0) == ["A", "B"]
        assert workers(s, "local", seen_since=minutes(1)) == ["B"]
        Leases(s).leave(name="A")
    with store.session() as s:
        assert workers(s, "local", seen_since=T0) == ["B"]
    assert owner_of(store, tid) is None


def test_only_threads_with_work_now_are_listed_and_a_new_one_waits_for_its_survey(
    store: Store, new_thread: NewThread
) -> None:
    keys = ["idle", "inbox", "owed", "whole", "due", "later", "reread", "new"]
    ids = {k: new_thread(k) for k in keys}
    surveyed(store, *(ids[k] for k in keys if k != "new"))
    with store.session() as s:
        inbox, repo = Inbox(s), Repository(s)
        inbox.put(ids["inbox"], [post("p1", thread="inbox")], at=T0)
        inbox.put(ids["new"], [post("p2", thread="new")], at=T0)
        repo.queue_reply(thread_id=ids["owed"], key="cheatsheet", to=None, text="x", at=T0)
        inbox.read_whole([ids["whole"]])
        rows = {r.key: r for r in s.scalars(select(ThreadRow))}
        rows["due"].next_due_at = minutes(10)
        rows["later"].next_due_at = minutes(11)
        rows["reread"].reread_at = minutes(9)  # the ingest reads it again: into the inbox
    with store.session() as s:
        work = with_work(s, "local", now=minutes(10))
        assert [w.key for w in work] == ["inbox", "owed", "whole", "due"]
        assert work[0].campaign_path == "/campaigns/inbox.toml" and work[0].owner is None


def test_what_the_claims_decide_from_is_one_query_with_the_answers_of_its_three(
    store: Store, new_thread: NewThread
) -> None:
    ids = {k: new_thread(k) for k in ("idle", "inbox", "owed", "due")}
    surveyed(store, *ids.values())
    with store.session() as s:
        leases = Leases(s)
        for name, at in (("B", minutes(3)), ("A", T0), ("gone", minutes(-20))):
            leases.beat(name=name, forum="local", now=at, until=at + TTL)
        leases.beat(name="R", forum="reddit", now=minutes(3), until=minutes(8))
    claim(store, ids["inbox"], "A", minutes(1))
    claim(store, ids["idle"], "A", minutes(1))
    claim(store, ids["due"], "B", minutes(1))
    with store.session() as s:
        Inbox(s).put(ids["inbox"], [post("p1", thread="inbox")], at=T0)
        Repository(s).queue_reply(thread_id=ids["owed"], key="k", to=None, text="x", at=T0)
        s.scalars(select(ThreadRow).where(ThreadRow.id == ids["due"])).one().next_due_at = T0
    for since, owner in ((minutes(-1), "A"), (minutes(1), "B"), (minutes(9), "C")):
        with store.session() as s, counting(store) as sent:
            seen = Leases(s).seen("local", owner=owner, now=minutes(10), seen_since=since)
            assert len(sent.statements) == 1
        with store.session() as s:
            assert seen.work == with_work(s, "local", now=minutes(10))
            assert seen.live == workers(s, "local", seen_since=since)
            assert (seen.total, seen.held) == counts(s, "local", owner=owner)
            assert seen.threads == {}  # none asked for
    with store.session() as s:
        seen = Leases(s).seen("local", owner="A", now=minutes(10), seen_since=minutes(-1))
        work = seen.work
        assert [w.key for w in work] == ["inbox", "owed", "due"] and work[0].owner == "A"
        assert work[0].expires is not None and work[0].expires.tzinfo is not None
        assert (seen.live, seen.total, seen.held) == (["A", "B"], 4, 2)


def test_the_claims_query_also_reads_the_rows_and_known_posts_of_threads_the_worker_holds(
    store: Store, new_thread: NewThread
) -> None:
    ids = {k: new_thread(k) for k in ("mine", "found", "theirs", "free")}
    surveyed(store, *ids.values())
    for key, owner in (("mine", "A"), ("found", "A"), ("theirs", "B")):
        claim(store, ids[key], owner, T0)
    with store.session() as s:
        repo = Repository(s)
        for thread, post_id, version, body in [
            ("mine", "p1", 1, "first"),
            ("mine", "p1", 2, "second"),
            ("mine", "p2", 1, "other"),  # not asked for
            ("theirs", "p3", 1, "theirs"),
        ]:
            repo.add_version(
                thread_id=ids[thread],
                post_id=post_id,
                version=version,
                author="alice",
                body=body,
                body_hash=f"hash-{body}",
                written_at=T0,
                seen_at=T0,
                deleted=False,
            )
        Inbox(s).found_replies(ids["found"], {"cheatsheet": "pbp-9"})
    asked = [ids[k] for k in ("mine", "found", "theirs", "free")]
    with store.session() as s, counting(store) as sent:
        seen = Leases(s).seen(
            "local", owner="A", now=minutes(1), seen_since=T0, mine=asked, posts=["p1", "p3"]
        )
        assert len(sent.statements) == 1
    assert set(seen.threads) == {ids["mine"], ids["found"]}  # the ones A holds
    mine, found = seen.threads[ids["mine"]], seen.threads[ids["found"]]
    assert (mine.thread.key, mine.thread.lease_owner, mine.campaign_path) == (
        "mine",
        "A",
        "/campaigns/mine.toml",
    )
    assert mine.thread.created_at.tzinfo is not None
    assert (mine.found_replies, found.found_replies) == (False, True)
    assert {p: (k.version, k.body_hash) for p, k in mine.known.items()} == {
        "p1": (2, "hash-second")  # the newest version, of the posts asked for only
    }
    assert found.known == {}
    with store.session() as s:
        assert mine.known == Repository(s).known_posts(ids["mine"], ["p1"])


def test_a_thread_read_without_its_lock_is_written_back_only_while_its_lease_is_held(
    store: Store, new_thread: NewThread
) -> None:
    tid = new_thread("t1")
    surveyed(store, tid)
    claim(store, tid, "A", T0)
    with store.session() as s:
        leases = Leases(s)
        seen = leases.seen("local", owner="A", now=T0, seen_since=T0, mine=[tid])
        changes = ThreadChanges.of(seen.threads[tid].thread)
        with counting(store) as sent:
            assert leases.keep(tid, changes, owner="A")  # nothing changed: the lease checked
        assert sent.statements == ["UPDATE"]
        s.execute(update(ThreadRow).where(ThreadRow.id == tid).values(lease_owner="B"))
        changes.last_seq = 5
        assert not leases.keep(tid, changes, owner="A")  # taken meanwhile: nothing written
    with store.session() as s:
        assert Repository(s).thread("local", "t1").last_seq == 0  # type: ignore[union-attr]


def test_a_thread_is_held_for_a_unit_of_work_only_by_its_owner(
    store: Store, new_thread: NewThread
) -> None:
    tid, other = new_thread("t1"), new_thread("t2")
    claim(store, tid, "A", T0)
    claim(store, other, "B", T0)
    with store.session() as s:
        assert Leases(s).hold(tid, owner="B") is None
        row = Leases(s).hold(tid, owner="A")
        assert row is not None and row.key == "t1"


def test_what_a_unit_of_work_changes_of_a_held_thread_is_kept(
    store: Store, new_thread: NewThread
) -> None:
    tid = new_thread("t1")
    claim(store, tid, "A", T0)
    with store.session() as s:
        leases = Leases(s)
        held = leases.hold(tid, owner="A")
        assert held is not None
        changes = ThreadChanges.of(held)
        changes.last_seq, changes.needs_read, changes.next_due_at = 7, True, minutes(5)
        with counting(store) as sent:
            leases.keep(tid, changes)
            leases.keep(tid, changes)  # nothing changed since: nothing written again
        assert len(sent.statements) == 1, sent  # one UPDATE of what changed
    with store.session() as s:
        again = Leases(s).hold(tid, owner="A")
        assert again is not None
        assert (again.last_seq, again.needs_read, again.next_due_at) == (7, True, minutes(5))
        changes = ThreadChanges.of(again)
        changes.last_seq = 8  # not kept: the unit of work ends without ``keep``
    with store.session() as s:
        assert Repository(s).thread("local", "t1").last_seq == 7  # type: ignore[union-attr]


def test_a_held_thread_is_a_frozen_value(store: Store, new_thread: NewThread) -> None:
    tid = new_thread("t1")
    claim(store, tid, "A", T0)
    with store.session() as s:
        held = Leases(s).hold(tid, owner="A")
        assert held is not None
        with pytest.raises(dataclasses.FrozenInstanceError):
            held.last_seq = 3  # type: ignore[misc]
