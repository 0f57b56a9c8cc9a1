"""A post's one reply from the bot, whose text follows the post.

A post gets at most one reply: posted the first time there is something to say of it (a
problem, a confirmation under ``ack = "all"`` or ``!ack on``, what a GM's commands did, a
``!void``), then edited as the post changes. A confirmation that an edit made false becomes the
error; a fixed error says what the post holds now; a struck or deleted post's reply says it
does not count; and the close edits it once more when its verdict is not the one the reply
gives (a fix or a typo only the close's re-read saw, a refused tag that acted after all). Under
``ack = "none"`` nothing is posted: the round's summary lists the problems.

A reply keeps the key it was first posted under, named after what it first said of the post
(``problems-ID``, ``ack-ID``, ``done-ID``, ``problems-ID-closing``, ``voided-ID``): the outbox
and the forum find a reply by its key, so a reply that an earlier pbp posted under one of those
keys goes on being edited, never posted twice.
"""

from __future__ import annotations

from pbp.engine.done import Done
from pbp.engine.effects import EditReply, Effect, Reply
from pbp.engine.post_contents import (
    AckContent,
    ActedContent,
    DeletedContent,
    DoneContent,
    FixedContent,
    PostContent,
    ProblemsContent,
    TagsContent,
    VoidedContent,
)
from pbp.engine.state import EngineState, OpenRound, PostRecord, PostReply
from pbp.errors import Problem
from pbp.values import replace

_TAGS_CONTENTS = (
    ProblemsContent,
    AckContent,
    FixedContent,
    ActedContent,
    VoidedContent,
    DeletedContent,
)


def tags_part(
    state: EngineState,
    post: PostRecord,
    *,
    prior: TagsContent | None,
    acted: tuple[Problem, ...] = (),
    closed: bool = False,
) -> TagsContent | None:
    """What the reply of a live post says of its tags as they read now, after ``prior`` (what
    it said before; None: no reply yet). ``acted``: its refusals that acted at the close after
    all (RULES §6); ``closed``: the close is reading it.

    Its problems, if any; else, once it had some, that it is fixed and what it holds now; a
    confirmation follows the post's tags (none left is said too); a post without a reply gets
    one only to be confirmed."""
    shown = tuple(
        p for p in (*post.command_problems, *post.problems) if not any(p is done for done in acted)
    )
    if shown:
        return ProblemsContent(post_id=post.post_id, problems=shown, closed=closed)
    if acted:
        return ActedContent(post_id=post.post_id)
    actions = tuple(a.tag.source.text for a in post.accepted)
    notes = tuple(n for a in post.accepted for n in a.notes)  # the rulesets' warnings
    listed = state.confirms(post.author)
    match prior:
        case ProblemsContent() | FixedContent() | ActedContent():
            brackets = not actions and "[" in post.body
            return FixedContent(
                post_id=post.post_id,
                actions=actions,
                listed=listed,
                brackets=brackets,
                closed=closed,
                notes=notes,
            )
        case AckContent():
            return AckContent(post_id=post.post_id, actions=actions, closed=closed, notes=notes)
    if actions and (listed or notes):  # SPEC §3: ack = all, or `!ack on`; a warning is due
        return AckContent(post_id=post.post_id, actions=actions, closed=closed, notes=notes)
    return None


def part_of(content: PostContent | None) -> TagsContent | None:
    """What a reply says of its post's tags (a GM's reply says it below its Done lines)."""
    if isinstance(content, DoneContent):
        return content.then
    return content if isinstance(content, _TAGS_CONTENTS) else None


def with_part(content: PostContent | None, part: TagsContent | None) -> PostContent | None:
    """A reply that said ``content`` now saying ``part`` of its post's tags (a GM's Done lines
    and refused closing commands stay: they are read once)."""
    if isinstance(content, DoneContent):
        return replace(content, then=part)
    return part


