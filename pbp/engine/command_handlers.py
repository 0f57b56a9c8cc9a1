"""What each generic command does (the handlers of ``engine.commands``' table): set-up at once,
the answers to a player's help commands, and the commands that act after the tags."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from pbp.engine import registry
from pbp.engine.command_table import Acting
from pbp.engine.done import Rested
from pbp.engine.effects import (
    AckModeContent,
    EditReply,
    PreviewContent,
    PrivateReply,
    Reply,
    SheetContent,
    StatusContent,
    SummaryContent,
    UndoneContent,
)
from pbp.engine.private import hides_npcs, private_key
from pbp.engine.problems import CannotUndo
from pbp.engine.roster import Roster
from pbp.engine.rounds import close_round, summary_key
from pbp.engine.setup import located, no_such_post
from pbp.engine.state import EngineState, OpenRound, PostRecord
from pbp.engine.times import later
from pbp.errors import Problem
from pbp.tags import resolve_name
from pbp.tags.command_problems import BadCommandArguments
from pbp.tags.commands import (
    AckCommand,
    CloseCommand,
    Command,
    DeadlineCommand,
    EncounterCommand,
    EncounterEndCommand,
    FeatureCommand,
    GroupCommand,
    NpcCommand,
    PreviewCommand,
    RestCommand,
    SheetCommand,
    StatusCommand,
    UndoCommand,
    VoidCommand,
)
from pbp.values import replace

# -- set-up and control, as soon as the post is read (SPEC §2.5) ------------------------------


def deadline(state: EngineState, command: DeadlineCommand, acting: Acting) -> EngineState | Problem:
    """``!deadline``: a time after the post, a span from the round's opening, or off."""
    rnd, post = state.round, acting.post
    assert rnd is not None
    if command.at is not None:
        if command.at <= post.at:  # it would close the round at once, and in the past
            when = command.at.strftime("%Y-%m-%d %H:%M UTC")
            posted = post.at.strftime("%Y-%m-%d %H:%M UTC")
            return located(
                BadCommandArguments(
                    tag="",
                    command="deadline",
                    found=when,
                    expected=f"a time after this post ({posted})",
                ),
                command,
            )
        return replace(state, round=_timed(rnd, command.at, command))
    due = later(rnd.opened_at, command.after) if command.after is not None else None
    return replace(
        state,
        deadline_after=command.after,
        grace_after=command.grace,
        round=_timed(rnd, due, command),
    )


def _timed(rnd: OpenRound, due: datetime | None, command: DeadlineCommand) -> OpenRound:
    """The round with its new deadline and grace: its reminders are owed again."""
    return replace(rnd, deadline=due, grace=command.grace, reminded=(), nudged=False)


def void(state: EngineState, command: VoidCommand, acting: Acting) -> EngineState | Problem:
    """``!void POST``: the post is struck from the open round."""
    rnd = state.round
    assert rnd is not None
    target = rnd.post(command.post)
    if target is None:
        return no_such_post(command, command.post)
    struck = replace(target, voided_by=acting.post.post_id)
    posts = tuple(struck if p.post_id == target.post_id else p for p in rnd.posts)
    return replace(state, round=replace(rnd, posts=posts))


def roster_setup(
    state: EngineState,
    command: NpcCommand | GroupCommand | FeatureCommand | RestCommand,
    acting: Acting,
) -> EngineState | Problem:
    """``!npc``, ``!group``, ``!feature``, ``!rest``: the scene's roster changes, and the
    round keeps the command (``!undo`` replays it on the round it re-opens)."""
    rnd = state.round
    assert rnd is not None
    changed = registry.change_roster(rnd.base, command)
    if changed is not None and not isinstance(changed, Problem):
        rnd = replace(rnd, base=changed, setup=(*rnd.setup, command))
        if isinstance(command, NpcCommand) and command.scores:  # Markhorspire, d20 numbers
            scores = (*state.npc_scores, (command.name, command.scores))
            return replace(state, round=rnd, npc_scores=scores)
        return replace(state, round=rnd)
    return changed if changed is not None else state


