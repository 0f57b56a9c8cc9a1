"""Property: whatever players post, edit and delete, and whatever the GM strikes or closes,
every post has at most one reply from the bot at every step, and that reply is true to the
post's current version (its problems, or exactly the tags it holds, or that it does not count);
after a close, true to the close's verdict."""

from __future__ import annotations

import re
from typing import Any

from engine_helpers import BOT, Row, make_campaign
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_one_reply import feed, under
from thread_run import ThreadRun

from pbp.engine.state import PostRecord
from pbp.engine.step import initial_state
from pbp.render.environment import make_environment
from pbp.render.replies import Replies
from pbp.services.seeds import round_seeds

CAMPAIGN = make_campaign()
REPLIES = Replies(env=make_environment(None), seed_for=round_seeds("1"))  # compiled once

SETUP: Row = ("post", "g0", "gm_sam", 0, "The goblin snarls.\n!group Aria, Bram, Goblin")
BODIES = (
    "Aria strikes. [physical: attack Goblin]",
    "[mental: attack Goblin]",
    "[phisical: attack Goblin]",  # a typo
    "[physical: attack Nobody]",  # an unknown name
    "She waits, watching.",  # prose: no tag
    "[move: away]\n[mental: attack Goblin]",
    "!ack on\n[physical: attack Goblin]",
    "!ack off",
)
AUTHORS = ("alice", "bob")


@st.composite
def threads(draw: st.DrawFn) -> tuple[str, list[Row]]:
    """A table's setting and a round or two of posts, edits, deletes, strikes and closes."""
    ack = draw(st.sampled_from(["all", "errors", "none"]))
    rows: list[Row] = [SETUP]
    posts: list[str] = []
    for minute in range(1, draw(st.integers(min_value=2, max_value=14))):
        kind = draw(
            st.sampled_from(["post", "post", "edit", "edit", "delete", "void", "close"])
            if posts
            else st.just("post")
        )
        if kind == "post":
            post_id = f"p{minute}"
            posts.append(post_id)
            rows.append(
                (
                    "post",
                    post_id,
                    draw(st.sampled_from(AUTHORS)),
                    minute,
                    draw(st.sampled_from(BODIES)),
                )
            )
        elif kind == "edit":
            rows.append(
                ("edit", draw(st.sampled_from(posts)), None, minute, draw(st.sampled_from(BODIES)))
            )
        elif kind == "delete":
            rows.append(("delete", draw(st.sampled_from(posts)), None, minute))
        elif kind == "void":
            rows.append(
                ("post", f"g{minute}", "gm_sam", minute, f"!void {draw(st.sampled_from(posts))}")
            )
        else:
            rows.append(("post", f"g{minute}", "gm_sam", minute, "!close"))
    return ack, rows


def _listed(text: str) -> list[str]:
    return re.findall(r"`([^`]*)`", text)


def _true_to_a_live_post(post: PostRecord, text: str, *, closed: bool) -> None:
    problems = (*post.command_problems, *post.problems)
    plain = text.replace("\\", "")  # the reply escapes what it quotes
    if problems and not closed:
        assert not text.startswith(("Read", "Fixed", "This post")), text
        for problem in problems:
            assert problem.tag in plain, (problem.tag, text)
        return
    if closed:
        return  # the close's verdict is checked against its report (below)
    assert not text.startswith((">", "The round has closed")), text
    if text.startswith(("Read", "Fixed: read")):
        assert _listed(text) == [a.tag.source.text for a in post.accepted], text
    elif "holds no tag now" in text:
        assert post.accepted == ()
    elif "its tags will act" in text:
        assert post.accepted != ()


def _check_open_round(run: Any, ack: str) -> None:
    rnd = run.state.round
    for post in rnd.posts if rnd is not None else ():
        if post.gm:
            continue
        replies = under(run, post.post_id)
        text = replies[0].text if replies else None
        if post.deleted:
            assert text is None or "was deleted" in text
            continue
        if post.voided_by is not None:
            assert text is not None or ack == "none"  # its author is told why
            assert text is None or "struck" in text
            continue
        problems = (*post.command_problems, *post.problems)
        if ack in ("all", "errors") and problems:
            assert text is not None, post.post_id  # every problem gets a reply (SPEC §2)
        if ack == "all" and post.accepted and not problems:
            assert text is not None and _listed(text) == [a.tag.source.text for a in post.accepted]
        if text is not None:
            _true_to_a_live_post(post, text, closed=False)


def _check_close(run: Any, number: int) -> None:
    """After a close: each reply of the closed round's live posts gives the close's verdict."""
    report = run.reports[number]
    posts = run.state.closed[-1].reopen.posts if run.state.closed else ()
    for post in posts:
        replies = under(run, post.post_id)
        if post.gm or not post.live or not replies:
            continue
        text = replies[0].text
        refused = [r.tag for r in report.rejected if r.post_id == post.post_id]
        plain = text.replace("\\", "")
        if refused:
            assert text.startswith((">", "The round has closed")), (refused, text)
            assert all(tag in plain for tag in refused), (refused, text)
        else:
            assert not text.startswith((">", "The round has closed")), text
            if text.startswith(("Read", "Fixed: read")):
                assert _listed(text) == [a.tag.source.text for a in post.accepted], text


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(threads())
def test_every_post_has_at_most_one_reply_and_it_is_true_to_the_post(
    case: tuple[str, list[Row]],
) -> None:
    ack, rows = case
    run = ThreadRun(state=initial_state(CAMPAIGN, bot=BOT, ack=ack), replies=REPLIES)
    for row in rows:
        closes = row[0] == "post" and row[4] == "!close"
        number = run.state.round.number if run.state.round is not None else 1
        feed(run, row)  # at most one reply under each post, none strayed into the thread
        if closes and number in run.reports:
            _check_close(run, number)
        _check_open_round(run, ack)
