"""``fast_init`` gives a frozen value the ``__init__`` dataclasses would write, only quicker:
the same parameters, the same fields set, still frozen; and it refuses what it cannot build."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

import pbp.services.replay  # noqa: F401  (imports every class built quickly: the tags, the engine, the store)
from pbp.values import FROZEN_VALUES, QUICK_INITS, WRITTEN, fast_init, frozen_value, replace


def test_the_tag_readers_values_are_built_quickly() -> None:
    # fast_init's own (held to dataclasses' below), or frozen_value's (held to dataclasses' in
    # test_frozen_value), each setting the slots through their descriptors
    quick = {cls.__name__ for cls in FROZEN_VALUES if cls.__dict__["__init__"] in QUICK_INITS}
    assert {"Source", "ParsedPost", "ActionTag", "ActionPart", "ForumPost", "Member"} <= quick
    assert len(quick) >= 300  # (every one of them, the subclasses of a problem too)


@pytest.mark.parametrize("cls", sorted(WRITTEN, key=lambda c: c.__qualname__), ids=str)
def test_the_same_parameters_and_the_same_fields(cls: type) -> None:
    written = WRITTEN[cls]
    assert inspect.signature(cls.__init__) == inspect.signature(written)
    fields = dataclasses.fields(cls)
    given = {f.name: object() for f in fields}  # a value of its own for each field
    quick = cls(**given)
    usual = cls.__new__(cls)
    written(usual, **given)
    assert {f.name: getattr(quick, f.name) for f in fields} == given
    assert {f.name: getattr(usual, f.name) for f in fields} == given
    assert quick == usual or not cls.__dataclass_params__.eq  # (equal by identity only)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(quick, fields[0].name, 1)
    assert dataclasses.replace(quick, **{fields[0].name: 1}) != quick


@fast_init
@dataclasses.dataclass(frozen=True, slots=True)
class Point:
    x: int
    y: int = 2
    label: str = dataclasses.field(default="p", kw_only=True)


def test_positional_defaults_and_keyword_only_fields() -> None:
    assert Point(1) == Point(x=1, y=2, label="p")
    assert Point(1, 3, label="q").y == 3
    with pytest.raises(TypeError):
        Point(1, 2, "q")  # type: ignore[misc]
    with pytest.raises(TypeError):
        Point()  # type: ignore[call-arg]


def test_what_it_cannot_build_is_refused() -> None:
    @dataclasses.dataclass(slots=True)
    class NotFrozen:
        x: int

    @dataclasses.dataclass(frozen=True)
    class NoSlots:
        x: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class Checked:
        x: int

        def __post_init__(self) -> None:
            pass

    @dataclasses.dataclass(frozen=True, slots=True)
    class Factory:
        x: tuple[int, ...] = dataclasses.field(default_factory=tuple)

    @dataclasses.dataclass(frozen=True, slots=True)
    class OwnInit:
        x: int

        def __init__(self, x: str) -> None:
            object.__setattr__(self, "x", int(x))

    for cls in (NotFrozen, NoSlots, Checked, Factory, OwnInit):
        with pytest.raises(TypeError, match="fast_init"):
            fast_init(cls)


# ``replace``: dataclasses.replace, quicker (each class's fields held to it, through the
# dataclass decorator itself, in test_frozen_value; here what Marks cannot show there)


@frozen_value
class _Totalled:
    parts: tuple[int, ...]
    label: str = "sum"
    total: int = dataclasses.field(init=False, default=0)
    seen: list[int] = dataclasses.field(init=False, default_factory=list, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "total", sum(self.parts))


@dataclasses.dataclass(frozen=True)
class _Usual:
    parts: tuple[int, ...]
    label: str = "sum"


def test_replace_runs_post_init_and_sets_what_init_sets() -> None:
    old = _Totalled(parts=(1, 2))
    new = replace(old, parts=(5, 6))
    assert new == dataclasses.replace(old, parts=(5, 6))
    assert (new.parts, new.label, new.total) == ((5, 6), "sum", 11)
    assert new.seen == [] and new.seen is not old.seen  # a new default, as __init__ makes
    assert replace(old) == old and replace(old) is not old
    assert replace(_Usual((1,)), label="x") == _Usual((1,), "x")


def test_replace_refuses_what_dataclasses_refuses() -> None:
    old = _Totalled(parts=(1,))
    with pytest.raises(ValueError, match="init=False"):
        replace(old, total=3)
    with pytest.raises(TypeError, match="no_field"):
        replace(old, no_field=1)
    with pytest.raises(TypeError, match="dataclass instances"):
        replace(object())


def test_replace_of_a_scene_works_out_what_follows_from_its_fighters() -> None:
    from pbp.rulesets.distat.rules.fighter import Fighter
    from pbp.rulesets.distat.rules.scene import DistatScene

    scene = DistatScene(fighters=(Fighter(name="Aria", side="pc", body=60, mind=30),))
    goblin = Fighter(name="Goblin", side="npc", body=20, mind=20)
    more = replace(scene, fighters=(*scene.fighters, goblin))
    assert more.names() == ("Aria", "Goblin") and scene.names() == ("Aria",)
    assert more == dataclasses.replace(scene, fighters=more.fighters)
