"""The re-read plan: when the posts of open rounds are read again, and which go together."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from pbp.services.rereads import (
    LONGEST_GAP,
    MAY_WAIT,
    RIDE_ALONG,
    Candidate,
    OpenRound,
    Watched,
    next_after,
    plan_batch,
    schedules,
)

T0 = datetime(2026, 11, 29, 10, 0, tzinfo=UTC)
FIVE = timedelta(minutes=5)


def minutes(n: float) -> datetime:
    return T0 + timedelta(minutes=n)


def candidate(
    n: int,
    *,
    posts: int = 3,
    due: tuple[float, ...] = (),
    closing: bool = False,
    closes_at: datetime | None = None,
) -> Candidate:
    """Thread ``n`` with ``posts`` live posts, the first ones mistaken, due at ``due``."""
    ids = tuple(f"t{n}p{i}" for i in range(posts))
    errors = tuple(Watched(post=ids[i], at=T0, due=minutes(m)) for i, m in enumerate(due))
    return Candidate(
        thread_id=n,
        key=f"t{n}",
        closing=closing,
        round=OpenRound(posts=ids, watched=errors, closes_at=closes_at),
    )


def test_an_open_round_is_kept_as_text_and_read_back_the_same() -> None:
    kept = OpenRound(
        posts=("p1", "p2"),
        watched=(Watched(post="p2", at=minutes(3), due=minutes(8)),),
        closes_at=minutes(60),
    )
    assert OpenRound.decode(kept.encode()) == kept
    assert kept.reread_at == minutes(8)
    assert OpenRound.decode(OpenRound(posts=()).encode()) == OpenRound(posts=())
    assert OpenRound(posts=()).reread_at is None
    assert OpenRound.decode(None) is None


def test_a_post_is_read_again_after_5_10_20_40_minutes_then_less_often_to_every_4_hours() -> None:
    moments = []
    now = T0
    for _ in range(12):
        now = next_after(T0, now=now, first=FIVE)
        moments.append(int((now - T0).total_seconds() // 60))
    assert moments == [5, 10, 20, 40, 80, 160, 240, 480, 720, 960, 1200, 1440]


@given(st.integers(min_value=0, max_value=10_000), st.integers(min_value=0, max_value=20_000))
def test_the_next_reread_is_after_now_and_never_more_than_the_longest_gap_away(
    posted: int, later: int
) -> None:
    now = minutes(posted + later)
    due = next_after(minutes(posted), now=now, first=FIVE)
    assert now < due <= now + LONGEST_GAP


def test_a_schedule_is_kept_for_a_post_still_mistaken_and_begun_for_a_new_one() -> None:
    before = OpenRound(posts=("p1",), watched=(Watched(post="p1", at=T0, due=minutes(40)),))
    errors = schedules(
        [("p1", T0), ("p2", minutes(30))], before=before, now=minutes(31), first=FIVE
    )
    assert errors == (
        Watched(post="p1", at=T0, due=minutes(40)),
        Watched(post="p2", at=minutes(30), due=minutes(35)),
    )


def test_a_closing_round_is_read_whole_now_with_the_posts_due_soon_filling_the_request() -> None:
    closing = candidate(1, posts=4, closing=True)
    due_soon = candidate(2, due=(20,))
    due_late = candidate(3, due=(20 + RIDE_ALONG.total_seconds() / 60,))
    batch = plan_batch([closing, due_soon, due_late], now=minutes(10), first=FIVE, per_request=100)
    assert batch.wanted == {"t1": ["t1p0", "t1p1", "t1p2", "t1p3"], "t2": ["t2p0"]}
    # read early in place of its 20-minute re-read: the next one is its 40-minute one
    assert batch.moved[2].reread_at == minutes(40)
    assert set(batch.moved) == {1, 2}


def test_a_round_past_its_deadline_is_read_whole() -> None:
    past = candidate(1, posts=2, closes_at=minutes(9))
    future = candidate(2, posts=2, closes_at=minutes(11))
    batch = plan_batch([past, future], now=minutes(10), first=FIVE, per_request=100)
    assert batch.wanted == {"t1": ["t1p0", "t1p1"]}


def test_a_reread_due_waits_for_a_batch_until_it_has_waited_long_enough() -> None:
    due = candidate(1, due=(10,))
    assert plan_batch([due], now=minutes(12), first=FIVE, per_request=100).wanted == {}
    waited = plan_batch([due], now=minutes(10) + MAY_WAIT, first=FIVE, per_request=100)
    assert waited.wanted == {"t1": ["t1p0"]}
    assert waited.moved[1].reread_at == minutes(40)  # read at 20: its next one is at 40


def test_only_the_posts_due_of_a_thread_are_read_not_all_its_mistaken_ones() -> None:
    two = candidate(1, due=(10, 200))
    batch = plan_batch([two], now=minutes(20), first=FIVE, per_request=100)
    assert batch.wanted == {"t1": ["t1p0"]}
    assert [e.due for e in batch.moved[1].watched] == [minutes(40), minutes(200)]


def test_rereads_due_that_fill_a_request_go_at_once() -> None:
    many = [candidate(n, due=(10,)) for n in range(100)]
    batch = plan_batch(many, now=minutes(10), first=FIVE, per_request=100)
    assert batch.size == 100


def test_posts_due_soon_ride_along_only_while_they_fit_the_requests_going_anyway() -> None:
    closing = candidate(1, posts=98, closing=True)
    soon = candidate(2, posts=5, due=(11, 11, 12, 13, 14))
    batch = plan_batch([closing, soon], now=minutes(10), first=FIVE, per_request=100)
    assert batch.size == 100 and batch.wanted["t2"] == ["t2p0", "t2p1"]