def gm_reply(
    post_id: str,
    *,
    done: tuple[Done, ...],
    refused: tuple[Problem, ...],
    part: TagsContent | None,
) -> PostContent | None:
    """The reply of a post with what its commands did (and the closing commands refused)
    and ``part``, what it says of its tags."""
    if done or refused:
        return DoneContent(post_id=post_id, done=done, refused=refused, then=part)
    return part


def first_key(content: PostContent, post_id: str) -> str:
    """The key a post's reply is posted under, named after what it first says: what it says
    of the tags first (they may change; a key an earlier pbp gave that part is the one to
    edit), else the commands' part."""
    part = part_of(content)
    match part:
        case ProblemsContent():
            return f"problems-{post_id}"
        case AckContent() | FixedContent() | ActedContent():
            return f"ack-{post_id}"
        case VoidedContent():
            return f"voided-{post_id}"
        case DeletedContent():
            return f"deleted-{post_id}"
    if isinstance(content, DoneContent) and not content.done:
        return f"problems-{post_id}-closing"
    return f"done-{post_id}"


def say(
    state: EngineState, post: PostRecord, content: PostContent | None
) -> tuple[PostRecord, Effect | None]:
    """``post`` with its reply saying ``content``, and what the shell must do: post the reply
    (the first time), edit it (it said something else), or nothing (it says that already, or
    there is nothing to say). Under ``ack = "none"`` only a confirmation its author asked for
    is posted (SPEC §3: the summary lists the rest); a reply posted is kept true all the same."""
    if content is None:
        return post, None
    if post.reply is None and state.ack == "none" and not isinstance(content, AckContent):
        return post, None
    wrong = post.error_replied or isinstance(part_of(content), ProblemsContent)
    if post.reply is None:
        key = first_key(content, post.post_id)
        return (
            replace(post, reply=PostReply(key=key, content=content), error_replied=wrong),
            Reply(key=key, to=post.post_id, content=content),
        )
    if post.reply.content == content:
        return post, None
    key = post.reply.key
    return (
        replace(post, reply=PostReply(key=key, content=content), error_replied=wrong),
        EditReply(key=key, content=content),
    )


def reword(
    state: EngineState,
    post: PostRecord,
    *,
    acted: tuple[Problem, ...] = (),
    closed: bool = False,
) -> tuple[PostRecord, Effect | None]:
    """``post`` (live, its verdicts just read) with its reply saying what it holds now."""
    said = post.reply.content if post.reply is not None else None
    part = tags_part(state, post, prior=part_of(said), acted=acted, closed=closed)
    return say(state, post, with_part(said, part))


def not_counted(
    state: EngineState, post: PostRecord, part: VoidedContent | DeletedContent
) -> tuple[PostRecord, Effect | None]:
    """``post`` (struck or deleted) with its reply saying so; a post without a reply gets one
    only when struck (its author is told why)."""
    if post.reply is None:
        return say(state, post, part if isinstance(part, VoidedContent) else None)
    return say(state, post, with_part(post.reply.content, part))


def find(state: EngineState, post_id: str) -> PostRecord | None:
    """A post of the open round, or of the round its own ``!close`` just closed."""
    rnd = state.round
    found = rnd.post(post_id) if rnd is not None else None
    if found is None and state.closed:
        found = state.closed[-1].reopen.post(post_id)
    return found


def put(state: EngineState, post: PostRecord) -> EngineState:
    """``state`` with ``post`` where ``find`` finds it."""
    rnd = state.round
    if rnd is not None and rnd.post(post.post_id) is not None:
        return replace(state, round=replaced(rnd, post))
    if state.closed and state.closed[-1].reopen.post(post.post_id) is not None:
        last = state.closed[-1]
        return replace(
            state, closed=(*state.closed[:-1], replace(last, reopen=replaced(last.reopen, post)))
        )
    return state


def replaced(rnd: OpenRound, post: PostRecord) -> OpenRound:
    """``rnd`` with ``post`` in place of its record of the same id."""
    return replace(rnd, posts=tuple(post if p.post_id == post.post_id else p for p in rnd.posts))
