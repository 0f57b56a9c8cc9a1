"""The roster every scene shares (``engine.roster``): names, sides, groups, features and who is
out, each ruleset's own part of the cast beside them (``parts``), and its one keeper.

The keeper makes every change of names, sides, groups and features (a new thread, the GM's
``!npc``, ``!group`` and ``!feature``, a campaign file reloaded, a new thread of the
campaign); each installed ruleset's ``CastKeeper`` then follows it for its own part (Distat's
Body and Mind). Without a ruleset that keeps a part, a scene plays with the cast alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import field

from pbp.campaign.model import Campaign
from pbp.engine.roster import Roster
from pbp.engine.setup import new_name_problem, resolve_in
from pbp.engine.slots import Slots
from pbp.errors import Problem
from pbp.tags.commands import Command, FeatureCommand, GroupCommand, NpcCommand
from pbp.values import frozen_value, replace


@frozen_value
class Member:
    """One character of the scene and its side."""

    name: str
    side: str


@frozen_value
class SceneRoster:
    """Who is in the scene, in roster order; the features; the group of every character (and
    of a feature once grouped, RULES D11); who is out; the talent names tags may name; and each
    ruleset's own part of the cast, by its type (``parts``)."""

    members: tuple[Member, ...] = ()
    features: tuple[str, ...] = ()
    groups: Mapping[str, str] = field(default_factory=dict)
    next_group: int = 1
    out: frozenset[str] = frozenset()
    talents: tuple[str, ...] = ()
    parts: Slots = field(default_factory=Slots)

    def names(self) -> tuple[str, ...]:
        """The characters' names in roster order."""
        return tuple(m.name for m in self.members)

    def feature_names(self) -> tuple[str, ...]:
        """The features' names in the order they were added."""
        return self.features

    def talent_names(self) -> tuple[str, ...]:
        """Every talent name on a sheet in the scene, once each (a ruleset's part sets them)."""
        return self.talents

    def side(self, name: str) -> str:
        """The side of the character called ``name``; KeyError if there is none."""
        for member in self.members:
            if member.name == name:
                return member.side
        raise KeyError(name)

    def is_out(self, name: str) -> bool:
        """Whether the character called ``name`` is out."""
        return name in self.out


class CastKeeper:
    """A ruleset's part of the roster, following each change the roster's keeper made: ``after``
    is the roster as the keeper left it (names, sides, groups, features), ``before`` as it was.
    The defaults keep the part as it is."""

    def start(self, roster: SceneRoster, campaign: Campaign) -> SceneRoster:
        """A new thread's roster of ``campaign``, with its part."""
        return roster

    def begin_round(self, roster: SceneRoster) -> SceneRoster:
        """The roster as a new round opens."""
        return roster

    def end_round(self, roster: SceneRoster) -> SceneRoster:
        """The roster after a round's every action."""
        return roster

    def setup(
        self, before: SceneRoster, after: SceneRoster, command: Command
    ) -> SceneRoster | Problem:
        """A GM's ``!npc``, ``!group`` or ``!feature`` (what its part takes of the command: an
        NPC's numbers, a feature's target number)."""
        return after

    def reload(self, before: SceneRoster, after: SceneRoster, campaign: Campaign) -> SceneRoster:
        """A changed campaign file: new characters joined, sheets to apply."""
        return after

    def carry_over(self, before: SceneRoster, after: SceneRoster) -> SceneRoster:
        """A new thread of the campaign: what belongs to the characters kept."""
        return after


def scene_roster(roster: Roster) -> SceneRoster:
    """The roster as the scene roster it is (the only one the engine holds)."""
    assert isinstance(roster, SceneRoster), "the roster is the scene roster"
    return roster


def _new_group(roster: SceneRoster, names: Iterable[str]) -> SceneRoster:
    """``roster`` with ``names`` together in a new group."""
    gid = f"g{roster.next_group}"
    groups = {**roster.groups, **dict.fromkeys(names, gid)}
    return replace(roster, groups=groups, next_group=roster.next_group + 1)


def _joined(roster: SceneRoster, members: Iterable[Member]) -> SceneRoster:
    """``roster`` with ``members`` added, each alone in a group of its own."""
    for member in members:
        roster = _new_group(replace(roster, members=(*roster.members, member)), [member.name])
    return roster


