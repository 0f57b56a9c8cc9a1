"""The roster of a scene that no ruleset keeps more of (``engine.roster``): names, sides,
groups, features and who is out, and its keeper. It is the roster when no installed ruleset
keeps one of its own (``engine.registry.ROSTER``), so a ruleset without Body and Mind plays
with a cast without them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from pbp.campaign.model import Campaign
from pbp.engine.roster import Roster, RosterKeeper
from pbp.engine.setup import new_name_problem, resolve_in
from pbp.errors import Problem
from pbp.tags.commands import Command, FeatureCommand, GroupCommand, NpcCommand


@dataclass(frozen=True, slots=True, kw_only=True)
class Member:
    """One character of the scene and its side."""

    name: str
    side: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SceneRoster:
    """Who is in the scene, in roster order; the features; the group of every character (and
    of a feature once grouped); who is out."""

    members: tuple[Member, ...] = ()
    features: tuple[str, ...] = ()
    groups: Mapping[str, str] = field(default_factory=dict)
    next_group: int = 1
    out: frozenset[str] = frozenset()

    def names(self) -> tuple[str, ...]:
        """The characters' names in roster order."""
        return tuple(m.name for m in self.members)

    def feature_names(self) -> tuple[str, ...]:
        """The features' names in the order they were added."""
        return self.features

    def talent_names(self) -> tuple[str, ...]:
        """No sheet of this roster has talents."""
        return ()

    def side(self, name: str) -> str:
        """The side of the character called ``name``; KeyError if there is none."""
        for member in self.members:
            if member.name == name:
                return member.side
        raise KeyError(name)

    def is_out(self, name: str) -> bool:
        """Whether the character called ``name`` is out."""
        return name in self.out


def _grouped(roster: SceneRoster, names: Iterable[str]) -> SceneRoster:
    """``roster`` with ``names`` together in a new group."""
    gid = f"g{roster.next_group}"
    groups = {**roster.groups, **dict.fromkeys(names, gid)}
    return replace(roster, groups=groups, next_group=roster.next_group + 1)


def _joined(roster: SceneRoster, members: Iterable[Member]) -> SceneRoster:
    """``roster`` with ``members`` added, each alone in a group of its own."""
    for member in members:
        roster = _grouped(replace(roster, members=(*roster.members, member)), [member.name])
    return roster


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
        return _grouped(joined, [found, npc.name])
    return replace(joined, groups={**roster.groups, npc.name: gid})


def _group(roster: SceneRoster, command: GroupCommand) -> SceneRoster | Problem:
    names: list[str] = []
    for text in command.names:
        found = resolve_in(roster, text, command=command, features=True)
        if not isinstance(found, str):
            return found
        names.append(found)
    return _grouped(roster, names)


def _feature(roster: SceneRoster, command: FeatureCommand) -> SceneRoster | Problem:
    bad = new_name_problem(command.name, roster, command)
    if bad is not None:
        return bad
    return replace(roster, features=(*roster.features, command.name))


def _members(campaign: Campaign) -> tuple[Member, ...]:
    return tuple(Member(name=c.name, side=c.side) for c in campaign.characters)


def _own(roster: Roster) -> SceneRoster:
    assert isinstance(roster, SceneRoster), "the roster is the scene roster"
    return roster


class SceneRosterKeeper(RosterKeeper):
    """The keeper of the scene roster: the GM's ``!npc``, ``!group`` and ``!feature``, the
    characters a changed campaign file adds, a new thread's cast."""

    def start(self, campaign: Campaign) -> Roster:
        return _joined(SceneRoster(), _members(campaign))

    def setup(self, roster: Roster, command: Command) -> Roster | Problem | None:
        match command:
            case NpcCommand():
                return _npc(_own(roster), command)
            case GroupCommand():
                return _group(_own(roster), command)
            case FeatureCommand():
                return _feature(_own(roster), command)
        return None

    def reload(self, roster: Roster, campaign: Campaign) -> Roster:
        # a character dropped from the file stays in the scene (the GM removes it in play)
        old = _own(roster)
        known = set(old.names())
        return _joined(old, (m for m in _members(campaign) if m.name not in known))

    def carry_over(self, roster: Roster) -> Roster:
        # who is out stays; groups and features belonged to the old scene
        old = _own(roster)
        return replace(_joined(SceneRoster(), old.members), out=old.out)


SCENE_ROSTER = SceneRosterKeeper()
