"""What each GM command did, said back to the table: in the GM post's one reply, or (ack =
none) a list in the round's summary; the author of a struck post is told why, in that post's
reply."""

from __future__ import annotations

from dataclasses import replace

from pbp.engine import post_reply
from pbp.engine.done import (
    DeadlineSet,
    Done,
    PostVoided,
)
from pbp.engine.effects import CheatSheetContent, EditReply, Effect, Reply
from pbp.engine.post_contents import VoidedContent
from pbp.engine.state import EngineState, PostRecord
from pbp.errors import Problem


def _sheet_shows_deadline(state: EngineState, done: list[Done], effects: list[Effect]) -> bool:
    """Whether a new deadline changes the posted cheat-sheet: it shows round 1's deadline
    while round 1 is open (a cheat-sheet still to be posted shows it anyway)."""
    rnd = state.round
    return (
        rnd is not None
        and rnd.number == 1
        and any(isinstance(d, DeadlineSet) for d in done)
        and not any(isinstance(e, Reply) and e.key == "cheatsheet" for e in effects)
    )


def acknowledge(
    state: EngineState,
    post_id: str,
    done: list[Done],
    refused: tuple[Problem, ...],
    effects: list[Effect],
) -> EngineState:
    """Say what a GM post's commands did, in the post's one reply (with what it says of its
    tags, and the closing commands it refused), and tell the author of each post it struck,
    in that post's reply; under ack = none nothing is posted and the round's summary lists
    them (SPEC §3)."""
    if not done and not refused:
        return state
    if _sheet_shows_deadline(state, done, effects):  # the cheat-sheet keeps the deadline true
        effects.append(EditReply(key="cheatsheet", content=CheatSheetContent(round_number=1)))
    post = post_reply.find(state, post_id)
    if state.ack == "none":
        rnd = state.round
        if rnd is not None:
            state = replace(state, round=replace(rnd, done=(*rnd.done, *done)))
    elif post is not None:
        said_before = post.reply.content if post.reply is not None else None
        content = post_reply.gm_reply(
            post_id, done=tuple(done), refused=refused, part=post_reply.part_of(said_before)
        )
        state = _said(state, *post_reply.say(state, post, content), effects)
    for item in done:  # under ack = none only a confirmation a player asked for is edited
        if not isinstance(item, PostVoided):
            continue
        target = post_reply.find(state, item.target)
        if target is not None and item.author and not target.deleted:  # it said so
            struck = VoidedContent(post_id=target.post_id, reason=item.reason)
            state = _said(state, *post_reply.not_counted(state, target, struck), effects)
    return state


def _said(
    state: EngineState, post: PostRecord, said: Effect | None, effects: list[Effect]
) -> EngineState:
    """``state`` with ``post`` (its reply as it says now), and the reply to post or edit."""
    if said is not None:
        effects.append(said)
    return post_reply.put(state, post)
