"""The engine: ``step(state, event, *, dice, now) -> (state, effects)``.

Pure: the same state, event, dice and time give the same result. Posts are read when they
arrive (set-up commands act at once, tags are checked against the scene as it stands), edits
and deletes change the open round until it closes, and time passing closes overdue rounds and
sends the half-time reminder.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from pbp.campaign.model import Campaign
from pbp.engine import post_reply, registry, turns
from pbp.engine.acks import acknowledge
from pbp.engine.commands import after_tags, read_commands
from pbp.engine.done import Done
from pbp.engine.effects import (
    AllActedContent,
    CheatSheetContent,
    Effect,
    MovedContent,
    PrivateReply,
    Reply,
    StatusContent,
)
from pbp.engine.events import (
    CampaignMoved,
    Event,
    PostArrived,
    PostDeleted,
    PostEdited,
    SheetPosted,
    Tick,
)
from pbp.engine.lazy_dice import DiceForRound as DiceForRound  # re-exported for the shell
from pbp.engine.post_contents import AckContent, DeletedContent, DoneContent, ProblemsContent
from pbp.engine.private import gm_copies
from pbp.engine.problems import CommandInEdit
from pbp.engine.reading import (
    Parse,
    checked_against,
    live_before,
    parse_for,
    pending_of,
    read_post,
)
from pbp.engine.rounds import close_round, open_round
from pbp.engine.standing import cancelled_with, ordered
from pbp.engine.state import EngineState, PostRecord
from pbp.errors import Problem
from pbp.tags import parse_post
from pbp.tags.commands import Command
from pbp.values import replace

Step = tuple[EngineState, tuple[Effect, ...]]


def initial_state(
    campaign: Campaign, *, bot: str = "", ack: str = "errors", mentions_per_post: int = 3
) -> EngineState:
    """A thread of ``campaign`` before its first post; ``mentions_per_post`` is the forum's
    (how many user mentions one reply may carry that still notify)."""
    state = EngineState(
        campaign=campaign,
        scene_kind=campaign.ruleset,
        scene=registry.ROSTER.start(campaign),
        bot=bot,
        ack=ack,
        mentions_per_post=mentions_per_post,
    )
    return registry.fresh(state, campaign.ruleset, None)


def step(
    state: EngineState,
    event: Event,
    *,
    dice: DiceForRound,
    now: datetime,
    parse: Parse = parse_post,
) -> Step:
    """Apply one event; return the new state and what the shell must do. ``parse`` reads a
    post's text; each version is parsed once, when it arrives (SPEC §4.3's check at the
    close reuses it)."""
    del now  # the events carry their own times
    if state.moved_to is not None:  # the campaign runs in another thread now
        return state, ()
    effects: list[Effect] = []
    if isinstance(event, CampaignMoved):
        return _moved(state, event)
    if isinstance(event, SheetPosted):  # unchanged: the shell logs nothing
        same = event.round_number == state.sheet_round
        return (state if same else replace(state, sheet_round=event.round_number)), ()
    shown = turns.board(state)
    state = _due(state, event.at, effects, dice, parse)
    match event:
        case PostArrived():
            state = _arrive(state, event, effects, dice, parse)
            state = turns.early_close(state, event.at, effects, dice=dice, parse=parse)
        case PostEdited():
            state = _edit(state, event, effects, parse)
            state = turns.early_close(state, event.at, effects, dice=dice, parse=parse)
        case PostDeleted():
            state = _delete(state, event, effects)
        case Tick():
            pass
    return state, turns.with_board(shown, state, gm_copies(state.campaign, effects))


def _moved(state: EngineState, event: CampaignMoved) -> Step:
    """The campaign moved to another thread: this one says so, once, and is read no more (an
    open round with actions is left as it stands: its characters went on as they stood)."""
    rnd = state.round
    unresolved = rnd.number if rnd is not None and rnd.has_actions else None
    notice = Reply(key="moved", to=None, content=MovedContent(to=event.to, unresolved=unresolved))
    return replace(state, moved_to=event.to), (notice,)


LATE_DEADLINE = timedelta(minutes=15)  # a deadline noticed later than this was missed


def _due(
    state: EngineState, at: datetime, effects: list[Effect], dice: DiceForRound, parse: Parse
) -> EngineState:
    """Close an overdue round (one in which someone acted, or a standing order acts), nudge
    the players still to act when its deadline opens a grace, and send the reminders."""
    rnd = state.round
    if rnd is None or rnd.deadline is None:
        return state
    if at < rnd.deadline:
        return turns.remind(state, rnd, at, effects)
    if not (rnd.has_actions or ordered(state, rnd)):
        return state  # a round in which no one acted waits for the GM (SPEC §4.4)
    grace = rnd.grace_until
    if grace is not None and turns.missing(state, rnd) and at < grace:
        if not rnd.nudged:  # the deadline passed: the players still to act are told once more
            state = replace(state, round=replace(rnd, nudged=True))
            effects += turns.reminders(
                state, rnd, spec="deadline", key=f"grace-{rnd.number}", grace=True
            )
        return state
    if rnd.nudged and grace is not None:  # in grace: now, once everyone has acted
        closes = grace if turns.missing(state, rnd) else min(at, grace)
    else:
        closes = turns.closes_at(state, rnd) or rnd.deadline
    # seen long after it passed (the bot was stopped): the next round's deadline counts from
    # now, so its players get their whole time
    late = at - closes > LATE_DEADLINE
    state, more = close_round(
        state,
        at=closes,
        closed_by="deadline",
        reply_to=None,
        dice=dice,
        opens_at=at if late else None,
        parse=parse,
    )
    effects += more
    return state


def _known(state: EngineState, post_id: str) -> bool:
    return post_id in state.closed_posts or (
        state.round is not None and state.round.post(post_id) is not None
    )


def _arrive(
    state: EngineState,
    event: PostArrived,
    effects: list[Effect],
    dice: DiceForRound,
    parse: Parse,
) -> EngineState:
    if state.bot and event.author.casefold() == state.bot.casefold():
        return state  # the bot never acts on its own posts
    if _known(state, event.post_id):
        return state  # a post is read once; later versions come as edits
    if state.round is None:
        state = replace(state, round=open_round(state, number=1, at=event.at))
        effects.append(Reply(key="cheatsheet", to=None, content=CheatSheetContent(round_number=1)))
    assert state.round is not None
    gm = state.campaign.is_gm(event.author)
    post = PostRecord(
        post_id=event.post_id,
        author=event.author,
        gm=gm,
        at=event.at,
        order=state.posts_seen,
        body=event.body,
    )
    reading = parse_for(state, body=event.body, gm=gm, parse=parse)
    done: list[Done] = []
    read_against = state
    state, post, closing = read_commands(
        state, post, reading.parsed, effects, done, dice=dice, parse=parse
    )
    assert state.round is not None
    rnd = state.round
    if state is not read_against:  # the tags are read against the scene the set-up commands left
        reading = parse_for(state, body=event.body, gm=gm, parse=parse, reuse=reading)
    before = live_before(rnd.posts, stop=None)
    accepted, problems = read_post(state, post=post, reading=reading, pending=pending_of(before))
    post = replace(
        post,
        accepted=accepted,
        problems=problems,
        reading=reading,
        checked=checked_against(state, reading=reading, before=before),
    )
    # its one reply, as far as it can be said now (SPEC §2: every problem, SPEC §3: a
    # confirmation); the commands that act after the tags may add to it below
    part = post_reply.tags_part(state, post, prior=None)
    post, said = post_reply.say(
        state, post, post_reply.gm_reply(post.post_id, done=tuple(done), refused=(), part=part)
    )
    effects += [said] if said is not None else []
    # the post counted in the order of posts seen (``order`` above) with the round's posts
    state = replace(
        state, round=replace(rnd, posts=(*rnd.posts, post)), posts_seen=state.posts_seen + 1
    )
    effects[:] = [_counting_own_tags(effect, post) for effect in effects]
    state = _tell_all_acted(state, post, effects)
    refused: list[Problem] = []
    state = after_tags(
        state,
        post,
        closing,
        effects=effects,
        dice=dice,
        parse=parse,
        acks=done,
        refused=refused,
    )
    return acknowledge(state, post.post_id, done, tuple(refused), effects)


def _counting_own_tags(effect: Effect, post: PostRecord) -> Effect:
    """A ``!status`` answer of ``post`` counts the post's own accepted tags: its commands are
    read before its tags (set-up acts at once), but its author has acted."""
    content = effect.content
    if not isinstance(effect, Reply | PrivateReply) or not isinstance(content, StatusContent):
        return effect
    own = {a.actor for a in post.accepted}
    left = tuple(name for name in content.not_acted if name not in own)
    return replace(effect, content=replace(content, not_acted=left))


def _tell_all_acted(state: EngineState, post: PostRecord, effects: list[Effect]) -> EngineState:
    rnd = state.round
    if rnd is None or rnd.all_acted_told or not post.accepted:
        return state
    pcs = [
        c.name
        for c in state.campaign.characters
        if c.player is not None and c.name in rnd.base.names()
    ]
    if pcs and not turns.missing(state, rnd):
        gms = state.campaign.gms[: state.mentions_per_post]  # the mentions the forum notifies
        for i, effect in enumerate(effects):  # the post's own new reply says it: one, not two
            content = effect.content
            if (
                isinstance(effect, Reply)
                and effect.to == post.post_id
                and isinstance(content, ProblemsContent | AckContent | DoneContent)
            ):
                effects[i] = replace(effect, content=replace(content, all_acted=gms))
                return replace(state, round=replace(rnd, all_acted_told=True))
        effects.append(
            Reply(
                key=f"all-acted-{rnd.number}",
                to=None,  # the thread's, like the reminders: a post has one reply, its own
                content=AllActedContent(gms=gms),
            )
        )
        return replace(state, round=replace(rnd, all_acted_told=True))
    return state


def _flag_late(state: EngineState, post_id: str) -> EngineState:
    if post_id in state.closed_posts and post_id not in state.late_edits:
        return replace(state, late_edits=(*state.late_edits, post_id))
    return state


def _edit(
    state: EngineState, event: PostEdited, effects: list[Effect], parse: Parse
) -> EngineState:
    rnd = state.round
    post = rnd.post(event.post_id) if rnd is not None else None
    if rnd is None or post is None:
        return _flag_late(state, event.post_id)  # edits after the close change nothing
    if post.deleted:
        return state
    reading = parse_for(state, body=event.body, gm=post.gm, parse=parse)
    before = live_before(rnd.posts, stop=post.post_id)
    accepted, problems = read_post(state, post=post, reading=reading, pending=pending_of(before))
    new = replace(
        post,
        body=event.body,
        edited=True,
        accepted=accepted,
        problems=problems,
        command_problems=_edited_commands(post, reading.parsed.commands),
        reading=reading,
        checked=checked_against(state, reading=reading, before=before),
    )
    if new.live:  # a struck post's reply goes on saying it does not count
        new, said = post_reply.reword(state, new)
        effects += [said] if said is not None else []
    state = replace(state, round=post_reply.replaced(rnd, new))
    return _tell_all_acted(state, new, effects)


def _edited_commands(post: PostRecord, commands: tuple[Command, ...]) -> tuple[Problem, ...]:
    """The post's command problems after an edit: those of its first version (they stand:
    commands are read once), and a note on each command line the edit wrote, which did
    nothing (SPEC §2.5)."""
    first = tuple(p for p in post.command_problems if not isinstance(p, CommandInEdit))
    read = {c.source.text for c in post.commands}
    written = tuple(
        CommandInEdit(tag=c.source.text, line=c.source.line, column=c.source.column, word=c.word)
        for c in commands
        if c.source.text not in read
    )
    return tuple(sorted((*first, *written), key=lambda p: (p.line, p.column)))


def _delete(state: EngineState, event: PostDeleted, effects: list[Effect]) -> EngineState:
    state = cancelled_with(state, event.post_id)  # its standing orders are taken back too
    rnd = state.round
    post = rnd.post(event.post_id) if rnd is not None else None
    if rnd is None or post is None:
        return _flag_late(state, event.post_id)
    # text purged
    gone = replace(
        post, deleted=True, body="", accepted=(), problems=(), reading=None, checked=None
    )
    # its reply, if it has one, stops saying that it acts (or what is wrong in it)
    gone, said = post_reply.not_counted(state, gone, DeletedContent(post_id=post.post_id))
    effects += [said] if said is not None else []
    return replace(state, round=post_reply.replaced(rnd, gone))
