"""The Forum contract: what every forum does for the services, run on each implementation.

The harness (conftest.py) acts as the forum's users; the tests use the forum itself only
through the ``Forum`` protocol, as the bot does. ``FlakyForum`` (tests/fakes.py) is one of the
implementations: with no failures asked for it must pass everything on; the last tests check
the failures it makes on request.
"""

from __future__ import annotations

import pytest
from forum_harness import START, FlakyLocalHarness, ForumHarness

from pbp.errors import ForumError
from pbp.forums.base import ForumPost
from pbp.forums.local import POST_LIMIT
from pbp.render.replies import split_reply


def ids(posts: tuple[ForumPost, ...] | list[ForumPost]) -> list[str]:
    return [p.id for p in posts]


def by_id(posts: tuple[ForumPost, ...]) -> dict[str, ForumPost]:
    return {p.id: p for p in posts}


@pytest.fixture
def changing(harness: ForumHarness) -> ForumHarness:
    """The forums whose listing shows edits and deletes."""
    if not harness.forum.lists_changes:
        pytest.skip(f"the {harness.kind} forum does not list edits and deletes")
    return harness


def test_forum_reports_its_kind_and_whether_it_lists_changes(harness: ForumHarness) -> None:
    assert harness.forum.kind == harness.kind
    assert isinstance(harness.forum.lists_changes, bool)


def test_first_listing_holds_every_post_of_every_thread_oldest_first(
    harness: ForumHarness,
) -> None:
    a, b = harness.new_thread("keep-a"), harness.new_thread("keep-b")
    a1 = harness.post(thread=a, author="alice", body="[physical: attack Goblin]")
    b1 = harness.post(thread=b, author="bob", body="b one")
    a2 = harness.post(thread=a, author="cara", body="a two")
    b2 = harness.post(thread=b, author="alice", body="b two")

    listing = harness.forum.listing(cursor=None)

    assert ids(listing.posts) == [a1, b1, a2, b2]
    created = [p.created_at for p in listing.posts]
    assert created == sorted(created)
    first = listing.posts[0]
    assert (first.thread, first.author, first.body) == (a, "alice", "[physical: attack Goblin]")
    assert (first.reply_to, first.reply_key, first.deleted) == (None, None, False)


def test_each_listed_post_names_its_thread(harness: ForumHarness) -> None:
    a, b = harness.new_thread("keep-a"), harness.new_thread("keep-b")
    a1 = harness.post(thread=a, author="alice", body="in a")
    b1 = harness.post(thread=b, author="bob", body="in b")
    reply = harness.forum.reply(thread=b, to=b1, text="noted", key="b-k1")
    a2 = harness.post(thread=a, author="alice", body="in a again")

    listing = harness.forum.listing(cursor=None)

    assert [(p.id, p.thread) for p in listing.posts] == [(a1, a), (b1, b), (reply, b), (a2, a)]
    assert listing.complete


def test_a_survey_counts_each_threads_posts_not_deleted_the_bots_included(
    harness: ForumHarness,
) -> None:
    a, b, c = (harness.new_thread(n) for n in ("keep-a", "keep-b", "keep-c"))
    a1 = harness.post(thread=a, author="alice", body="one")
    harness.post(thread=a, author="bob", body="two")
    gone = harness.post(thread=a, author="cara", body="three")
    harness.forum.reply(thread=a, to=a1, text="noted", key="k1")
    harness.delete(gone)
    harness.post(thread=b, author="bob", body="in b")

    surveys = harness.forum.survey([a, b, c])

    assert (surveys[a].thread, surveys[a].posts, surveys[b].posts) == (a, 3, 1)
    assert c not in surveys or surveys[c].posts == 0  # a thread with nothing in it yet
    for survey in surveys.values():  # an opening kept apart from the listing is the thread's
        assert survey.opening is None or survey.opening.id == survey.thread


def test_text_comes_out_without_nul_or_control_characters(harness: ForumHarness) -> None:
    a = harness.new_thread("keep-a")
    harness.post(thread=a, author="alice", body="[physical:\x00 attack\x07 Goblin]\r\nthen\trest")

    (post,) = harness.forum.listing(cursor=None).posts

    assert post.body == "[physical: attack Goblin]\nthen\trest"


