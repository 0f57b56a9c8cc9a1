"""Each GM command's acknowledgement (an ``engine.done`` record) read from the command and
the state it left: the table of commands names one of these per row (``engine.commands``)."""

from __future__ import annotations

from pbp.engine.done import (
    CampaignBound,
    DeadlineSet,
    DifficultySet,
    EncounterBegun,
    EncounterEnded,
    FeatureAdded,
    Grouped,
    NpcJoined,
    PostVoided,
    TaskSet,
)
from pbp.engine.state import EngineState, PostRecord
from pbp.tags import resolve_name
from pbp.tags.commands import (
    CampaignCommand,
    DeadlineCommand,
    DifficultyCommand,
    EncounterCommand,
    EncounterEndCommand,
    FeatureCommand,
    GroupCommand,
    NpcCommand,
    TaskCommand,
    VoidCommand,
)


def campaign_bound(state: EngineState, command: CampaignCommand, post: PostRecord) -> CampaignBound:
    """The campaign the thread runs, and the thread its characters came from."""
    return CampaignBound(
        post_id=post.post_id,
        asked=command.name,
        runs=state.campaign.name,
        came_from=state.came_from,
    )


def npc_joined(state: EngineState, command: NpcCommand, post: PostRecord) -> NpcJoined:
    """The name as written, the group as the scene spells it."""
    group = _canonical(state, command.group) if command.group else None
    return NpcJoined(
        post_id=post.post_id, name=command.name, side=command.side or "foes", group=group
    )


def grouped(state: EngineState, command: GroupCommand, post: PostRecord) -> Grouped:
    """The names as the scene spells them."""
    return Grouped(post_id=post.post_id, names=tuple(_canonical(state, n) for n in command.names))


def feature_added(state: EngineState, command: FeatureCommand, post: PostRecord) -> FeatureAdded:
    """``!feature``."""
    return FeatureAdded(post_id=post.post_id, name=command.name, target_number=command.tn)


def task_set(state: EngineState, command: TaskCommand, post: PostRecord) -> TaskSet:
    """``!task`` (an abstract scene's)."""
    return TaskSet(post_id=post.post_id, name=command.name, dc=command.dc, secret=command.secret)


def deadline_set(state: EngineState, command: DeadlineCommand, post: PostRecord) -> DeadlineSet:
    """The round's deadline as the command left it."""
    rnd = state.round
    deadline = rnd.deadline if rnd is not None else None
    when = deadline.strftime("%Y-%m-%d %H:%M UTC") if deadline is not None else None
    return DeadlineSet(post_id=post.post_id, when=when)


def difficulty_set(
    state: EngineState, command: DifficultyCommand, post: PostRecord
) -> DifficultySet:
    """``!difficulty`` (a skirmish's or battle's)."""
    return DifficultySet(
        post_id=post.post_id,
        target=command.post,
        character=command.character or None,
        dc=command.dc,
    )


def post_voided(state: EngineState, command: VoidCommand, post: PostRecord) -> PostVoided:
    """The struck post and its author."""
    target = state.round.post(command.post) if state.round is not None else None
    author = target.author if target is not None else ""
    return PostVoided(
        post_id=post.post_id, target=command.post, author=author, reason=command.reason
    )


def encounter_begun(
    state: EngineState, command: EncounterCommand, post: PostRecord
) -> EncounterBegun:
    """The new scene and its options."""
    hours = int(command.interval.total_seconds() // 3600) if command.interval is not None else None
    return EncounterBegun(
        post_id=post.post_id,
        scene=command.kind.value,
        hours=hours,
        ambush=command.ambush,
        pressure=command.pressure,
    )


def encounter_ended(
    state: EngineState, command: EncounterEndCommand, post: PostRecord
) -> EncounterEnded:
    """``!encounter end``."""
    return EncounterEnded(post_id=post.post_id)


def _canonical(state: EngineState, text: str) -> str:
    """A name as the scene spells it (the GM may have typed a prefix or another case)."""
    scene = state.round.base if state.round is not None else state.scene
    found = resolve_name(text, candidates=(*scene.names(), *scene.feature_names()))
    return found if isinstance(found, str) else text
