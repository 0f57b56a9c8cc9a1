"""pbp's Reddit forum, through real praw, against the fake Reddit."""

from __future__ import annotations

from datetime import UTC, datetime

import praw
import pytest
from fake_reddit import FakeReddit, SleepRecorder

from pbp.errors import ForumError
from pbp.forums import reddit as reddit_module
from pbp.forums.reddit import RedditForum, key_of

SUB = "MyPbPGame"


@pytest.fixture
def forum(reddit: praw.Reddit, fake_reddit: FakeReddit) -> RedditForum:
    fake_reddit.add_subreddit(SUB)
    return RedditForum(reddit, subreddits=[SUB], bot="pbp_bot")


def _thread(fake: FakeReddit, title: str = "Round one", body: str = "") -> str:
    return fake.add_submission(SUB, "gm_sam", title, body)


def _now(fake: FakeReddit) -> datetime:
    """The fake's clock as the bot's: when a first attempt was made."""
    return datetime.fromtimestamp(fake.now(), UTC)


def test_an_idle_poll_costs_one_listing_per_subreddit_however_many_threads(
    forum: RedditForum, fake_reddit: FakeReddit
) -> None:
    for i in range(300):
        _thread(fake_reddit, f"thread {i}")
    cursor = forum.listing(cursor=None).cursor
    fake_reddit.clear_log()
    listing = forum.listing(cursor=cursor)
    assert listing.posts == () and listing.complete
    assert fake_reddit.requests_to("/r/") == 1
    assert len(fake_reddit.requests) == 1


def test_the_listing_shows_each_new_comment_of_every_thread_once(
    forum: RedditForum, fake_reddit: FakeReddit
) -> None:
    watched, other = _thread(fake_reddit), _thread(fake_reddit, "off topic")
    first = fake_reddit.add_comment("alice", f"t3_{watched}", "[physical: attack Goblin]")
    chatter = fake_reddit.add_comment("bob", f"t3_{other}", "chatter")
    listing = forum.listing(cursor=None)
    assert [(p.id, p.thread) for p in listing.posts] == [(first, watched), (chatter, other)]
    second = fake_reddit.add_comment("bob", f"t1_{first}", "[mental: attack Goblin]")
    again = forum.listing(cursor=listing.cursor)
    assert [(p.id, p.author, p.reply_to) for p in again.posts] == [(second, "bob", first)]
    assert forum.listing(cursor=again.cursor).posts == ()


def test_a_survey_gives_each_submissions_text_and_comment_count_a_hundred_a_request(
    forum: RedditForum, fake_reddit: FakeReddit
) -> None:
    threads = [_thread(fake_reddit, f"scene {i}", f"text {i}") for i in range(150)]
    fake_reddit.add_comment("alice", f"t3_{threads[3]}", "one")
    fake_reddit.add_comment("bob", f"t3_{threads[3]}", "two")
    fake_reddit.clear_log()
    surveys = forum.survey([*threads, "zzzzzz"])
    assert fake_reddit.requests_to("/api/info") == 2
    assert set(surveys) == set(threads)  # one Reddit does not know is left out
    assert surveys[threads[3]].posts == 2 and surveys[threads[0]].posts == 0
    opening = surveys[threads[3]].opening
    assert opening is not None
    assert (opening.id, opening.author, opening.body) == (threads[3], "gm_sam", "text 3")
    assert fake_reddit.requests_to("/comments/") == 0


def test_text_with_nul_or_a_lone_surrogate_comes_out_storable(
    forum: RedditForum, fake_reddit: FakeReddit
) -> None:
    thread = _thread(fake_reddit, body="open\x00ing")
    fake_reddit.add_comment("alice", f"t3_{thread}", "[physical:\x00 attack Goblin]\r\nok\ud800")
    [comment] = forum.listing(cursor=None).posts
    assert comment.body == "[physical: attack Goblin]\nok\ufffd"
    opening = forum.survey([thread])[thread].opening
    assert opening is not None and opening.body == "opening"