def night_rest(state: EngineState, command: RestCommand, acting: Acting) -> EngineState | Problem:
    """``!rest night``: the roster's night as set-up, and each ruleset's own (a d20 injury
    eases one step, RULES A10), each acknowledged in its ruleset's words."""
    rested = roster_setup(state, command, acting)
    if isinstance(rested, Problem):
        return rested
    post_id = acting.post.post_id
    rested, said = registry.rest(rested, night=True, medic=(), post_id=post_id)
    acting.also.extend(said or (Rested(post_id=post_id),))  # no ruleset's word: the bare fact
    return rested


# -- answers when read ------------------------------------------------------------------------


def _key(command: Command, post: PostRecord) -> str:
    return f"{post.post_id}-{command.source.line}"


def status_reply(state: EngineState, command: StatusCommand, acting: Acting) -> EngineState:
    """``!status``: who has not acted, and the deadline (the GM's full view, privately, when
    the campaign hides NPC numbers)."""
    rnd, post = state.round, acting.post
    assert rnd is not None
    key = _key(command, post)
    acted = {a.actor for p in rnd.posts if p.live for a in p.accepted}
    pcs = [c.name for c in state.campaign.characters if c.player is not None]
    gone = registry.out_of_play(state)  # out of a fight: nobody waits for them
    missing = tuple(n for n in pcs if n in rnd.base.names() and n not in acted and n not in gone)
    status = StatusContent(not_acted=missing, deadline=rnd.deadline, as_of=state)
    acting.effects.append(Reply(key=key, to=post.post_id, content=status))
    if post.gm and hides_npcs(state.campaign) and state.campaign.turns.private_copies == "all":
        acting.effects.append(
            PrivateReply(
                key=private_key(post.author, key), to=post.author, content=status, full=True
            )
        )
    return state


def sheet_reply(state: EngineState, command: SheetCommand, acting: Acting) -> EngineState:
    """``!sheet [NAME] [private]``."""
    post = acting.post
    assert state.round is not None
    key = _key(command, post)
    if command.private:
        acting.effects.append(
            PrivateReply(
                key=private_key(post.author, key),
                to=post.author,
                content=_sheet(state, command, post),
                full=post.gm,
            )
        )
    else:
        acting.effects.append(Reply(key=key, to=post.post_id, content=_sheet(state, command, post)))
    return state


def ack_mode(state: EngineState, command: AckCommand, acting: Acting) -> EngineState:
    """``!ack on|off``: this player's accepted tags get a confirmation, or no longer do (the
    rest of the table keeps its ack setting)."""
    post = acting.post
    who = post.author.casefold()
    acks = state.acks | {who} if command.on else state.acks - {who}
    content = AckModeContent(author=post.author, on=command.on, table=state.ack)
    acting.effects.append(Reply(key=_key(command, post), to=post.post_id, content=content))
    return replace(state, acks=acks)


def _sheet(state: EngineState, command: SheetCommand, post: PostRecord) -> SheetContent:
    assert state.round is not None
    scene = state.round.base
    if command.name is not None:
        found = resolve_name(command.name, candidates=scene.names())
        if isinstance(found, str):
            return SheetContent(names=(found,), as_of=state)
    own = tuple(
        c.name
        for c in state.campaign.characters
        if c.player and c.player.casefold() == post.author.casefold()
    )
    return SheetContent(names=own or scene.names(), as_of=state)


# -- after the tags of the post ---------------------------------------------------------------


def close(state: EngineState, command: CloseCommand, acting: Acting) -> EngineState:
    """``!close``."""
    return _closed(state, acting)


def _closed(
    state: EngineState,
    acting: Acting,
    *,
    after: Callable[[Roster], Roster] | None = None,
    notes: tuple[str, ...] = (),
) -> EngineState:
    """The open round closed by the acting post (``after``, ``notes``: as ``close_round``)."""
    post = acting.post
    state, more = close_round(
        state,
        at=post.at,
        closed_by=post.post_id,
        reply_to=post.post_id,
        after=after,
        notes=notes,
        dice=acting.dice,
        parse=acting.parse,
    )
    acting.effects.extend(more)
    return state


