"""The Distat scene: fighters in roster order, features, groups, knowledge and round flags.

Every function returns a new scene; nothing is changed in place (RULES D11 for groups).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import field

from pbp.rulesets.distat.rules.fighter import Fighter, RulesOptions, status
from pbp.values import frozen_value, replace

Sighting = tuple[int, int]
"""What an observer saw of one talent of one target: (times seen, sequence number of the last)."""

Knowledge = tuple[str, str, str]
"""(observer, target, talent)."""


@frozen_value
class Feature:
    """A piece of scenery: a stat-check target number, a time constraint on reaching it."""

    name: str
    tn: int | None = None
    constraint: int | None = None


@frozen_value
class DistatScene:
    """Everything Distat needs to know about one scene. Build it with ``new_scene``.

    ``groups`` maps every character (and every feature that has one) to its group id.
    ``restrained_this_round`` holds who restrained someone this round (no move after, D9);
    ``mental_this_round`` who took a Mental action this round (Focused Resolve).
    """

    fighters: tuple[Fighter, ...]
    features: tuple[Feature, ...] = ()
    groups: Mapping[str, str] = field(default_factory=dict)
    next_group: int = 1
    sightings: Mapping[Knowledge, Sighting] = field(default_factory=dict)
    identified: frozenset[Knowledge] = frozenset()
    uses: int = 0
    restrained_this_round: frozenset[str] = frozenset()
    mental_this_round: frozenset[str] = frozenset()
    options: RulesOptions = field(default_factory=RulesOptions)
    # what follows from the fields above alone, worked out once for each scene (a scene never
    # changes: every change is a new scene, with its own)
    _by_name: Mapping[str, Fighter] = field(init=False, repr=False, compare=False)
    _names: tuple[str, ...] = field(init=False, repr=False, compare=False)
    _feature_names: tuple[str, ...] = field(init=False, repr=False, compare=False)
    _talent_names: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_name: dict[str, Fighter] = {}
        talents: dict[str, str] = {}
        for f in self.fighters:
            by_name.setdefault(f.name, f)  # the first of a name, as a scan in order finds
            for t in f.talents:
                talents.setdefault(t.name.casefold(), t.name)
        object.__setattr__(self, "_by_name", by_name)
        object.__setattr__(self, "_names", tuple(f.name for f in self.fighters))
        object.__setattr__(self, "_feature_names", tuple(f.name for f in self.features))
        object.__setattr__(self, "_talent_names", tuple(talents.values()))

    # What the engine asks of any scene's roster (``pbp.engine.roster.Roster``): the rest of
    # the engine reads the scene through these alone, and never learns it is Distat's.

    def names(self) -> tuple[str, ...]:
        """The characters' names in roster order."""
        return self._names

    def feature_names(self) -> tuple[str, ...]:
        """The features' names in the order they were added."""
        return self._feature_names

    def talent_names(self) -> tuple[str, ...]:
        """Every talent name on a sheet in the scene, once each."""
        return self._talent_names

    def side(self, name: str) -> str:
        """The side of the character called ``name``; KeyError if there is none."""
        return fighter(self, name).side

    def is_out(self, name: str) -> bool:
        """Whether the character called ``name`` is out of the scene (RULES D6)."""
        return status(fighter(self, name)) == "out"


_DEFAULT_OPTIONS = RulesOptions()


def new_scene(
    fighters: Iterable[Fighter], *, options: RulesOptions = _DEFAULT_OPTIONS
) -> DistatScene:
    """A scene with these fighters, each standing alone in a group of its own."""
    scene = DistatScene(fighters=(), options=options)
    for f in fighters:
        scene = add_fighter(scene, f)
    return scene


def _new_group(scene: DistatScene) -> tuple[DistatScene, str]:
    gid = f"g{scene.next_group}"
    return replace(scene, next_group=scene.next_group + 1), gid


def _regroup(scene: DistatScene, changes: Mapping[str, str]) -> DistatScene:
    groups = dict(scene.groups)
    groups.update(changes)
    return replace(scene, groups=groups)


def add_fighter(
    scene: DistatScene, fighter: Fighter, *, group_with: str | None = None
) -> DistatScene:
    """``scene`` with ``fighter`` added, alone or in the group of ``group_with``."""
    if is_member(scene, fighter.name):
        raise ValueError(f"name already in the scene: {fighter.name}")
    scene = replace(scene, fighters=(*scene.fighters, fighter))
    if group_with is None:
        scene, gid = _new_group(scene)
        return _regroup(scene, {fighter.name: gid})
    scene, gid = group_of_target(scene, group_with)
    return _regroup(scene, {fighter.name: gid})