def test_listing_from_its_cursor_shows_only_what_is_new_since(harness: ForumHarness) -> None:
    a, b = harness.new_thread("keep-a"), harness.new_thread("keep-b")
    harness.post(thread=a, author="alice", body="before")
    first = harness.forum.listing(cursor=None)
    a2 = harness.post(thread=a, author="bob", body="after one")
    b1 = harness.post(thread=b, author="cara", body="elsewhere")
    a3 = harness.post(thread=a, author="cara", body="after two")

    second = harness.forum.listing(cursor=first.cursor)
    third = harness.forum.listing(cursor=second.cursor)

    assert ids(second.posts) == [a2, b1, a3]
    assert third.posts == ()


def test_cursor_of_an_empty_listing_leads_to_the_posts_made_after_it(
    harness: ForumHarness,
) -> None:
    a = harness.new_thread("keep-a")
    empty = harness.forum.listing(cursor=None)
    a1 = harness.post(thread=a, author="alice", body="first")

    assert empty.posts == ()
    assert ids(harness.forum.listing(cursor=empty.cursor).posts) == [a1]


def test_a_post_and_the_bots_reply_to_it_both_show_up(harness: ForumHarness) -> None:
    a = harness.new_thread("keep-a")
    a1 = harness.post(thread=a, author="alice", body="[physical: attack Goblin]")
    reply = harness.forum.reply(thread=a, to=a1, text="Aria attacks the Goblin.", key="r1")

    posts = harness.forum.listing(cursor=None).posts

    assert ids(posts) == [a1, reply]
    answer = posts[1]
    assert (answer.thread, answer.author, answer.body) == (
        a,
        harness.bot,
        "Aria attacks the Goblin.",
    )
    assert (answer.reply_to, answer.reply_key) == (a1, "r1")


def test_a_reply_to_the_thread_answers_no_post(harness: ForumHarness) -> None:
    a = harness.new_thread("keep-a")
    harness.post(thread=a, author="gm_sam", body="Round 1 begins.")
    reply = harness.forum.reply(thread=a, to=None, text="Round 1 summary", key="summary-1")

    (post,) = harness.forum.reread(a, [reply])

    assert (post.reply_to, post.reply_key, post.body) == (None, "summary-1", "Round 1 summary")


def test_find_reply_finds_each_reply_by_its_key(harness: ForumHarness) -> None:
    a = harness.new_thread("keep-a")
    a1 = harness.post(thread=a, author="alice", body="[physical: attack Goblin]")
    first = harness.forum.reply(thread=a, to=a1, text="one", key="k1")
    second = harness.forum.reply(thread=a, to=None, text="two", key="k2")

    assert first != second
    assert harness.forum.find_reply(thread=a, key="k1", to=a1, since=START) == first
    assert harness.forum.find_reply(thread=a, key="k2", to=None, since=START) == second
    assert harness.forum.find_reply(thread=a, key="k3", to=None, since=START) is None


def test_what_a_sending_block_sent_is_on_the_forum_when_it_ends(harness: ForumHarness) -> None:
    a = harness.new_thread("keep-a")
    a1 = harness.post(thread=a, author="alice", body="[physical: attack Goblin]")
    with harness.forum.sending():
        first = harness.forum.reply(thread=a, to=a1, text="one", key="k1")
        # seen inside the block
        assert harness.forum.find_reply(thread=a, key="k1", to=a1, since=START) == first
        second = harness.forum.reply(thread=a, to=None, text="two", key="k2")
        harness.forum.edit_reply(thread=a, reply_id=first, text="one, fixed", key="k1")
        harness.forum.send_private(
            thread=a, to="alice", subject="Your sheet", text="Aria", key="sheet-1"
        )

    posts = by_id(harness.forum.listing(cursor=None).posts)
    assert posts[first].body == "one, fixed" and posts[second].body == "two"
    assert harness.forum.find_private(thread=a, to="alice", key="sheet-1", since=START) is not None
    assert harness.inbox("alice") == [("Your sheet", "Aria")]


def test_find_reply_looks_only_in_the_given_thread(harness: ForumHarness) -> None:
    a, b = harness.new_thread("keep-a"), harness.new_thread("keep-b")
    a1 = harness.post(thread=a, author="alice", body="in a")
    harness.post(thread=b, author="bob", body="in b")
    harness.forum.reply(thread=a, to=a1, text="noted", key="k1")

    assert harness.forum.find_reply(thread=b, key="k1", to=None, since=START) is None