def undo(state: EngineState, command: UndoCommand, acting: Acting) -> EngineState | Problem:
    """``!undo``: the last closed round re-opened, if nothing acted since."""
    rnd = state.round
    assert rnd is not None
    if not state.closed:
        return CannotUndo(tag="!undo", why="nothing_closed")
    if rnd.has_actions:
        return CannotUndo(tag="!undo", why="later_actions")
    last = state.closed[-1]
    base = last.reopen.base
    for setup in rnd.setup:  # set-up made since the close still stands
        changed = registry.change_roster(base, setup)
        base = base if changed is None or isinstance(changed, Problem) else changed
    reopened: OpenRound = replace(
        last.reopen,
        undone=True,
        base=base,
        posts=(*last.reopen.posts, *rnd.posts),
        setup=(*last.reopen.setup, *rnd.setup),
    )
    acting.effects.append(
        EditReply(
            key=summary_key(last.report.number),
            content=UndoneContent(report=last.report, undone_by=acting.post.post_id),
        )
    )
    state = registry.undo(
        replace(
            state,
            round=reopened,
            closed=state.closed[:-1],
            scene=last.reopen.start,
            # the flags the undone summary showed wait for the next one
            late_edits=(*last.report.late_edits, *state.late_edits),
            scene_kind=last.scene_kind,
            closed_posts=state.closed_posts - {p.post_id for p in last.reopen.posts},
        ),
        last,
    )
    for setup in rnd.setup:  # and a night's rest since the close, on each ruleset's state
        if isinstance(setup, RestCommand):
            state, _ = registry.rest(state, night=True, medic=(), post_id=acting.post.post_id)
    return state


def preview(state: EngineState, command: PreviewCommand, acting: Acting) -> EngineState:
    """``!preview``: the round closed as ``!close`` would close it now, told to the GM alone and
    then dropped. The dice are the round's own (each roll is fixed by the seed, its post and
    its tag), so the real close rolls the same for the same posts; nothing is kept."""
    post = acting.post
    after, effects = close_round(
        state, at=post.at, closed_by=post.post_id, reply_to=None, dice=acting.dice
    )
    (report,) = (e.content.report for e in effects if isinstance(e.content, SummaryContent))
    acting.effects.append(
        PrivateReply(
            key=private_key(post.author, f"preview-{post.post_id}"),
            to=post.author,
            content=PreviewContent(report=report, after=after),
            full=True,
        )
    )
    return state  # nothing changes: the round stays open


def encounter(state: EngineState, command: EncounterCommand, acting: Acting) -> EngineState:
    """``!encounter KIND``: the round closed if anyone acted, then a new scene."""
    if state.round is not None and state.round.has_actions:
        state = _closed(state, acting)
    # a new scene: each ruleset's state for it (engine.registry)
    state = replace(state, scene_kind=command.kind)
    return registry.fresh(state, command.kind, command)


def end_encounter(
    state: EngineState, command: EncounterEndCommand, acting: Acting
) -> EngineState | Problem:
    """``!encounter end [medic …] [rally …]``: the round closed, a short rest, and the
    campaign's own scene again."""
    medic = _names(state, command.medic, command)
    rally = _names(state, command.rally, command)
    if isinstance(medic, Problem):
        return medic
    if isinstance(rally, Problem):
        return rally

    def rest(roster: Roster) -> Roster:
        return registry.end_encounter(roster, medic=medic, rally=rally)

    state = _closed(state, acting, after=rest, notes=("encounter_end",))
    state, said = registry.rest(  # RULES A10: medical care
        state, night=False, medic=medic, post_id=acting.post.post_id
    )
    acting.also.extend(said)
    kind = state.campaign.ruleset  # the campaign's own scene follows
    return registry.fresh(replace(state, scene_kind=kind), kind, None)


def _names(
    state: EngineState, texts: tuple[str, ...], command: Command
) -> tuple[str, ...] | Problem:
    assert state.round is not None
    found: list[str] = []
    for text in texts:
        name = resolve_name(text, candidates=state.round.base.names())
        if not isinstance(name, str):
            return located(name, command)
        found.append(name)
    return tuple(found)
