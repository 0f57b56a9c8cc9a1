"""What one GM command did, said back to the table: one typed record per kind of
acknowledgement, each with the facts its line names and one template of its own
(``templates/done/<template>.md.j2``), in the GM post's one reply or (ack = none) the list in
the round's summary. ``of`` reads a record from its command and the state the command left
(the table of commands names it, ``engine.commands``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from pbp.tags import resolve_name

if TYPE_CHECKING:
    from pbp.engine.state import EngineState, PostRecord
    from pbp.tags.commands import (
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


@dataclass(frozen=True, slots=True, kw_only=True)
class Done:
    """An acknowledgement of the command in post ``post_id``; ``template`` names its line's
    template."""

    post_id: str
    template: ClassVar[str] = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Rested(Done):
    """``!rest``: a night's rest for everyone."""

    template: ClassVar[str] = "rest"

    @classmethod
    def of(cls, state: EngineState, command: RestCommand, post: PostRecord) -> Rested:
        """``!rest``."""
        return cls(post_id=post.post_id)


@dataclass(frozen=True, slots=True, kw_only=True)
class NpcJoined(Done):
    """``!npc``: ``name`` joins the scene on ``side``, standing with ``group`` if given."""

    template: ClassVar[str] = "npc"
    name: str
    side: str
    group: str | None = None

    @classmethod
    def of(cls, state: EngineState, command: NpcCommand, post: PostRecord) -> NpcJoined:
        """The name as written, the group as the scene spells it."""
        group = _canonical(state, command.group) if command.group else None
        return cls(post_id=post.post_id, name=command.name, side=command.side or "foes",
                   group=group)


@dataclass(frozen=True, slots=True, kw_only=True)
class Grouped(Done):
    """``!group``: these characters now stand together."""

    template: ClassVar[str] = "group"
    names: tuple[str, ...]

    @classmethod
    def of(cls, state: EngineState, command: GroupCommand, post: PostRecord) -> Grouped:
        """The names as the scene spells them."""
        return cls(post_id=post.post_id, names=tuple(_canonical(state, n) for n in command.names))


@dataclass(frozen=True, slots=True, kw_only=True)
class FeatureAdded(Done):
    """``!feature``: ``name`` is part of the scene, with its target number if it has one."""

    template: ClassVar[str] = "feature"
    name: str
    target_number: int | None = None

    @classmethod
    def of(cls, state: EngineState, command: FeatureCommand, post: PostRecord) -> FeatureAdded:
        """``!feature``."""
        return cls(post_id=post.post_id, name=command.name, target_number=command.tn)


@dataclass(frozen=True, slots=True, kw_only=True)
class TaskSet(Done):
    """``!task``: task ``name`` and its DC (``secret``: kept from the players)."""

    template: ClassVar[str] = "task"
    name: str
    dc: int
    secret: bool = False

    @classmethod
    def of(cls, state: EngineState, command: TaskCommand, post: PostRecord) -> TaskSet:
        """``!task`` (an abstract scene's)."""
        return cls(post_id=post.post_id, name=command.name, dc=command.dc, secret=command.secret)


@dataclass(frozen=True, slots=True, kw_only=True)
class DeadlineSet(Done):
    """``!deadline``: the round's deadline as it now stands (None: it has none)."""

    template: ClassVar[str] = "deadline"
    when: str | None = None

    @classmethod
    def of(cls, state: EngineState, command: DeadlineCommand, post: PostRecord) -> DeadlineSet:
        """The round's deadline as the command left it."""
        rnd = state.round
        deadline = rnd.deadline if rnd is not None else None
        when = deadline.strftime("%Y-%m-%d %H:%M UTC") if deadline is not None else None
        return cls(post_id=post.post_id, when=when)


@dataclass(frozen=True, slots=True, kw_only=True)
class DifficultySet(Done):
    """``!difficulty``: the DC the course of post ``target`` (``character``'s) rolls against."""

    template: ClassVar[str] = "difficulty"
    target: str
    character: str | None = None
    dc: int

    @classmethod
    def of(cls, state: EngineState, command: DifficultyCommand,
           post: PostRecord) -> DifficultySet:
        """``!difficulty`` (a skirmish's or battle's)."""
        return cls(post_id=post.post_id, target=command.post,
                   character=command.character or None, dc=command.dc)


@dataclass(frozen=True, slots=True, kw_only=True)
class PostVoided(Done):
    """``!void``: post ``target`` by ``author`` does not count this round, for ``reason``
    (``author`` is empty when the post was not found in the round)."""

    template: ClassVar[str] = "void"
    target: str
    author: str
    reason: str | None = None

    @classmethod
    def of(cls, state: EngineState, command: VoidCommand, post: PostRecord) -> PostVoided:
        """The struck post and its author."""
        target = state.round.post(command.post) if state.round is not None else None
        author = target.author if target is not None else ""
        return cls(post_id=post.post_id, target=command.post, author=author,
                   reason=command.reason)


@dataclass(frozen=True, slots=True, kw_only=True)
class EncounterBegun(Done):
    """``!encounter``: a new scene of ``scene`` (its interval in hours, the side that
    ambushed, whether it is under pressure)."""

    template: ClassVar[str] = "encounter"
    scene: str
    hours: int | None = None
    ambush: str | None = None
    pressure: bool = False

    @classmethod
    def of(cls, state: EngineState, command: EncounterCommand,
           post: PostRecord) -> EncounterBegun:
        """The new scene and its options."""
        hours = (int(command.interval.total_seconds() // 3600)
                 if command.interval is not None else None)
        return cls(post_id=post.post_id, scene=command.kind.value, hours=hours,
                   ambush=command.ambush, pressure=command.pressure)


@dataclass(frozen=True, slots=True, kw_only=True)
class EncounterEnded(Done):
    """``!encounter end``: the encounter is over, everyone takes a short rest."""

    template: ClassVar[str] = "encounter_end"

    @classmethod
    def of(cls, state: EngineState, command: EncounterEndCommand,
           post: PostRecord) -> EncounterEnded:
        """``!encounter end``."""
        return cls(post_id=post.post_id)


def _canonical(state: EngineState, text: str) -> str:
    """A name as the scene spells it (the GM may have typed a prefix or another case)."""
    scene = state.round.base if state.round is not None else state.scene
    found = resolve_name(text, candidates=(*scene.names(), *scene.feature_names()))
    return found if isinstance(found, str) else text