def test_edit_reply_changes_the_text_and_keeps_the_reply_found_by_key(
    harness: ForumHarness,
) -> None:
    a = harness.new_thread("keep-a")
    a1 = harness.post(thread=a, author="alice", body="[physical: attack Goblin]")
    reply = harness.forum.reply(thread=a, to=a1, text="Aria misses.", key="k1")

    harness.forum.edit_reply(thread=a, reply_id=reply, text="Aria hits.", key="k1")
    (after,) = harness.forum.reread(a, [reply])

    assert after.body == "Aria hits."
    assert (after.reply_to, after.reply_key, after.deleted) == (a1, "k1", False)
    assert harness.forum.find_reply(thread=a, key="k1", to=a1, since=START) == reply


def test_reread_gives_current_versions_and_flags_deleted_posts(harness: ForumHarness) -> None:
    a = harness.new_thread("keep-a")
    edited = harness.post(thread=a, author="alice", body="[physical: attack Goblin]")
    deleted = harness.post(thread=a, author="bob", body="[physical: attack Ogre]")
    kept = harness.post(thread=a, author="cara", body="[move: Goblin]")
    harness.edit(edited, body="[physical: attack Ogre]")
    harness.delete(deleted)

    got = by_id(harness.forum.reread(a, [edited, deleted, kept]))

    assert set(got) == {edited, deleted, kept}
    assert got[edited].body == "[physical: attack Ogre]"
    assert got[edited].edited_at is not None
    assert not got[edited].deleted
    assert got[deleted].deleted
    assert got[deleted].body == ""
    assert got[deleted].deleted_at is not None
    assert (got[kept].body, got[kept].edited_at, got[kept].deleted_at) == (
        "[move: Goblin]",
        None,
        None,
    )


def test_reread_of_a_reply_carries_its_target_and_key(harness: ForumHarness) -> None:
    a = harness.new_thread("keep-a")
    a1 = harness.post(thread=a, author="alice", body="[physical: attack Goblin]")
    reply = harness.forum.reply(thread=a, to=a1, text="noted", key="k1")

    (post,) = harness.forum.reread(a, [reply])

    assert (post.id, post.author, post.reply_to, post.reply_key) == (reply, harness.bot, a1, "k1")


def test_an_edit_shows_up_in_the_next_listing(changing: ForumHarness) -> None:
    a = changing.new_thread("keep-a")
    a1 = changing.post(thread=a, author="alice", body="[physical: attack Goblin]")
    changing.post(thread=a, author="bob", body="[physical: attack Ogre]")
    before = changing.forum.listing(cursor=None)

    changing.edit(a1, body="[physical: attack Ogre]")
    (post,) = changing.forum.listing(cursor=before.cursor).posts

    assert (post.id, post.body) == (a1, "[physical: attack Ogre]")
    assert post.edited_at is not None


def test_a_delete_shows_up_in_the_next_listing(changing: ForumHarness) -> None:
    a = changing.new_thread("keep-a")
    changing.post(thread=a, author="alice", body="[physical: attack Goblin]")
    a2 = changing.post(thread=a, author="bob", body="[physical: attack Ogre]")
    before = changing.forum.listing(cursor=None)

    changing.delete(a2)
    (post,) = changing.forum.listing(cursor=before.cursor).posts

    assert (post.id, post.deleted, post.body) == (a2, True, "")


def test_an_edited_reply_shows_up_in_the_next_listing(changing: ForumHarness) -> None:
    a = changing.new_thread("keep-a")
    a1 = changing.post(thread=a, author="alice", body="[physical: attack Goblin]")
    reply = changing.forum.reply(thread=a, to=a1, text="Aria misses.", key="k1")
    before = changing.forum.listing(cursor=None)

    changing.forum.edit_reply(thread=a, reply_id=reply, text="Aria hits.", key="k1")
    (post,) = changing.forum.listing(cursor=before.cursor).posts

    assert (post.id, post.body, post.reply_key) == (reply, "Aria hits.", "k1")


# -- FlakyForum: the failures it makes on request ---------------------------------------------