def test_a_thread_is_back_filled_from_its_whole_comment_tree(
    forum: RedditForum, fake_reddit: FakeReddit
) -> None:
    fake_reddit.tree_limit = 3  # more comments than one page of the tree shows
    thread = _thread(fake_reddit, body="!group Aria, Goblin")
    ids = [fake_reddit.add_comment("alice", f"t3_{thread}", f"post {i}") for i in range(8)]
    posts = forum.backfill(thread)
    assert [p.id for p in posts] == [thread, *ids]  # the submission opens the thread
    assert posts[0].body == "!group Aria, Goblin" and posts[0].author == "gm_sam"


def test_rereads_show_edits_and_deletes_in_batches_of_a_hundred(
    forum: RedditForum, fake_reddit: FakeReddit
) -> None:
    thread = _thread(fake_reddit)
    ids = [fake_reddit.add_comment("alice", f"t3_{thread}", f"post {i}") for i in range(250)]
    fake_reddit.edit_comment(ids[0], "[physical: attack Goblin]")
    fake_reddit.delete_comment(ids[1])
    fake_reddit.clear_log()
    posts = forum.reread(thread, ids)
    assert fake_reddit.requests_to("/api/info") == 3
    assert posts[0].body == "[physical: attack Goblin]" and posts[0].edited_at is not None
    assert posts[1].deleted and posts[1].body == ""
    assert not posts[2].deleted


def test_a_reply_carries_its_key_and_is_found_by_it(
    forum: RedditForum, fake_reddit: FakeReddit
) -> None:
    thread = _thread(fake_reddit)
    typo = fake_reddit.add_comment("bob", f"t3_{thread}", "[phisical: attack Goblin]")
    tried = _now(fake_reddit)
    reply = forum.reply(thread=thread, to=typo, text="Did you mean physical?", key="problems-x")
    posted = fake_reddit.comment(reply)
    assert posted.author == "pbp_bot" and posted.parent_id == f"t1_{typo}"
    assert key_of(posted.body) == "problems-x"
    assert forum.find_reply(thread=thread, key="problems-x", to=typo, since=tried) == reply
    assert forum.find_reply(thread=thread, key="summary-1", to=None, since=tried) is None
    forum.edit_reply(thread=thread, reply_id=reply, text="Fixed.", key="problems-x")
    assert key_of(fake_reddit.comment(reply).body) == "problems-x"
    in_thread = forum.reply(thread=thread, to=None, text="Round 1 is open", key="cheatsheet")
    assert fake_reddit.comment(in_thread).parent_id == f"t3_{thread}"


def test_a_reply_committed_then_answered_502_is_not_sent_twice_and_is_found(
    forum: RedditForum, fake_reddit: FakeReddit, no_sleep: SleepRecorder
) -> None:
    thread = _thread(fake_reddit)
    fake_reddit.inject("POST", "/api/comment", "commit_then_502")
    tried = _now(fake_reddit)
    with pytest.raises(ForumError) as failed:
        forum.reply(thread=thread, to=None, text="Summary", key="summary-1")
    assert failed.value.temporary
    assert len(fake_reddit.comments_by("pbp_bot")) == 1  # prawcore did not post it again
    assert forum.find_reply(thread=thread, key="summary-1", to=None, since=tried) is not None


def test_a_duplicate_reply_found_by_its_key_is_deleted(
    forum: RedditForum, fake_reddit: FakeReddit
) -> None:
    thread = _thread(fake_reddit)
    tried = _now(fake_reddit)
    first = forum.reply(thread=thread, to=None, text="Summary", key="summary-1")
    fake_reddit.add_comment("pbp_bot", f"t3_{thread}", "Summary\n\n[](#pbp:summary-1)")
    assert forum.find_reply(thread=thread, key="summary-1", to=None, since=tried) == first
    live = [c for c in fake_reddit.comments_by("pbp_bot") if not c.gone]
    assert [c.id for c in live] == [first]