def replace_sheet(scene: DistatScene, fighter: Fighter) -> DistatScene:
    """New sheet numbers, side and talents for a fighter; damage, pool and restraint kept."""
    old = find_fighter(scene, fighter.name)
    if old is None:
        raise KeyError(fighter.name)
    new = replace(
        old, side=fighter.side, body=fighter.body, mind=fighter.mind, talents=fighter.talents
    )
    return put(scene, new)


def add_feature(
    scene: DistatScene, *, name: str, tn: int | None = None, constraint: int | None = None
) -> DistatScene:
    """``scene`` with a feature (a known feature gets the new numbers). It has no group yet."""
    if find_fighter(scene, name) is not None:
        raise ValueError(f"a character is called {name}")
    feature = Feature(name=name, tn=tn, constraint=constraint)
    kept = tuple(f for f in scene.features if f.name != name)
    if len(kept) < len(scene.features):
        return replace(
            scene, features=tuple(feature if f.name == name else f for f in scene.features)
        )
    return replace(scene, features=(*kept, feature))


def set_group(scene: DistatScene, names: Sequence[str]) -> DistatScene:
    """Put these characters and features into one group (a GM's placement: no checks)."""
    for name in names:
        if not is_member(scene, name):
            raise KeyError(name)
    if not names:
        return scene
    first = scene.groups.get(names[0])
    if first is not None and set(members(scene, first)) <= set(names):
        gid = first  # keep the id when the group only grows
    else:
        scene, gid = _new_group(scene)
    return _regroup(scene, dict.fromkeys(names, gid))


def group_of_target(scene: DistatScene, name: str) -> tuple[DistatScene, str]:
    """The group of a character or feature; a feature without one gets a new group."""
    if not is_member(scene, name):
        raise KeyError(name)
    gid = scene.groups.get(name)
    if gid is not None:
        return scene, gid
    scene, gid = _new_group(scene)
    return _regroup(scene, {name: gid}), gid


def stand_alone(scene: DistatScene, name: str) -> tuple[DistatScene, str]:
    """``name`` moved into a new group of its own."""
    scene, gid = _new_group(scene)
    return _regroup(scene, {name: gid}), gid


def join(scene: DistatScene, name: str, gid: str) -> DistatScene:
    """``name`` moved into group ``gid``."""
    return _regroup(scene, {name: gid})


def members(scene: DistatScene, gid: str) -> tuple[str, ...]:
    """Characters and features in group ``gid``: characters in roster order, then features."""
    chars = tuple(f.name for f in scene.fighters if scene.groups.get(f.name) == gid)
    feats = tuple(f.name for f in scene.features if scene.groups.get(f.name) == gid)
    return chars + feats


def group(scene: DistatScene, name: str) -> str:
    """The group id of a character (always set)."""
    return scene.groups[name]


def same_group(scene: DistatScene, a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` are adjacent: in one group (RULES D11)."""
    ga = scene.groups.get(a)
    return ga is not None and ga == scene.groups.get(b)


def find_fighter(scene: DistatScene, name: str) -> Fighter | None:
    """The fighter called exactly ``name``, or None."""
    return scene._by_name.get(name)


def find_feature(scene: DistatScene, name: str) -> Feature | None:
    """The feature called exactly ``name``, or None."""
    return next((f for f in scene.features if f.name == name), None)


def is_member(scene: DistatScene, name: str) -> bool:
    """Whether ``name`` is a character or a feature of the scene."""
    return find_fighter(scene, name) is not None or find_feature(scene, name) is not None


def fighter(scene: DistatScene, name: str) -> Fighter:
    """The fighter called ``name``; KeyError if there is none."""
    found = find_fighter(scene, name)
    if found is None:
        raise KeyError(name)
    return found


def put(scene: DistatScene, new: Fighter) -> DistatScene:
    """``scene`` with the fighter of ``new``'s name replaced by ``new``."""
    return replace(scene, fighters=tuple(new if f.name == new.name else f for f in scene.fighters))


def names(scene: DistatScene) -> tuple[str, ...]:
    """The characters' names in roster order."""
    return scene._names


def feature_names(scene: DistatScene) -> tuple[str, ...]:
    """The features' names in the order they were added."""
    return scene._feature_names


def talent_names(scene: DistatScene) -> tuple[str, ...]:
    """Every talent name on a sheet in the scene, once each (first spelling, roster order)."""
    return scene._talent_names


def enemies(scene: DistatScene, a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` are enemies: characters on different sides."""
    fa, fb = find_fighter(scene, a), find_fighter(scene, b)
    return fa is not None and fb is not None and fa.side != fb.side
