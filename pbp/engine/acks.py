"""What each GM command did, said back to the table: one reply per GM post, or (ack = none)
a list in the round's summary; the author of a struck post is told why."""

from __future__ import annotations

from dataclasses import replace

from pbp.engine.effects import (
    CheatSheetContent,
    DoneContent,
    EditReply,
    Effect,
    Reply,
    VoidedContent,
)
from pbp.engine.report import Done
from pbp.engine.state import EngineState, PostRecord
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


def acknowledge(state: EngineState, post: PostRecord, done: list[Done],
                effects: list[Effect]) -> EngineState:
    """Say what a GM post's commands did: one reply under it, and one under each post it
    struck; under ack = none nothing is posted and the round's summary lists them (SPEC §3)."""
    if not done:
        return state
    if _sheet_shows_deadline(state, done, effects):  # the cheat-sheet keeps the deadline true
        effects.append(EditReply(key="cheatsheet", content=CheatSheetContent(round_number=1)))
    if state.ack == "none":
        rnd = state.round
        if rnd is None:
            return state
        return replace(state, round=replace(rnd, done=(*rnd.done, *done)))
    effects.append(Reply(key=f"done-{post.post_id}", to=post.post_id,
                         content=DoneContent(post_id=post.post_id, done=tuple(done))))
    for item in done:
        if item.kind == "void" and item.names[1]:
            effects.append(Reply(key=f"voided-{item.names[0]}", to=item.names[0],
                                 content=VoidedContent(post_id=item.names[0], reason=item.text)))
    return state