def test_flaky_forum_fails_the_next_calls_before_they_reach_the_forum(
    flaky: FlakyLocalHarness,
) -> None:
    a1 = flaky.post(thread="keep", author="alice", body="[physical: attack Goblin]")
    flaky.flaky.fail_next("reply", 2)

    errors = []
    for _ in range(2):
        with pytest.raises(ForumError) as caught:
            flaky.forum.reply(thread="keep", to=a1, text="noted", key="k1")
        errors.append(caught.value.temporary)
    reply = flaky.forum.reply(thread="keep", to=a1, text="noted", key="k1")

    assert errors == [True, True]
    assert [p.id for p in flaky.local.thread("keep")] == [a1, reply]
    calls = flaky.flaky.calls_to("reply")
    assert [(c.reached, c.error is not None, c.result) for c in calls] == [
        (False, True, None),
        (False, True, None),
        (True, False, reply),
    ]
    assert calls[0].args == {"thread": "keep", "to": a1, "text": "noted", "key": "k1"}


def test_flaky_forum_fails_permanently_and_only_the_method_asked(
    flaky: FlakyLocalHarness,
) -> None:
    a1 = flaky.post(thread="keep", author="alice", body="hello")
    flaky.flaky.fail_next("listing", temporary=False, message="banned")

    with pytest.raises(ForumError) as caught:
        flaky.forum.listing(cursor=None)
    reread = flaky.forum.reread("keep", [a1])
    listing = flaky.forum.listing(cursor=None)

    assert (caught.value.temporary, str(caught.value)) == (False, "banned")
    assert [p.id for p in reread] == [a1]
    assert [p.id for p in listing.posts] == [a1]
    assert [c.method for c in flaky.flaky.calls] == ["listing", "reread", "listing"]


def test_flaky_forum_can_commit_a_reply_and_still_answer_with_an_error(
    flaky: FlakyLocalHarness,
) -> None:
    a1 = flaky.post(thread="keep", author="alice", body="[physical: attack Goblin]")
    flaky.flaky.commit_then_fail()

    with pytest.raises(ForumError) as caught:
        flaky.forum.reply(thread="keep", to=a1, text="noted", key="k1")
    found = flaky.forum.find_reply(thread="keep", key="k1", to=a1, since=START)
    again = flaky.forum.reply(thread="keep", to=a1, text="other", key="k2")

    assert caught.value.temporary
    (committed,) = [p for p in flaky.local.thread("keep") if p.reply_key == "k1"]
    assert found == committed.id
    (failed, _find, ok) = flaky.flaky.calls
    assert (failed.reached, failed.result, failed.error) == (True, committed.id, caught.value)
    assert (ok.result, ok.error) == (again, None)


def test_flaky_forum_records_the_forums_own_refusals(flaky: FlakyLocalHarness) -> None:
    with pytest.raises(ForumError) as caught:
        flaky.forum.reply(thread="keep", to=None, text="x" * (POST_LIMIT + 1), key="k1")

    (call,) = flaky.flaky.calls
    assert (call.method, call.reached, call.error) == ("reply", True, caught.value)


def test_flaky_forum_refuses_to_fail_a_method_forums_do_not_have(
    flaky: FlakyLocalHarness,
) -> None:
    with pytest.raises(ValueError, match="no method 'post'"):
        flaky.flaky.fail_next("post")


def test_backfill_gives_every_post_of_one_thread_from_its_start(harness: ForumHarness) -> None:
    a, b = harness.new_thread("keep"), harness.new_thread("tower")
    first = harness.post(thread=a, author="alice", body="Aria looks around.")
    harness.post(thread=b, author="bob", body="Elsewhere.")
    second = harness.post(thread=a, author="bob", body="[physical: attack Goblin]")
    reply = harness.forum.reply(thread=a, to=second, text="Noted.", key="k1")
    got = [p for p in harness.forum.backfill(a) if p.id != a]  # Reddit: the submission opens
    assert [p.id for p in got] == [first, second, reply]
    assert {p.thread for p in got} == {a}


# -- private messages -------------------------------------------------------------------------


def test_a_private_message_reaches_only_its_recipient_and_stays_out_of_the_thread(
    harness: ForumHarness,
) -> None:
    a = harness.new_thread("keep-a")
    harness.post(thread=a, author="alice", body="[physical: attack Goblin]")
    before = harness.forum.listing(cursor=None)

    sent = harness.forum.send_private(
        thread=a,
        to="gm_sam",
        subject="Round 1, full numbers",
        text="Goblin: Body 3, Mind 2",
        key="private-gm_sam-s1",
    )

    assert sent
    assert harness.inbox("gm_sam") == [("Round 1, full numbers", "Goblin: Body 3, Mind 2")]
    assert harness.inbox("alice") == []
    after = harness.forum.listing(cursor=before.cursor)
    assert after.posts == ()
    assert [p.id for p in harness.forum.backfill(a) if p.reply_key is not None] == []


