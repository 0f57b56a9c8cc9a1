"""Commands of a post: set-up at once, help replies, and the closing commands after the tags."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from pbp.campaign.model import Campaign
from pbp.engine import registry
from pbp.engine.acks import done_of
from pbp.engine.done import Done
from pbp.engine.effects import (
    AckModeContent,
    EditReply,
    Effect,
    HelpContent,
    PreviewContent,
    PrivateReply,
    ProblemsContent,
    Reply,
    SheetContent,
    StatusContent,
    SummaryContent,
    UndoneContent,
)
from pbp.engine.lazy_dice import DiceForRound
from pbp.engine.private import hides_npcs, private_key
from pbp.engine.problems import CannotUndo
from pbp.engine.reading import Parse, is_command_problem
from pbp.engine.roster import Roster
from pbp.engine.rounds import close_round, summary_key
from pbp.engine.setup import located, no_such_post
from pbp.engine.state import EngineState, OpenRound, PostRecord
from pbp.engine.times import later
from pbp.errors import Problem
from pbp.tags import ParsedPost, resolve_name
from pbp.tags.command_parser import parse_command_line
from pbp.tags.command_problems import BadCommandArguments
from pbp.tags.commands import (
    AckCommand,
    CampaignCommand,
    CloseCommand,
    Command,
    CommandTiming,
    DeadlineCommand,
    EncounterCommand,
    EncounterEndCommand,
    HelpCommand,
    NpcCommand,
    PreviewCommand,
    SheetCommand,
    StatusCommand,
    UndoCommand,
    VoidCommand,
)
from pbp.tags.model import Source


def _deadline(state: EngineState, command: DeadlineCommand,
              post: PostRecord) -> EngineState | Problem:
    rnd = state.round
    assert rnd is not None
    if command.at is not None:
        if command.at <= post.at:  # it would close the round at once, and in the past
            when = command.at.strftime("%Y-%m-%d %H:%M UTC")
            posted = post.at.strftime("%Y-%m-%d %H:%M UTC")
            return located(BadCommandArguments(
                tag="", command="deadline", found=when,
                expected=f"a time after this post ({posted})",
            ), command)
        return replace(state, round=replace(rnd, deadline=command.at, reminded=False))
    deadline = later(rnd.opened_at, command.after) if command.after is not None else None
    return replace(
        state, deadline_after=command.after, round=replace(rnd, deadline=deadline, reminded=False)
    )


def _void(state: EngineState, command: VoidCommand, by: str) -> EngineState | Problem:
    rnd = state.round
    assert rnd is not None
    target = rnd.post(command.post)
    if target is None:
        return no_such_post(command, command.post)
    struck = replace(target, voided_by=by)
    posts = tuple(struck if p.post_id == target.post_id else p for p in rnd.posts)
    return replace(state, round=replace(rnd, posts=posts))


def _at_once(state: EngineState, command: Command, post: PostRecord) -> EngineState | Problem:
    """A set-up or control command, acting as soon as its post is read (SPEC §2.5)."""
    rnd = state.round
    assert rnd is not None
    match command:
        case DeadlineCommand():
            return _deadline(state, command, post)
        case VoidCommand():
            return _void(state, command, post.post_id)
        case CampaignCommand():
            return state  # binding a thread is the shell's business
    owner = registry.command_owner(command)
    if owner is not None:  # a ruleset's own set-up (`!task`, `!difficulty` …)
        return owner.setup(state, command, post)
    changed = registry.ROSTER.setup(rnd.base, command)  # `!npc`, `!group`, `!feature`, `!rest`
    if changed is not None and not isinstance(changed, Problem):
        rnd = replace(rnd, base=changed, setup=(*rnd.setup, command))
        if isinstance(command, NpcCommand) and command.scores:  # Markhorspire, d20 numbers
            scores = (*state.npc_scores, (command.name, command.scores))
            return replace(state, round=rnd, npc_scores=scores)
        return replace(state, round=rnd)
    return changed if changed is not None else state


def _reply(state: EngineState, command: Command, post: PostRecord) -> tuple[Effect, ...]:
    rnd = state.round
    assert rnd is not None
    key = f"{post.post_id}-{command.source.line}"
    match command:
        case HelpCommand():
            return (Reply(key=key, to=post.post_id, content=HelpContent(author=post.author)),)
        case StatusCommand():
            acted = {a.actor for p in rnd.posts if p.live for a in p.accepted}
            pcs = [c.name for c in state.campaign.characters if c.player is not None]
            missing = tuple(n for n in pcs if n in rnd.base.names() and n not in acted)
            status = StatusContent(not_acted=missing, deadline=rnd.deadline, as_of=state)
            shown = Reply(key=key, to=post.post_id, content=status)
            if post.gm and hides_npcs(state.campaign):  # the GM's own view, privately
                return shown, PrivateReply(key=private_key(post.author, key), to=post.author,
                                           content=status, full=True)
            return (shown,)
        case SheetCommand() if command.private:
            return (PrivateReply(key=private_key(post.author, key), to=post.author,
                                 content=_sheet(state, command, post), full=post.gm),)
        case SheetCommand():
            return (Reply(key=key, to=post.post_id, content=_sheet(state, command, post)),)
    return ()


def _ack(state: EngineState, command: AckCommand, post: PostRecord,
         effects: list[Effect]) -> EngineState:
    """``!ack on|off``: this player's accepted tags get a confirmation, or no longer do (the
    rest of the table keeps its ack setting)."""
    who = post.author.casefold()
    acks = state.acks | {who} if command.on else state.acks - {who}
    content = AckModeContent(author=post.author, on=command.on, table=state.ack)
    effects.append(Reply(key=f"{post.post_id}-{command.source.line}", to=post.post_id,
                         content=content))
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


def read_commands(
    state: EngineState, post: PostRecord, parsed: ParsedPost, effects: list[Effect],
    acks: list[Done] | None = None,
) -> tuple[EngineState, PostRecord, list[Command]]:
    """Act on the commands of a newly read post; return the ones that act after its tags.
    What each GM command did goes to ``acks`` (for its acknowledgement)."""
    problems = [p for p in parsed.problems if is_command_problem(p)]
    closing: list[Command] = []
    for command in parsed.commands:
        if any(isinstance(c, EncounterCommand) for c in closing):
            owner = registry.command_owner(command)
            refused = owner.before_scene(command) if owner is not None else None
            if refused is not None:  # `!oppose` would act in the interval now closing
                problems.append(refused)
                continue
            if command.timing in (CommandTiming.AT_ONCE, CommandTiming.AFTER_TAGS):
                # set-up written below `!encounter` belongs to the new scene: it waits for it
                closing.append(command)
                continue
        match command.timing:
            case CommandTiming.AT_ONCE:
                done = _at_once(state, command, post)
                if isinstance(done, EngineState):
                    state = done
                    _record(acks, state, command, post)
                else:
                    problems.append(done)
            case CommandTiming.REPLY if isinstance(command, AckCommand):
                state = _ack(state, command, post, effects)
            case CommandTiming.REPLY if closing:
                closing.append(command)  # SPEC §2.5 line order: it answers after the close
            case CommandTiming.REPLY:
                effects += _reply(state, command, post)
            case CommandTiming.AFTER_TAGS:
                closing.append(command)
            case CommandTiming.IN_ORDER if (owner := registry.command_owner(command)):
                problem = owner.read_command(state, command)
                if problem is not None:
                    problems.append(problem)
    problems.sort(key=lambda p: (p.line, p.column))
    if parsed.commands or problems or post.commands or post.command_problems:
        post = replace(post, commands=parsed.commands, command_problems=tuple(problems))
    return state, post, closing


def _record(acks: list[Done] | None, state: EngineState, command: Command,
            post: PostRecord) -> None:
    """Keep what a GM command did, for the post's acknowledgement."""
    if acks is not None and post.gm:
        item = done_of(state, command, post)
        if item is not None:
            acks.append(item)


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


