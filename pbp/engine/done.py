"""What one GM command did, said back to the table: one typed record per kind of
acknowledgement, each with the facts its line names and one template of its own
(``templates/done/<template>.md.j2``), in the GM post's one reply or (ack = none) the list in
the round's summary. ``engine.acknowledge`` reads each record from its command and the state
the command left."""

from __future__ import annotations

from typing import ClassVar

from pbp.values import frozen_value


@frozen_value
class Done:
    """An acknowledgement of the command in post ``post_id``; ``template`` names its line's
    template."""

    post_id: str
    template: ClassVar[str] = ""


@frozen_value
class Rested(Done):
    """``!rest``: a night's rest for everyone."""

    template: ClassVar[str] = "rest"


@frozen_value
class CampaignBound(Done):
    """``!campaign NAME``: the thread runs ``runs`` (``asked``: the name as written); its
    characters came from thread ``came_from``, which is read no more (None: none before)."""

    template: ClassVar[str] = "campaign"
    asked: str
    runs: str
    came_from: str | None = None


@frozen_value
class NpcJoined(Done):
    """``!npc``: ``name`` joins the scene on ``side``, standing with ``group`` if given."""

    template: ClassVar[str] = "npc"
    name: str
    side: str
    group: str | None = None


@frozen_value
class Grouped(Done):
    """``!group``: these characters now stand together."""

    template: ClassVar[str] = "group"
    names: tuple[str, ...]


@frozen_value
class FeatureAdded(Done):
    """``!feature``: ``name`` is part of the scene, with its target number if it has one."""

    template: ClassVar[str] = "feature"
    name: str
    target_number: int | None = None


@frozen_value
class TaskSet(Done):
    """``!task``: task ``name`` and its DC (``secret``: kept from the players)."""

    template: ClassVar[str] = "task"
    name: str
    dc: int
    secret: bool = False


@frozen_value
class DeadlineSet(Done):
    """``!deadline``: the round's deadline as it now stands (None: it has none)."""

    template: ClassVar[str] = "deadline"
    when: str | None = None


@frozen_value
class DifficultySet(Done):
    """``!difficulty``: the DC the course of post ``target`` (``character``'s) rolls against."""

    template: ClassVar[str] = "difficulty"
    target: str
    character: str | None = None
    dc: int


@frozen_value
class PostVoided(Done):
    """``!void``: post ``target`` by ``author`` does not count this round, for ``reason``
    (``author`` is empty when the post was not found in the round)."""

    template: ClassVar[str] = "void"
    target: str
    author: str
    reason: str | None = None


@frozen_value
class EncounterBegun(Done):
    """``!encounter``: a new scene of ``scene`` (its interval in hours, the side that
    ambushed, whether it is under pressure)."""

    template: ClassVar[str] = "encounter"
    scene: str
    hours: int | None = None
    ambush: str | None = None
    pressure: bool = False


@frozen_value
class EncounterEnded(Done):
    """``!encounter end``: the encounter is over, everyone takes a short rest."""

    template: ClassVar[str] = "encounter_end"


@frozen_value
class StandingSet(Done):
    """``!standing``: ``character``'s standing order is now ``tag`` (None: cancelled);
    ``had``: it had one before (replaced, or there was one to cancel)."""

    template: ClassVar[str] = "standing"
    character: str
    tag: str | None = None
    had: bool = False