def _in_group(roster: SceneRoster, gid: str) -> tuple[str, ...]:
    """Characters and features in group ``gid``: characters in roster order, then features."""
    chars = tuple(m.name for m in roster.members if roster.groups.get(m.name) == gid)
    return chars + tuple(f for f in roster.features if roster.groups.get(f) == gid)


def set_group(roster: SceneRoster, names: Sequence[str]) -> SceneRoster:
    """These characters and features in one group (a GM's placement, RULES D11): the group of
    the first keeps its id when it only grows, else a new group."""
    if not names:
        return roster
    first = roster.groups.get(names[0])
    if first is not None and set(_in_group(roster, first)) <= set(names):
        return replace(roster, groups={**roster.groups, **dict.fromkeys(names, first)})
    return _new_group(roster, names)


def _npc(roster: SceneRoster, command: NpcCommand) -> SceneRoster | Problem:
    bad = new_name_problem(command.name, roster, command)
    if bad is not None:
        return bad
    npc = Member(name=command.name, side=command.side or "foes")
    if command.group is None:
        return _joined(roster, [npc])
    found = resolve_in(roster, command.group, command=command, features=True)
    if not isinstance(found, str):
        return found
    gid = roster.groups.get(found)
    joined = replace(roster, members=(*roster.members, npc))
    if gid is None:  # a feature not yet in a group: the two make one
        return _new_group(joined, [found, npc.name])
    return replace(joined, groups={**roster.groups, npc.name: gid})


def _group(roster: SceneRoster, command: GroupCommand) -> SceneRoster | Problem:
    names: list[str] = []
    for text in command.names:
        found = resolve_in(roster, text, command=command, features=True)
        if not isinstance(found, str):
            return found
        names.append(found)
    return set_group(roster, names)


def _feature(roster: SceneRoster, command: FeatureCommand) -> SceneRoster | Problem:
    bad = new_name_problem(command.name, roster, command)
    if bad is not None:
        return bad
    return replace(roster, features=(*roster.features, command.name))


def _members(campaign: Campaign) -> tuple[Member, ...]:
    return tuple(Member(name=c.name, side=c.side) for c in campaign.characters)


class RosterKeeper:
    """The keeper of the roster: every change of its names, sides, groups and features, each
    followed by every ruleset's part (``casts``, in the rulesets' order)."""

    def __init__(self, casts: tuple[CastKeeper, ...] = ()) -> None:
        self.casts = casts

    def start(self, campaign: Campaign) -> Roster:
        """The roster of a thread of ``campaign`` before its first post."""
        roster = _joined(SceneRoster(), _members(campaign))
        for cast in self.casts:
            roster = cast.start(roster, campaign)
        return roster

    def begin_round(self, roster: Roster) -> Roster:
        """The roster as a new round opens."""
        now = scene_roster(roster)
        for cast in self.casts:
            now = cast.begin_round(now)
        return now

    def end_round(self, roster: Roster) -> Roster:
        """The roster after a round's every action."""
        now = scene_roster(roster)
        for cast in self.casts:
            now = cast.end_round(now)
        return now

    def setup(self, roster: Roster, command: Command) -> Roster | Problem | None:
        """A GM set-up command that changes the roster at once (``!npc``, ``!group``,
        ``!feature``); None when ``command`` is not one of those."""
        before = scene_roster(roster)
        match command:
            case NpcCommand():
                changed = _npc(before, command)
            case GroupCommand():
                changed = _group(before, command)
            case FeatureCommand():
                changed = _feature(before, command)
            case _:
                return None
        for cast in self.casts:
            if isinstance(changed, Problem):
                break
            changed = cast.setup(before, changed, command)
        return changed

    def reload(self, roster: Roster, campaign: Campaign) -> Roster:
        """The roster under a changed campaign file: new characters join (a character dropped
        from the file stays in the scene: the GM removes it in play), sheets apply."""
        before = scene_roster(roster)
        known = set(before.names())
        after = _joined(before, (m for m in _members(campaign) if m.name not in known))
        for cast in self.casts:
            after = cast.reload(before, after, campaign)
        return after

    def carry_over(self, roster: Roster) -> Roster:
        """The roster a new thread of the campaign starts from: who is out stays; groups and
        features belonged to the old scene."""
        before = scene_roster(roster)
        after = replace(_joined(SceneRoster(), before.members), out=before.out)
        for cast in self.casts:
            after = cast.carry_over(before, after)
        return after