def test_find_private_finds_a_message_by_thread_recipient_and_key(harness: ForumHarness) -> None:
    a, b = harness.new_thread("keep-a"), harness.new_thread("keep-b")
    first = harness.forum.send_private(thread=a, to="gm_sam", subject="one", text="1", key="k1")
    harness.forum.send_private(thread=a, to="alice", subject="two", text="2", key="k2")

    assert harness.forum.find_private(thread=a, to="gm_sam", key="k1", since=START) == first
    assert harness.forum.find_private(thread=a, to="gm_sam", key="k2", since=START) is None
    assert harness.forum.find_private(thread=b, to="gm_sam", key="k1", since=START) is None
    assert harness.forum.find_private(thread=a, to="alice", key="k1", since=START) is None
    assert harness.forum.find_private(thread=a, to="alice", key="k2", since=START) is not None


def test_a_private_message_keeps_its_lines(harness: ForumHarness) -> None:
    a = harness.new_thread("keep-a")
    text = "**Round 2** (GM view)\n\n| Name | Body |\n|---|---|\n| Ogre | 4 |"

    harness.forum.send_private(thread=a, to="gm_sam", subject="Round 2", text=text, key="k")

    assert harness.inbox("gm_sam") == [("Round 2", text)]


def test_flaky_forum_can_send_a_private_message_and_still_answer_with_an_error(
    flaky: FlakyLocalHarness,
) -> None:
    flaky.flaky.commit_then_fail(method="send_private")

    with pytest.raises(ForumError) as caught:
        flaky.forum.send_private(thread="keep", to="gm_sam", subject="s", text="t", key="k1")
    found = flaky.forum.find_private(thread="keep", to="gm_sam", key="k1", since=START)

    assert caught.value.temporary
    assert flaky.inbox("gm_sam") == [("s", "t")]
    (failed, _find) = flaky.flaky.calls
    assert (failed.reached, failed.result) == (True, found)


# -- the limits each forum states (ForumLimits): what the services split replies by ------------

LONG_KEY = "problems-t3_abcdefg-closing/part12"  # as long as the keys the services give


def test_a_reply_as_long_as_the_forums_stated_limit_is_posted_and_edited_whole(
    harness: ForumHarness,
) -> None:
    limits = harness.forum.limits
    a = harness.new_thread("keep-a")
    full = "x" * limits.reply_chars

    reply = harness.forum.reply(thread=a, to=None, text=full, key=LONG_KEY)
    harness.forum.edit_reply(thread=a, reply_id=reply, text="y" * limits.reply_chars, key=LONG_KEY)
    (after,) = harness.forum.reread(a, [reply])

    assert after.body == "y" * limits.reply_chars


def test_a_private_message_as_long_as_the_stated_limits_is_sent_whole(
    harness: ForumHarness,
) -> None:
    limits = harness.forum.limits
    a = harness.new_thread("keep-a")
    subject, text = "s" * limits.subject_chars, "x" * limits.reply_chars

    harness.forum.send_private(thread=a, to="alice", subject=subject, text=text, key=LONG_KEY)

    assert harness.inbox("alice") == [(subject, text)]


def test_the_bot_splits_a_longer_reply_into_parts_the_forum_takes(harness: ForumHarness) -> None:
    limit = harness.forum.limits.reply_chars
    a = harness.new_thread("keep-a")
    text = "".join(f"line {i}: {'z' * 60}\n" for i in range(limit // 60))
    assert len(text) > limit

    parts = split_reply(text, limit=limit)
    for i, part in enumerate(parts):
        harness.forum.reply(thread=a, to=None, text=part, key=f"{LONG_KEY}{i}")

    assert len(parts) > 1
    assert all(len(part) <= limit for part in parts)
    posted = [p for p in harness.forum.backfill(a) if p.reply_key is not None]
    # Reddit trims a reply's last line break
    assert [p.body.rstrip() for p in posted] == [part.rstrip() for part in parts]


def test_a_forum_notifies_at_least_one_mention_a_post(harness: ForumHarness) -> None:
    assert harness.forum.limits.mentions_per_post >= 1
