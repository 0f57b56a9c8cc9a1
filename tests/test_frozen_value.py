"""``frozen_value`` builds a frozen, slotted dataclass whose ``__repr__``, ``__eq__`` and
``__hash__`` are those dataclasses writes (made without compiling code): held to them on
every class of pbp's it builds, against the dataclass decorator itself, and on the cases of
dataclasses' own rules."""

from __future__ import annotations

import dataclasses
import json
import os
import pickle
import subprocess
import sys
from typing import Any

import pytest

from pbp.values import frozen_value

# Run in a new process twice: pbp as it is, and pbp with frozen_value replaced by the dataclass
# decorator it stands for; each prints what every class of pbp's it built does.
_BEHAVIOUR = r"""
import dataclasses, importlib, json, pkgutil, sys
import pbp.values as values
if sys.argv[1] == "dataclasses":
    def frozen_value(cls=None, /, *, kw_only=True):
        def wrap(cls):
            built = dataclasses.dataclass(frozen=True, slots=True, kw_only=kw_only)(cls)
            values.FROZEN_VALUES.append(built)
            return built
        return wrap if cls is None else wrap(cls)
    values.frozen_value = frozen_value
import pbp
for module in pkgutil.walk_packages(pbp.__path__, "pbp."):
    if ".migrations" not in module.name:
        importlib.import_module(module.name)

class Mark:
    def __init__(self, name): self.name = name
    def __repr__(self): return f"<{self.name}>"
    def __eq__(self, other): return isinstance(other, Mark) and other.name == self.name
    def __hash__(self): return hash(self.name)

def made(cls, values):
    obj = object.__new__(cls)  # (no __init__: a class that checks its fields takes these)
    for name, value in values.items():
        object.__setattr__(obj, name, value)
    return obj

seen = {}
for cls in values.FROZEN_VALUES:
    fields = dataclasses.fields(cls)
    marks = {f.name: Mark(f.name) for f in fields}
    obj, twin = made(cls, marks), made(cls, marks)
    try:
        hashed = hash(obj)
    except TypeError as exc:
        hashed = f"TypeError: {exc}"
    try:
        setattr(obj, fields[0].name, 1) if fields else None
        frozen = not fields
    except dataclasses.FrozenInstanceError:
        frozen = True
    seen[f"{cls.__module__}.{cls.__qualname__}"] = {
        "params": repr(cls.__dataclass_params__),
        "fields": [(f.name, f.repr, f.compare, f.hash, f.kw_only) for f in fields],
        "repr": repr(obj),
        "equal": [obj == twin, obj != twin, repr(cls.__eq__(obj, object()))],
        "each field changed": [made(cls, {**marks, f.name: Mark("x")}) == obj for f in fields],
        "hash": hashed,
        "frozen": frozen,
        "methods' modules": [getattr(cls, m).__module__ for m in ("__eq__", "__repr__")],
    }
print(json.dumps(seen, sort_keys=True))
"""


def _behaviour(of: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", _BEHAVIOUR, of],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},  # (the marks' hashes alike in both)
    )
    seen: dict[str, Any] = json.loads(done.stdout)
    return seen


def test_every_frozen_value_of_pbp_s_does_what_the_dataclass_would() -> None:
    quick, usual = _behaviour("frozen_value"), _behaviour("dataclasses")
    assert len(quick) >= 300
    assert {"ActionTag", "EngineState", "PostRecord", "Reply", "UnknownName"} <= {
        key.rsplit(".", 1)[-1] for key in quick
    }
    assert quick.keys() == usual.keys()
    differ = [key for key in quick if quick[key] != usual[key]]
    assert differ == [], (differ[:3], [(quick[k], usual[k]) for k in differ[:1]])


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
    assert quick != usual  # type: ignore[comparison-overlap]  # (another class)
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

    @frozen_value
    class Unhashable:
        name: str
        __hash__ = None  # type: ignore[assignment]

    class Folding:
        def __eq__(self, other: object) -> bool:
            return True

    @frozen_value
    class FromAMixin(Folding):
        name: str

    with pytest.raises(TypeError, match="unhashable"):
        hash(Unhashable(name="a"))
    assert FromAMixin(name="a") != FromAMixin(name="b")  # its own __eq__, as dataclasses writes
    assert hash(FromAMixin(name="a")) == hash(("a",))
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
        class Thawed(_Plain):  # type: ignore[misc]
            pass
