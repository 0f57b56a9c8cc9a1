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
    next_reread,
    plan_batch,
)

T0 = datetime(2026, 11, 29, 10, 0, tzinfo=UTC)
FIVE = timedelta(minutes=5)


def minutes(n: float) -> datetime:
    return T0 + timedelta(minutes=n)


def candidate(n: int, *, posts: int = 3, errors: int = 1, reread_at: datetime | None = None,
              closing: bool = False, closes_at: datetime | None = None) -> Candidate:
    ids = tuple(f"t{n}p{i}" for i in range(posts))
    return Candidate(thread_id=n, key=f"t{n}", reread_at=reread_at, closing=closing,
                     round=OpenRound(posts=ids, errors=tuple((i, T0) for i in ids[:errors]),
                                     closes_at=closes_at))


def test_an_open_round_is_kept_as_text_and_read_back_the_same() -> None:
    kept = OpenRound(posts=("p1", "p2"), errors=(("p2", minutes(3)),), closes_at=minutes(60))
    assert OpenRound.decode(kept.encode()) == kept
    assert OpenRound.decode(OpenRound(posts=()).encode()) == OpenRound(posts=())
    assert OpenRound.decode(None) is None


def test_a_post_is_read_again_after_5_10_20_40_minutes_then_less_often_to_every_4_hours() -> None:
    errors = [("p1", T0)]
    moments = []
    now = T0
    for _ in range(12):
        due = next_reread(errors, now=now, first=FIVE)
        assert due is not None
        moments.append(int((due - T0).total_seconds() // 60))
        now = due
    assert moments == [5, 10, 20, 40, 80, 160, 240, 480, 720, 960, 1200, 1440]


@given(st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=5),
       st.integers(min_value=0, max_value=20_000))
def test_the_next_reread_is_after_now_and_never_more_than_the_longest_gap_away(
    posted: list[int], later: int
) -> None:
    errors = [(f"p{i}", minutes(m)) for i, m in enumerate(posted)]
    now = minutes(max(posted) + later)
    due = next_reread(errors, now=now, first=FIVE)
    assert due is not None and now < due <= now + LONGEST_GAP


def test_no_post_that_got_an_error_reply_means_no_reread() -> None:
    assert next_reread([], now=T0, first=FIVE) is None


def test_a_closing_round_is_read_whole_now_with_the_threads_due_soon_filling_the_request() -> None:
    closing = candidate(1, posts=4, closing=True)
    due_soon = candidate(2, reread_at=minutes(20))
    due_late = candidate(3, reread_at=minutes(20) + RIDE_ALONG)
    batch = plan_batch([closing, due_soon, due_late], now=minutes(10), first=FIVE,
                       per_request=100)
    assert batch.wanted == {"t1": ["t1p0", "t1p1", "t1p2", "t1p3"], "t2": ["t2p0"]}
    assert set(batch.moved) == {1, 2}
    assert batch.moved[2] == next_reread([("t2p0", T0)], now=minutes(10), first=FIVE)


def test_a_round_past_its_deadline_is_read_whole() -> None:
    past = candidate(1, posts=2, errors=0, closes_at=minutes(9))
    future = candidate(2, posts=2, errors=0, closes_at=minutes(11))
    batch = plan_batch([past, future], now=minutes(10), first=FIVE, per_request=100)
    assert batch.wanted == {"t1": ["t1p0", "t1p1"]}


def test_a_reread_due_waits_for_a_batch_until_it_has_waited_long_enough() -> None:
    due = candidate(1, reread_at=minutes(10))
    assert plan_batch([due], now=minutes(12), first=FIVE, per_request=100).wanted == {}
    waited = plan_batch([due], now=minutes(10) + MAY_WAIT, first=FIVE, per_request=100)
    assert waited.wanted == {"t1": ["t1p0"]}


def test_rereads_due_that_fill_a_request_go_at_once() -> None:
    many = [candidate(n, reread_at=minutes(10)) for n in range(100)]
    batch = plan_batch(many, now=minutes(10), first=FIVE, per_request=100)
    assert batch.size == 100


def test_threads_due_soon_ride_along_only_while_they_fit_the_requests_going_anyway() -> None:
    closing = candidate(1, posts=98, closing=True)
    big = candidate(2, posts=5, errors=5, reread_at=minutes(11))
    small = candidate(3, posts=2, errors=2, reread_at=minutes(12))
    batch = plan_batch([closing, big, small], now=minutes(10), first=FIVE, per_request=100)
    assert set(batch.wanted) == {"t1", "t3"} and batch.size == 100
