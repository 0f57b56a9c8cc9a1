"""What each GM command did, said back to the table: in the GM post's one reply, or (ack =
none) a list in the round's summary; the author of a struck post is told why, in that post's
reply."""

from __future__ import annotations

from pbp.engine import post_reply
from pbp.engine.done import (
    DeadlineSet,
    Done,
    EncounterEnded,
    PostVoided,
)
from pbp.engine.effects import CheatSheetContent, EditReply, Effect, Reply, SummaryContent
from pbp.engine.post_contents import DoneContent, VoidedContent
from pbp.engine.state import EngineState, PostRecord
from pbp.errors import Problem
from pbp.values import replace


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
    if state.ack != "none" and _into_summary(post_id, done, effects):
        # a post that got the summary: its Done lines are said there, and a Done reply of
        # this same step (its set-up, said before the close) is not posted
        state = _unsaid(state, post_id, effects)
        if not refused:
            return state
        done = []
    if _sheet_shows_deadline(state, done, effects):  # the cheat-sheet keeps the deadline true
        sheet = CheatSheetContent(round_number=state.sheet_round)
        effects.append(EditReply(key="cheatsheet", content=sheet))
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


def _into_summary(post_id: str, done: list[Done], effects: list[Effect]) -> bool:
    """Whether ``post_id``'s closing command got the round's summary as its reply in this
    step; if so what its commands did goes into that summary ("The GM's commands";
    ``!encounter end`` is its short-rest line already)."""
    for number, effect in enumerate(effects):
        content = effect.content
        if (
            isinstance(effect, Reply)
            and effect.to == post_id
            and isinstance(content, SummaryContent)
        ):
            kept = tuple(d for d in done if not isinstance(d, EncounterEnded))
            report = replace(content.report, done=(*content.report.done, *kept))
            effects[number] = replace(effect, content=replace(content, report=report))
            return True
    return False


def _unsaid(state: EngineState, post_id: str, effects: list[Effect]) -> EngineState:
    """``state`` without the Done-only reply this step was to post to ``post_id``."""
    post = post_reply.find(state, post_id)
    reply = post.reply if post is not None else None
    if post is None or reply is None or not isinstance(reply.content, DoneContent):
        return state
    if reply.content.then is not None or reply.content.refused:
        return state  # it says more than the Done lines: it stays
    posted = [e for e in effects if isinstance(e, Reply) and e.key == reply.key]
    if not posted:
        return state  # posted in an earlier step: it stays as it is
    effects[:] = [e for e in effects if not (isinstance(e, Reply) and e.key == reply.key)]
    return post_reply.put(state, replace(post, reply=None))