def test_a_locked_thread_is_a_permanent_error_and_a_429_a_temporary_one(
    forum: RedditForum, fake_reddit: FakeReddit, no_sleep: SleepRecorder
) -> None:
    thread = _thread(fake_reddit)
    fake_reddit.lock(thread)
    with pytest.raises(ForumError) as locked:
        forum.reply(thread=thread, to=None, text="x", key="k")
    assert not locked.value.temporary
    fake_reddit.inject("GET", "/r/", "429")
    with pytest.raises(ForumError) as limited:
        forum.listing(cursor=None)
    assert limited.value.temporary


def test_a_busy_hour_is_caught_up_page_by_page_without_reading_trees(
    forum: RedditForum, fake_reddit: FakeReddit
) -> None:
    thread = _thread(fake_reddit)
    fake_reddit.add_comment("alice", f"t3_{thread}", "before the downtime")
    cursor = forum.listing(cursor=None).cursor
    missed = [fake_reddit.add_comment("bob", f"t3_{thread}", f"post {i}") for i in range(150)]
    fake_reddit.clear_log()
    caught_up = forum.listing(cursor=cursor)
    assert [p.id for p in caught_up.posts] == missed and caught_up.complete
    assert fake_reddit.requests_to("/r/") == 2  # two pages back to a comment seen
    assert fake_reddit.requests_to("/comments/") == 0


def test_a_gap_longer_than_reddits_listing_is_told_and_then_the_listing_goes_on(
    forum: RedditForum, fake_reddit: FakeReddit, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reddit_module, "LISTING_REACH", 200)  # Reddit's is 1000
    thread = _thread(fake_reddit)
    fake_reddit.add_comment("alice", f"t3_{thread}", "before the downtime")
    cursor = forum.listing(cursor=None).cursor
    missed = [fake_reddit.add_comment("bob", f"t3_{thread}", f"post {i}") for i in range(250)]
    fake_reddit.clear_log()
    caught_up = forum.listing(cursor=cursor)
    assert not caught_up.complete  # the caller asks what the threads hold instead
    assert [p.id for p in caught_up.posts] == missed[-200:]
    assert fake_reddit.requests_to("/comments/") == 0
    fake_reddit.clear_log()
    after = forum.listing(cursor=caught_up.cursor)
    assert after.posts == () and after.complete


def test_a_private_message_goes_through_compose_with_its_thread_and_key(
    forum: RedditForum, fake_reddit: FakeReddit
) -> None:
    thread = _thread(fake_reddit)
    sent = forum.send_private(
        thread=thread,
        to="gm_sam",
        subject="Round 1 in full",
        text="Goblin: Body 2",
        key="private-gm_sam-summary-1",
    )
    (message,) = fake_reddit.messages_to("gm_sam")
    assert (message.author, message.subject) == ("pbp_bot", "Round 1 in full")
    assert key_of(message.body) == f"{thread}/private-gm_sam-summary-1"
    assert sent == f"{thread}/private-gm_sam-summary-1"  # Reddit answers no id: its key
    assert [r.path for r in fake_reddit.requests if r.path != "/api/v1/access_token"] == [
        "/api/compose/"
    ]  # nothing read back


def test_a_private_message_committed_then_answered_502_is_not_sent_twice_and_is_found(
    forum: RedditForum, fake_reddit: FakeReddit, no_sleep: SleepRecorder
) -> None:
    thread = _thread(fake_reddit)
    fake_reddit.inject("POST", "/api/compose", "commit_then_502")
    tried = _now(fake_reddit)
    with pytest.raises(ForumError) as failed:
        forum.send_private(thread=thread, to="gm_sam", subject="s", text="t", key="k1")
    assert failed.value.temporary
    assert len(fake_reddit.messages_to("gm_sam")) == 1  # prawcore did not send it again
    assert forum.find_private(thread=thread, to="gm_sam", key="k1", since=tried) == key_of(
        fake_reddit.messages_to("gm_sam")[0].body
    )


def test_a_private_message_to_a_user_reddit_does_not_know_is_refused_for_good(
    forum: RedditForum, fake_reddit: FakeReddit
) -> None:
    thread = _thread(fake_reddit)
    fake_reddit.missing_users.add("nobody_here")
    with pytest.raises(ForumError) as refused:
        forum.send_private(thread=thread, to="nobody_here", subject="s", text="t", key="k1")
    assert not refused.value.temporary
