"""The fake Reddit, driven by real praw: what praw sees, and what it does on each fault."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import praw
import prawcore
import pytest
import requests
from fake_reddit import FakeReddit, SleepRecorder, praw_settings
from praw.exceptions import RedditAPIException
from praw.models import Comment, MoreComments


@pytest.fixture
def thread(fake_reddit: FakeReddit) -> str:
    """A submission in r/Game by gm_sam."""
    return fake_reddit.add_submission("Game", "gm_sam", "Round 1", "The keep is sunken.")


# -- reading -----------------------------------------------------------------------------------


def test_praw_logs_in_with_the_password_grant_and_reads_its_own_account(
    fake_reddit: FakeReddit, reddit: praw.Reddit
) -> None:
    me = reddit.user.me()

    assert me is not None and me.name == "pbp_bot"
    token = next(r for r in fake_reddit.requests if r.path == "/api/v1/access_token")
    assert token.form == {"grant_type": "password", "username": "pbp_bot", "password": "pw"}
    assert fake_reddit.requests_to("/api/v1/me", "GET") == 1


def test_a_wrong_password_is_refused_as_reddit_does(fake_reddit: FakeReddit) -> None:
    settings = {**praw_settings(fake_reddit), "password": "wrong"}

    with pytest.raises(prawcore.exceptions.OAuthException, match="invalid_grant"):
        praw.Reddit(**settings).user.me()


def test_an_expired_token_is_renewed_by_prawcore_without_the_caller_noticing(
    fake_reddit: FakeReddit, reddit: praw.Reddit, thread: str, no_sleep: SleepRecorder
) -> None:
    reddit.submission(thread).title  # noqa: B018 (the attribute read fetches)
    fake_reddit.expire_tokens()

    assert reddit.submission(thread).title == "Round 1"
    assert fake_reddit.requests_to("/api/v1/access_token") == 2
    assert [r.status for r in fake_reddit.requests if r.path.startswith("/comments/")] == [
        200, 401, 200,
    ]  # fmt: skip


def test_subreddit_comments_come_newest_first_100_a_page(
    fake_reddit: FakeReddit, reddit: praw.Reddit, thread: str
) -> None:
    ids = [fake_reddit.add_comment("alice", f"t3_{thread}", f"post {n}") for n in range(250)]

    read = [c.id for c in reddit.subreddit("Game").comments(limit=None)]

    assert read == ids[::-1]
    assert fake_reddit.requests_to("/r/Game/comments/") == 3
    pages = [r.params for r in fake_reddit.requests if r.path == "/r/Game/comments/"]
    assert [p.get("after") for p in pages] == [None, f"t1_{ids[150]}", f"t1_{ids[50]}"]
    assert all(p["raw_json"] == "1" for p in pages)


def test_before_gives_the_newer_comments_and_a_deleted_cursor_gives_nothing(
    fake_reddit: FakeReddit, reddit: praw.Reddit, thread: str
) -> None:
    ids = [fake_reddit.add_comment("alice", f"t3_{thread}", f"post {n}") for n in range(5)]
    game = reddit.subreddit("Game")
    before = {"before": f"t1_{ids[1]}"}

    newer = [c.id for c in game.comments(limit=3, params=before)]
    fake_reddit.delete_comment(ids[1])
    after_delete = list(game.comments(limit=3, params=before))

    assert newer == [ids[4], ids[3], ids[2]]
    assert after_delete == []


def test_praw_follows_after_from_a_before_page_back_into_older_comments(
    fake_reddit: FakeReddit, reddit: praw.Reddit, thread: str
) -> None:
    # Reddit (and the fake) answer a ``before`` page with ``after`` set, and give ``after``
    # precedence; praw's ListingGenerator follows it while its limit is not reached.
    ids = [fake_reddit.add_comment("alice", f"t3_{thread}", f"post {n}") for n in range(5)]
    listing = reddit.subreddit("Game").comments(limit=10, params={"before": f"t1_{ids[1]}"})

    read = [c.id for c in listing]

    assert read == [ids[4], ids[3], ids[2], ids[1], ids[0]]


def test_several_subreddits_are_read_in_one_listing(
    fake_reddit: FakeReddit, reddit: praw.Reddit
) -> None:
    one = fake_reddit.add_submission("Game", "gm_sam", "A")
    two = fake_reddit.add_submission("Other", "gm_sam", "B")
    first = fake_reddit.add_comment("alice", f"t3_{one}", "in Game")
    second = fake_reddit.add_comment("bob", f"t3_{two}", "in Other")

    read = list(reddit.subreddit("Game+Other").comments(limit=None))

    assert [(c.id, c.subreddit.display_name) for c in read] == [
        (second, "Other"), (first, "Game"),
    ]  # fmt: skip
    assert fake_reddit.requests_to("/r/Game+Other/comments/") == 1


def test_a_submission_shows_its_comment_tree_with_nested_replies(
    fake_reddit: FakeReddit, reddit: praw.Reddit, thread: str
) -> None:
    top = fake_reddit.add_comment("alice", f"t3_{thread}", "[physical: attack Goblin]")
    reply = fake_reddit.add_comment("bob", f"t1_{top}", "nice")
    deeper = fake_reddit.add_comment("alice", f"t1_{reply}", "thanks")

    submission = reddit.submission(thread)
    (comment,) = submission.comments

    assert (submission.title, submission.selftext, str(submission.author)) == (
        "Round 1", "The keep is sunken.", "gm_sam",
    )  # fmt: skip
    assert (comment.id, str(comment.author), comment.body) == (
        top, "alice", "[physical: attack Goblin]",
    )  # fmt: skip
    assert comment.replies[0].id == reply
    assert comment.replies[0].replies[0].id == deeper
    assert comment.replies[0].replies[0].parent_id == f"t1_{reply}"
    assert comment.edited is False and comment.link_id == f"t3_{thread}"


def test_replace_more_fetches_every_comment_when_the_tree_is_cut(
    fake_reddit: FakeReddit, reddit: praw.Reddit, thread: str
) -> None:
    fake_reddit.tree_limit = 3
    fake_reddit.depth_limit = 4
    expected: dict[str, str] = {}  # comment id -> parent fullname
    for n in range(8):
        top = fake_reddit.add_comment("alice", f"t3_{thread}", f"top {n}")
        expected[top] = f"t3_{thread}"
        for m in range(5):
            kid = fake_reddit.add_comment("bob", f"t1_{top}", f"reply {n}.{m}")
            expected[kid] = f"t1_{top}"
            if m == 0:  # chains deeper than depth_limit: "continue this thread"
                parent = kid
                for depth in range(7):
                    parent_fullname = f"t1_{parent}"
                    parent = fake_reddit.add_comment("cara", parent_fullname, f"deep {depth}")
                    expected[parent] = parent_fullname

    submission = reddit.submission(thread)
    first_view = submission.comments.list()
    left = submission.comments.replace_more(limit=None)

    assert any(isinstance(c, MoreComments) for c in first_view)
    assert len([c for c in first_view if isinstance(c, Comment)]) < len(expected)
    assert left == []
    everything = submission.comments.list()
    assert {c.id: c.parent_id for c in everything} == expected
    assert all(isinstance(c, Comment) for c in everything)
    assert fake_reddit.requests_to("/api/morechildren/", "POST") >= 2
    assert fake_reddit.requests_to(f"/comments/{thread}/_/") >= 1


def test_refresh_reads_one_comment_with_its_replies(
    fake_reddit: FakeReddit, reddit: praw.Reddit, thread: str
) -> None:
    top = fake_reddit.add_comment("alice", f"t3_{thread}", "top")
    middle = fake_reddit.add_comment("bob", f"t1_{top}", "middle")
    low = fake_reddit.add_comment("cara", f"t1_{middle}", "low")

    comment = reddit.comment(middle).refresh()

    assert comment.body == "middle"
    assert [r.id for r in comment.replies] == [low]


def test_info_batches_250_fullnames_in_three_requests(
    fake_reddit: FakeReddit, reddit: praw.Reddit, thread: str
) -> None:
    ids = [fake_reddit.add_comment("alice", f"t3_{thread}", f"post {n}") for n in range(249)]
    names = [f"t1_{i}" for i in ids] + [f"t3_{thread}"]

    read = list(reddit.info(fullnames=names))

    assert [t.fullname for t in read] == names
    assert fake_reddit.requests_to("/api/info/", "GET") == 3


def test_info_leaves_out_unknown_fullnames(
    fake_reddit: FakeReddit, reddit: praw.Reddit, thread: str
) -> None:
    known = fake_reddit.add_comment("alice", f"t3_{thread}", "here")

    read = list(reddit.info(fullnames=["t1_zzzzzzz", f"t1_{known}"]))

    assert [c.id for c in read] == [known]


def test_user_comments_list_the_bots_replies_newest_first(
    fake_reddit: FakeReddit, reddit: praw.Reddit, thread: str
) -> None:
    first = reddit.submission(thread).reply("first")
    second = reddit.submission(thread).reply("second")
    fake_reddit.add_comment("alice", f"t3_{thread}", "not the bot")

    mine = [c.id for c in reddit.redditor("pbp_bot").comments.new(limit=None)]

    assert mine == [second.id, first.id]


# -- writing -----------------------------------------------------------------------------------


def test_replies_to_a_submission_and_to_a_comment_are_posted_as_the_bot(
    fake_reddit: FakeReddit, reddit: praw.Reddit, thread: str
) -> None:
    post = fake_reddit.add_comment("alice", f"t3_{thread}", "[move: Door]")

    in_thread = reddit.submission(thread).reply("Round summary")
    answer = reddit.comment(post).reply("Noted: move to Door")

    assert isinstance(in_thread, Comment) and isinstance(answer, Comment)
    assert (str(answer.author), answer.body, answer.parent_id) == (
        "pbp_bot", "Noted: move to Door", f"t1_{post}",
    )  # fmt: skip
    stored = {c.id: c for c in fake_reddit.comments_by("pbp_bot")}
    assert stored[in_thread.id].parent_id == f"t3_{thread}"
    assert stored[answer.id].body == "Noted: move to Door"
    assert stored[answer.id].link_id == f"t3_{thread}"


def test_edit_replaces_the_text_and_marks_the_comment_edited(
    fake_reddit: FakeReddit, reddit: praw.Reddit, thread: str
) -> None:
    fake_reddit.set_time(1_700_000_000.0)
    reply = reddit.submission(thread).reply("draft")
    fake_reddit.advance(60)

    reply.edit("final")

    assert reply.body == "final" and reply.edited == 1_700_000_060.0
    assert fake_reddit.comment(reply.id).body == "final"
    assert next(reddit.info(fullnames=[reply.fullname])).body == "final"


def test_editing_someone_elses_comment_is_forbidden(
    fake_reddit: FakeReddit, reddit: praw.Reddit, thread: str
) -> None:
    theirs = fake_reddit.add_comment("alice", f"t3_{thread}", "mine")

    with pytest.raises(prawcore.exceptions.Forbidden):
        reddit.comment(theirs).edit("hijacked")
    assert fake_reddit.comment(theirs).body == "mine"


def test_a_deleted_comment_reads_as_deleted(
    fake_reddit: FakeReddit, reddit: praw.Reddit, thread: str
) -> None:
    reply = reddit.submission(thread).reply("oops")
    removed = fake_reddit.add_comment("alice", f"t3_{thread}", "spam")
    fake_reddit.remove_comment(removed)

    reply.delete()
    gone, moderated = reddit.info(fullnames=[reply.fullname, f"t1_{removed}"])

    assert fake_reddit.comment(reply.id).deleted
    assert (gone.author, gone.body) == (None, "[deleted]")
    assert (moderated.author, moderated.body) == (None, "[removed]")
    assert list(reddit.subreddit("Game").comments()) == []


def test_a_deleted_comment_stays_in_the_tree_only_while_it_has_replies(
    fake_reddit: FakeReddit, reddit: praw.Reddit, thread: str
) -> None:
    parent = fake_reddit.add_comment("alice", f"t3_{thread}", "parent")
    fake_reddit.add_comment("bob", f"t1_{parent}", "child")
    lonely = fake_reddit.add_comment("cara", f"t3_{thread}", "lonely")
    fake_reddit.delete_comment(parent)
    fake_reddit.delete_comment(lonely)

    (shown,) = reddit.submission(thread).comments

    assert (shown.id, shown.author, shown.body) == (parent, None, "[deleted]")
    assert shown.replies[0].body == "child"


@pytest.mark.parametrize(
    ("close", "error_type"),
    [(FakeReddit.lock, "THREAD_LOCKED"), (FakeReddit.archive, "TOO_OLD")],
)
def test_a_locked_or_archived_thread_refuses_replies_with_a_reddit_api_exception(
    fake_reddit: FakeReddit,
    reddit: praw.Reddit,
    thread: str,
    close: Callable[[FakeReddit, str], None],
    error_type: str,
) -> None:
    post = fake_reddit.add_comment("alice", f"t3_{thread}", "last words")
    close(fake_reddit, thread)

    with pytest.raises(RedditAPIException) as raised:
        reddit.comment(post).reply("too late")

    assert [item.error_type for item in raised.value.items] == [error_type]
    assert raised.value.items[0].field == "parent"
    assert fake_reddit.comments_by("pbp_bot") == []


def test_a_reply_over_10000_characters_is_refused(
    fake_reddit: FakeReddit, reddit: praw.Reddit, thread: str
) -> None:
    with pytest.raises(RedditAPIException) as raised:
        reddit.submission(thread).reply("x" * 10_001)

    assert raised.value.items[0].error_type == "TOO_LONG"
    assert fake_reddit.comments_by("pbp_bot") == []


# -- faults ------------------------------------------------------------------------------------


def test_a_500_on_a_get_is_retried_by_prawcore_itself(
    fake_reddit: FakeReddit, reddit: praw.Reddit, thread: str, no_sleep: SleepRecorder
) -> None:
    fake_reddit.inject("GET", f"/comments/{thread}", "500")

    assert reddit.submission(thread).title == "Round 1"
    assert [r.status for r in fake_reddit.requests if r.path.startswith("/comments/")] == [
        500, 200,
    ]  # fmt: skip
    assert len(no_sleep.calls) == 1


def test_three_500s_in_a_row_raise_server_error(
    fake_reddit: FakeReddit, reddit: praw.Reddit, thread: str, no_sleep: SleepRecorder
) -> None:
    fake_reddit.inject("GET", "/api/info", "500", times=3)

    with pytest.raises(prawcore.exceptions.ServerError):
        list(reddit.info(fullnames=[f"t3_{thread}"]))
    assert fake_reddit.requests_to("/api/info/") == 3


def test_a_429_raises_too_many_requests_at_once_and_the_next_call_waits_for_the_reset(
    fake_reddit: FakeReddit, reddit: praw.Reddit, thread: str, no_sleep: SleepRecorder
) -> None:
    fake_reddit.inject("GET", "/r/", "429")

    with pytest.raises(prawcore.exceptions.TooManyRequests) as raised:
        list(reddit.subreddit("Game").comments())
    assert raised.value.retry_after == str(fake_reddit.ratelimit_reset)
    assert fake_reddit.requests_to("/r/Game/comments/") == 1

    assert list(reddit.subreddit("Game").comments()) == []
    assert no_sleep.calls and max(no_sleep.calls) > fake_reddit.ratelimit_reset - 1


def test_a_short_ratelimit_error_is_slept_out_and_retried_by_praw(
    fake_reddit: FakeReddit, reddit: praw.Reddit, thread: str, no_sleep: SleepRecorder
) -> None:
    fake_reddit.inject("POST", "/api/comment", "ratelimit", message="try again in 3 seconds.")

    reply = reddit.submission(thread).reply("hello")

    assert reply is not None and [c.id for c in fake_reddit.comments_by("pbp_bot")] == [reply.id]
    assert 4 in no_sleep.calls  # praw waits the asked seconds plus one
    assert fake_reddit.requests_to("/api/comment/") == 2


def test_a_long_ratelimit_error_raises_reddit_api_exception(
    fake_reddit: FakeReddit, reddit: praw.Reddit, thread: str, no_sleep: SleepRecorder
) -> None:
    fake_reddit.inject("POST", "/api/comment", "ratelimit")  # "try again in 5 minutes."

    with pytest.raises(RedditAPIException) as raised:
        reddit.submission(thread).reply("hello")

    assert raised.value.items[0].error_type == "RATELIMIT"
    assert fake_reddit.comments_by("pbp_bot") == []
    assert fake_reddit.requests_to("/api/comment/") == 1


def test_commit_then_502_once_doubles_the_reply_while_praw_reports_success(
    fake_reddit: FakeReddit, reddit: praw.Reddit, thread: str, no_sleep: SleepRecorder
) -> None:
    # prawcore retries a 502 by itself: Reddit committed the first attempt, so the
    # thread now holds the reply twice although praw returned one comment.
    fake_reddit.inject("POST", "/api/comment", "commit_then_502")

    reply = reddit.submission(thread).reply("Round 1 resolved")

    bodies = [c.body for c in fake_reddit.comments_in(thread)]
    assert bodies == ["Round 1 resolved", "Round 1 resolved"]
    assert reply.id == fake_reddit.comments_in(thread)[1].id


def test_commit_then_502_every_time_raises_server_error_after_three_commits(
    fake_reddit: FakeReddit, reddit: praw.Reddit, thread: str, no_sleep: SleepRecorder
) -> None:
    fake_reddit.inject("POST", "/api/comment", "commit_then_502", times=None)

    with pytest.raises(prawcore.exceptions.ServerError):
        reddit.submission(thread).reply("Round 1 resolved")

    assert len(fake_reddit.comments_by("pbp_bot")) == 3


def test_a_timeout_is_retried_and_three_raise_request_exception(
    fake_reddit: FakeReddit,
    reddit: praw.Reddit,
    thread: str,
    no_sleep: SleepRecorder,
    short_timeout: float,
) -> None:
    fake_reddit.inject("GET", "/api/info", "timeout")
    assert next(reddit.info(fullnames=[f"t3_{thread}"])).title == "Round 1"

    fake_reddit.inject("GET", "/api/info", "timeout", times=3)
    with pytest.raises(prawcore.exceptions.RequestException) as raised:
        next(reddit.info(fullnames=[f"t3_{thread}"]))

    assert isinstance(raised.value.original_exception, requests.exceptions.ReadTimeout)
    assert [r.status for r in fake_reddit.requests if r.path == "/api/info/"] == [
        None, 200, None, None, None,
    ]  # fmt: skip


def test_commit_then_timeout_doubles_the_reply_too(
    fake_reddit: FakeReddit,
    reddit: praw.Reddit,
    thread: str,
    no_sleep: SleepRecorder,
    short_timeout: float,
) -> None:
    fake_reddit.inject("POST", "/api/comment", "commit_then_timeout")

    reddit.submission(thread).reply("once, please")

    assert [c.body for c in fake_reddit.comments_in(thread)] == ["once, please"] * 2


def test_praw_ignores_its_timeout_setting(
    fake_reddit: FakeReddit, reddit: praw.Reddit, thread: str
) -> None:
    # praw.ini says timeout = 1, yet an answer after 1.2 s still arrives: praw 8.0.3 never
    # passes its timeout to prawcore (use patch_timeout / short_timeout in tests).
    fake_reddit.timeout_hold = 1.2
    fake_reddit.inject("GET", "/api/info", "slow")

    assert reddit.config.timeout == 1
    assert next(reddit.info(fullnames=[f"t3_{thread}"])).title == "Round 1"
    assert fake_reddit.requests_to("/api/info/") == 1


def test_chaos_spares_the_token_endpoint_and_repeats_with_the_same_seed(
    no_sleep: SleepRecorder,
) -> None:
    def faults_seen(seed: int) -> list[str | None]:
        with FakeReddit() as fake:
            thread = fake.add_submission("Game", "gm_sam", "Round 1")
            fake.chaos(seed, {"500": 0.3, "commit_then_502": 0.2})
            client = praw.Reddit(**praw_settings(fake))
            for n in range(6):
                with contextlib.suppress(prawcore.exceptions.ServerError):
                    client.submission(thread).reply(f"reply {n}")
            assert all(r.fault is None for r in fake.requests if "access_token" in r.path)
            return [r.fault for r in fake.requests]

    first = faults_seen(7)

    assert first == faults_seen(7)
    assert {"500", "commit_then_502"} <= set(first)


def test_calm_ends_chaos(fake_reddit: FakeReddit, reddit: praw.Reddit, thread: str) -> None:
    fake_reddit.chaos(1, {"500": 1.0})
    fake_reddit.calm()

    assert reddit.submission(thread).title == "Round 1"