def _undo(state: EngineState, post: PostRecord, effects: list[Effect]) -> EngineState | Problem:
    rnd = state.round
    assert rnd is not None
    if not state.closed:
        return CannotUndo(tag="!undo", why="nothing_closed")
    if rnd.has_actions:
        return CannotUndo(tag="!undo", why="later_actions")
    last = state.closed[-1]
    base = last.reopen.base
    for command in rnd.setup:  # set-up made since the close still stands
        changed = registry.ROSTER.setup(base, command)
        base = base if changed is None or isinstance(changed, Problem) else changed
    reopened: OpenRound = replace(
        last.reopen,
        base=base,
        posts=(*last.reopen.posts, *rnd.posts),
        setup=(*last.reopen.setup, *rnd.setup),
    )
    effects.append(
        EditReply(
            key=summary_key(last.report.number),
            content=UndoneContent(report=last.report, undone_by=post.post_id),
        )
    )
    return registry.undo(replace(
        state,
        round=reopened,
        closed=state.closed[:-1],
        scene=last.reopen.start,
        # the flags the undone summary showed wait for the next one
        late_edits=(*last.report.late_edits, *state.late_edits),
        scene_kind=last.scene_kind,
        closed_posts=state.closed_posts - {p.post_id for p in last.reopen.posts},
    ), last)


