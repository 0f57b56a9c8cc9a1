"""``frozen_value`` builds a frozen, slotted dataclass whose ``__repr__``, ``__eq__`` and
``__hash__`` are those dataclasses writes (made without compiling code): held to them on
every class of pbp's it builds, and on the cases of dataclasses' own rules."""

from __future__ import annotations

import dataclasses
import importlib
import pickle
import pkgutil
from typing import Any

import pytest

import pbp
from pbp.values import FROZEN_VALUES, frozen_value

for _module in pkgutil.walk_packages(pbp.__path__, "pbp."):  # every class of pbp's built
    if ".migrations" not in _module.name:
        importlib.import_module(_module.name)
_PBP_VALUES = [cls for cls in FROZEN_VALUES if cls.__module__.startswith("pbp.")]


class _Mark:
    """A value of its own for a field, with a repr that names it."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<{self.name}>"


def _made(cls: type, values: dict[str, Any]) -> Any:
    """An instance of ``cls`` holding ``values`` (set through its slots: no ``__init__``
    runs, so a class that checks its fields takes any value)."""
    obj = object.__new__(cls)
    for name, value in values.items():
        object.__setattr__(obj, name, value)
    return obj


def test_every_frozen_value_of_a_process_is_built_so() -> None:
    names = {cls.__qualname__ for cls in _PBP_VALUES}
    assert {"ActionTag", "EngineState", "PostRecord", "Reply", "UnknownName"} <= names
    assert len(_PBP_VALUES) >= 300


@pytest.mark.parametrize("cls", _PBP_VALUES, ids=lambda c: f"{c.__module__}.{c.__qualname__}")
def test_the_methods_dataclasses_would_write(cls: type) -> None:
    fields = dataclasses.fields(cls)
    values = {f.name: _Mark(f.name) for f in fields}
    obj, twin = _made(cls, values), _made(cls, values)
    own = {name for name in ("__repr__", "__eq__", "__hash__") if name in _defined_by_hand(cls)}
    if "__repr__" not in own:
        shown = ", ".join(f"{f.name}=<{f.name}>" for f in fields if f.repr)
        assert repr(obj) == f"{cls.__qualname__}({shown})"
    if "__eq__" not in own:
        assert obj == twin
        assert obj.__eq__(object()) is NotImplemented
        for f in fields:
            other = _made(cls, {**values, f.name: _Mark("other")})
            assert (obj == other) is (not f.compare)
    if "__hash__" not in own:
        hashed = tuple(values[f.name] for f in fields if (f.compare if f.hash is None else f.hash))
        assert hash(obj) == hash(hashed)
    if fields:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(obj, fields[0].name, 1)


def _defined_by_hand(cls: type) -> set[str]:
    """The methods a class of the hierarchy wrote itself (not those frozen_value made)."""
    made = {
        id(vars(c)[name])
        for c in FROZEN_VALUES
        for name in ("__repr__", "__eq__", "__hash__")
        if name in vars(c)
        and getattr(vars(c)[name], "__qualname__", "").startswith(c.__qualname__)
        and getattr(vars(c)[name], "__module__", "") == "pbp.values"
    }
    found = set()
    for name in ("__repr__", "__eq__", "__hash__"):
        method = getattr(cls, name)
        if id(getattr(method, "__func__", method)) not in made and method is not getattr(
            object, name
        ):
            found.add(name)
    return found


@frozen_value
class _Plain:
    a: int
    b: str = "x"
    note: str = dataclasses.field(default="", compare=False, repr=False)


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class _Usual:
    a: int
    b: str = "x"
    note: str = dataclasses.field(default="", compare=False, repr=False)


def test_the_same_as_dataclasses_side_by_side() -> None:
    quick, usual = _Plain(a=1, b="y", note="n"), _Usual(a=1, b="y", note="n")
    assert repr(quick).replace("_Plain", "_Usual") == repr(usual)
    assert hash(quick) == hash(usual)
    assert quick == _Plain(a=1, b="y", note="other")  # (not compared)
    assert quick != _Plain(a=2, b="y")
    assert quick != usual  # another class
    assert dataclasses.replace(quick, a=3) == _Plain(a=3, b="y")
    assert pickle.loads(pickle.dumps(quick)) == quick
    with pytest.raises(dataclasses.FrozenInstanceError):
        quick.a = 2  # type: ignore[misc]
    params = _Plain.__dataclass_params__  # type: ignore[attr-defined]
    assert (params.frozen, params.eq, params.repr) == (True, True, True)


@frozen_value(kw_only=False)
class _One:
    x: float


@frozen_value
class _None:
    pass


def test_one_field_and_no_field_hash_and_compare_as_tuples() -> None:
    nan = float("nan")
    one = _One(nan)
    assert one == _One(nan)  # (the same object: a tuple compares it as equal)
    assert hash(one) == hash((nan,))
    assert _None() == _None()
    assert hash(_None()) == hash(())
    assert repr(_None()) == "_None()"


def test_a_method_of_its_own_is_kept() -> None:
    @frozen_value
    class Named:
        name: str

        def __repr__(self) -> str:
            return f"Named {self.name}"

    @frozen_value
    class Folded:
        name: str

        def __eq__(self, other: object) -> bool:
            return isinstance(other, Folded) and self.name.casefold() == other.name.casefold()

    @frozen_value
    class Hashed:
        name: str

        def __hash__(self) -> int:
            return 7

    assert repr(Named(name="a")) == "Named a"
    assert Folded(name="A") == Folded(name="a")
    assert hash(Folded(name="A")) == hash(("A",))  # dataclasses' rule: its fields' hash
    assert hash(Hashed(name="a")) == 7


def test_a_value_within_its_own_repr_is_dots() -> None:
    @frozen_value
    class Box:
        items: list[Any]

    box = Box(items=[])
    box.items.append(box)
    assert repr(box) == f"{Box.__qualname__}(items=[...])"


def test_it_mixes_with_dataclasses_either_way() -> None:
    @dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
    class Child(_Plain):
        c: int = 0

    @frozen_value
    class Grandchild(Child):
        d: int = 0

    assert Child(a=1, c=2) == Child(a=1, c=2) != Child(a=1, c=3)
    assert Grandchild(a=1, d=4) != Grandchild(a=1, d=5)
    assert repr(Grandchild(a=1)) == f"{Grandchild.__qualname__}(a=1, b='x', c=0, d=0)"
    with pytest.raises(TypeError):

        @dataclasses.dataclass(slots=True)  # not frozen, as with any frozen dataclass
        class Thawed(_Plain):
            pass
