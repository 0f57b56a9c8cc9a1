"""What each GM command did, said back to the table: in the GM post's one reply, or (ack =
none) a list in the round's summary; the author of a struck post is told why, in that post's
reply."""

from __future__ import annotations

from dataclasses import replace

from pbp.engine import post_reply
from pbp.engine.effects import (
    CheatSheetContent,
    EditReply,
    Effect,
    Reply,
    VoidedContent,
)
from pbp.engine.report import Done
from pbp.engine.state import EngineState, PostRecord
from pbp.errors import Problem
from pbp.tags import resolve_name
from pbp.tags.commands import (
    Command,
    DeadlineCommand,
    DifficultyCommand,
    EncounterCommand,
    EncounterEndCommand,
    FeatureCommand,
    GroupCommand,
    NpcCommand,
    RestCommand,
    TaskCommand,
    VoidCommand,
)


def _canonical(state: EngineState, text: str) -> str:
    """A name as the scene spells it (the GM may have typed a prefix or another case)."""
    scene = state.round.base if state.round is not None else state.scene
    found = resolve_name(text, candidates=(*scene.names(), *scene.feature_names()))
    return found if isinstance(found, str) else text


def done_of(state: EngineState, command: Command, post: PostRecord) -> Done | None:
    """What ``command`` did, read from the state it left; None for a command the table needs
    no word about (the summary or a reply of its own says it)."""
    at = post.post_id
    match command:
        case RestCommand():
            return Done(post_id=at, kind="rest")
        case NpcCommand():
            with_whom = (_canonical(state, command.group),) if command.group else ()
            return Done(post_id=at, kind="npc", names=(command.name, *with_whom),
                        text=command.side or "foes")
        case GroupCommand():
            names = tuple(_canonical(state, n) for n in command.names)
            return Done(post_id=at, kind="group", names=names)
        case FeatureCommand():
            return Done(post_id=at, kind="feature", names=(command.name,), number=command.tn)
        case TaskCommand():
            return Done(post_id=at, kind="task", names=(command.name,), number=command.dc,
                        secret=command.secret)
        case DeadlineCommand():
            rnd = state.round
            deadline = rnd.deadline if rnd is not None else None
            when = deadline.strftime("%Y-%m-%d %H:%M UTC") if deadline is not None else None
            return Done(post_id=at, kind="deadline", text=when)
        case DifficultyCommand():
            names = (command.post, *((command.character,) if command.character else ()))
            return Done(post_id=at, kind="difficulty", names=names, number=command.dc)
        case VoidCommand():
            target = state.round.post(command.post) if state.round is not None else None
            author = target.author if target is not None else ""
            return Done(post_id=at, kind="void", names=(command.post, author),
                        text=command.reason)
        case EncounterCommand():
            hours = (int(command.interval.total_seconds() // 3600)
                     if command.interval is not None else None)
            pressure = ("pressure",) if command.pressure else ()
            return Done(post_id=at, kind="encounter", names=(command.kind.value, *pressure),
                        number=hours, text=command.ambush)
        case EncounterEndCommand():
            return Done(post_id=at, kind="encounter_end")
    return None


def _sheet_shows_deadline(state: EngineState, done: list[Done], effects: list[Effect]) -> bool:
    """Whether a new deadline changes the posted cheat-sheet: it shows round 1's deadline
    while round 1 is open (a cheat-sheet still to be posted shows it anyway)."""
    rnd = state.round
    return (rnd is not None and rnd.number == 1 and any(d.kind == "deadline" for d in done)
            and not any(isinstance(e, Reply) and e.key == "cheatsheet" for e in effects))


def acknowledge(state: EngineState, post_id: str, done: list[Done],
                refused: tuple[Problem, ...], effects: list[Effect]) -> EngineState:
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
        content = post_reply.gm_reply(post_id, done=tuple(done), refused=refused,
                                      part=post_reply.part_of(said_before))
        state = _said(state, *post_reply.say(state, post, content), effects)
    for item in done:  # under ack = none only a confirmation a player asked for is edited
        target = post_reply.find(state, item.names[0]) if item.kind == "void" else None
        if target is not None and item.names[1] and not target.deleted:  # it said so
            struck = VoidedContent(post_id=target.post_id, reason=item.text)
            state = _said(state, *post_reply.not_counted(state, target, struck), effects)
    return state


def _said(state: EngineState, post: PostRecord, said: Effect | None,
          effects: list[Effect]) -> EngineState:
    """``state`` with ``post`` (its reply as it says now), and the reply to post or edit."""
    if said is not None:
        effects.append(said)
    return post_reply.put(state, post)