def _closing(
    state: EngineState,
    command: Command,
    post: PostRecord,
    at: datetime,
    effects: list[Effect],
    dice: DiceForRound,
    parse: Parse,
) -> EngineState | Problem:
    assert state.round is not None
    match command:
        case CloseCommand():
            state, more = close_round(
                state, at=at, closed_by=post.post_id, reply_to=post.post_id, dice=dice,
                parse=parse,
            )
            effects += more
            return state
        case UndoCommand():
            return _undo(state, post, effects)
        case PreviewCommand():
            effects.append(_preview(state, post, at, dice))
            return state  # nothing changes: the round stays open
        case EncounterCommand():
            if state.round is not None and state.round.has_actions:
                state, more = close_round(
                    state, at=at, closed_by=post.post_id, reply_to=post.post_id, dice=dice,
                    parse=parse,
                )
                effects += more
            # a new scene: each ruleset's state for it (engine.registry)
            state = replace(state, scene_kind=command.kind)
            return registry.fresh(state, command.kind, command)
        case EncounterEndCommand():
            return _end_encounter(state, command, post, at, effects, dice, parse)
    if command.timing is CommandTiming.AT_ONCE:  # set-up that waited for a new scene
        return _at_once(state, command, post)
    if command.timing is CommandTiming.REPLY:  # `!status` below `!close`: the new round's
        effects += _reply(state, command, post)
    return state


def _preview(state: EngineState, post: PostRecord, at: datetime,
             dice: DiceForRound) -> PrivateReply:
    """``!preview``: the round closed as ``!close`` would close it now, told to the GM alone and
    then dropped. The dice are the round's own (each roll is fixed by the seed, its post and
    its tag), so the real close rolls the same for the same posts; nothing is kept."""
    after, effects = close_round(state, at=at, closed_by=post.post_id, reply_to=None,
                                 dice=dice)
    (report,) = (e.content.report for e in effects if isinstance(e.content, SummaryContent))
    return PrivateReply(key=private_key(post.author, f"preview-{post.post_id}"), to=post.author,
                        content=PreviewContent(report=report, after=after), full=True)


def _end_encounter(
    state: EngineState,
    command: EncounterEndCommand,
    post: PostRecord,
    at: datetime,
    effects: list[Effect],
    dice: DiceForRound,
    parse: Parse,
) -> EngineState | Problem:
    medic = _names(state, command.medic, command)
    rally = _names(state, command.rally, command)
    if isinstance(medic, Problem):
        return medic
    if isinstance(rally, Problem):
        return rally

    def rest(roster: Roster) -> Roster:
        return registry.ROSTER.end_encounter(roster, medic=medic, rally=rally)

    state, more = close_round(
        state,
        at=at,
        closed_by=post.post_id,
        reply_to=post.post_id,
        after=rest,
        notes=("encounter_end",),
        dice=dice,
        parse=parse,
    )
    effects += more
    kind = state.campaign.ruleset  # the campaign's own scene follows
    return registry.fresh(replace(state, scene_kind=kind), kind, None)


def may_close(body: str, *, author: str, campaign: Campaign) -> bool:
    """Whether a post may close the round when it is read: a GM's ``!close``, ``!undo`` or
    ``!encounter`` line (the commands that act after the tags), or any GM post when the
    campaign closes on every GM post (RULES D8). The shell re-reads the open round first."""
    gm = campaign.is_gm(author)
    if gm and campaign.options.close_on_any_gm_post:  # RULES D8
        return True
    for number, line in enumerate(body.splitlines(), start=1):
        if not line.lstrip().startswith("!"):
            continue
        source = Source(index=0, line=number, column=1, text=line.strip())
        command = parse_command_line(line.strip(), source=source, gm=gm)
        if command is None or isinstance(command, Problem):
            continue
        if command.timing is CommandTiming.AFTER_TAGS:
            return True
    return False


def after_tags(
    state: EngineState,
    post: PostRecord,
    closing: list[Command],
    *,
    at: datetime,
    effects: list[Effect],
    dice: DiceForRound,
    parse: Parse,
    acks: list[Done] | None = None,
    refused: list[Problem] | None = None,
) -> EngineState:
    """``!close``, ``!undo`` and ``!encounter …`` act after all the tags of their post. The
    ones refused go to ``refused`` when given (the post's own reply says them), else in a
    reply of their own."""
    if not closing and post.gm and state.campaign.options.close_on_any_gm_post:
        closing = [CloseCommand(source=Source(index=0, line=1, column=1, text=""))]  # RULES D8
    problems: list[Problem] = []
    for command in closing:
        done = _closing(state, command, post, at, effects, dice, parse)
        if isinstance(done, EngineState):
            state = done
            _record(acks, state, command, post)
        else:
            problems.append(located(done, command))
    if problems and state.ack == "none":  # SPEC §3: listed in the round summary instead
        return _note_problems(state, post.post_id, tuple(problems))
    if problems and refused is not None:
        refused += problems
    elif problems:
        effects.append(
            Reply(
                key=f"problems-{post.post_id}-closing",
                to=post.post_id,
                content=ProblemsContent(post_id=post.post_id, problems=tuple(problems)),
            )
        )
    return state


def _note_problems(
    state: EngineState, post_id: str, problems: tuple[Problem, ...]
) -> EngineState:
    """Keep a post's refused commands with it, for the summary's list of what was refused."""
    rnd = state.round
    if rnd is None or rnd.post(post_id) is None:
        return state
    posts = tuple(
        replace(p, command_problems=(*p.command_problems, *problems))
        if p.post_id == post_id else p
        for p in rnd.posts
    )
    return replace(state, round=replace(rnd, posts=posts))
