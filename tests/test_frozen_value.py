"""``frozen_value`` builds a frozen, slotted dataclass whose ``__repr__``, ``__eq__`` and
``__hash__`` are those dataclasses writes (made without compiling code): held to them on
every class of pbp's it builds, against the dataclass decorator itself, and on the cases of
dataclasses' own rules."""

from __future__ import annotations

import abc
import copy
import dataclasses
import inspect
import json
import os
import pickle
import re
import subprocess
import sys
import threading
import typing
from typing import Any

import pytest

from pbp.values import QUICK_INITS, frozen_value

# Run in a new process twice: pbp as it is, and pbp with frozen_value replaced by the dataclass
# decorator it stands for; each prints what every class of pbp's it built does.
_BEHAVIOUR = r"""
import copy, dataclasses, importlib, inspect, json, pickle, pkgutil, sys, typing
import pbp.values as values
if sys.argv[1] == "dataclasses":
    def frozen_value(cls=None, /, *, kw_only=True):
        def wrap(cls):
            built = dataclasses.dataclass(frozen=True, slots=True, kw_only=kw_only)(cls)
            values.FROZEN_VALUES.append(built)
            return built
        return wrap if cls is None else wrap(cls)
    values.frozen_value = frozen_value
    values.fast_init = lambda cls: cls  # (dataclasses' own __init__ too)
    values.replace = dataclasses.replace
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

def attempt(run):
    try:
        return ["returned", run()]
    except Exception as exc:
        return [type(exc).__name__, str(exc)]

def state(obj, fields):
    return {f.name: repr(getattr(obj, f.name, "(unset)")) for f in fields}

# what __init__ does with a value for each parameter, with only the required ones (the
# defaults and default factories), by position (where fields go so), and through replace
def made_by_init(cls, fields):
    given = [f for f in fields if f.init]
    required = [f for f in given if f.default is f.default_factory is dataclasses.MISSING]
    positional = [f for f in given if not f.kw_only]
    marks = lambda chosen: {f.name: Mark(f.name) for f in chosen}
    return {
        "every parameter": attempt(lambda: state(cls(**marks(given)), fields)),
        "required only": attempt(lambda: state(cls(**marks(required)), fields)),
        "by position": attempt(lambda: state(cls(*[Mark(f.name) for f in positional]), fields)),
        "replaced": attempt(lambda: state(dataclasses.replace(
            cls(**marks(given)), **{f.name: Mark("r") for f in given[:1]}
        ), fields)),
        # pbp's own replace: each field in turn, none, and a name that is no field
        "replaced quickly": [
            attempt(lambda c=c: state(values.replace(cls(**marks(given)), **c), fields))
            for c in [*({f.name: Mark("r")} for f in fields), {}, {"not_a_field": 1}]
        ],
    }

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
        **made_by_init(cls, fields),
        "doc": cls.__doc__,
        "match args": getattr(cls, "__match_args__", None),
        "slots": cls.__dict__.get("__slots__"),
        "init": [cls.__init__.__qualname__, cls.__init__.__module__],
        "signature": attempt(lambda: str(inspect.signature(cls))),
        "hints": attempt(lambda: repr(typing.get_type_hints(cls.__init__))),
        "not a field set": attempt(lambda: setattr(obj, "not_a_field", 1)),
        "field deleted": attempt(lambda: delattr(obj, fields[0].name)) if fields else None,
        "each field set": [attempt(lambda f=f: setattr(obj, f.name, 1)) for f in fields],
        "each field deleted": [attempt(lambda f=f: delattr(obj, f.name)) for f in fields],
        "pickled": attempt(lambda: state(pickle.loads(pickle.dumps(obj)), fields)),
        "copied": attempt(lambda: state(copy.deepcopy(obj), fields)),
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
    # (an object's address differs from run to run: a default that is a function shows it)
    seen: dict[str, Any] = json.loads(re.sub(r" at 0x[0-9a-f]+", "", done.stdout))
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


def test_defaults_factories_fields_left_out_of_init_and_post_init_as_dataclasses() -> None:
    def build(decorate: Any) -> Any:
        @decorate
        class Made:
            a: int
            items: list[int] = dataclasses.field(default_factory=list)
            left_out: int = dataclasses.field(default=7, init=False)
            made_later: list[str] = dataclasses.field(default_factory=lambda: ["x"], init=False)
            doubled: int = dataclasses.field(init=False, repr=False, compare=False)

            def __post_init__(self) -> None:
                object.__setattr__(self, "doubled", self.a * 2)

        return Made

    quick = build(frozen_value(kw_only=False))
    usual = build(dataclasses.dataclass(frozen=True, slots=True))
    for cls in (quick, usual):
        made = cls(1)
        assert (made.items, made.left_out, made.made_later, made.doubled) == ([], 7, ["x"], 2)
        assert made.items is not cls(1).items  # (a new list each time)
        assert cls(2, [3]).items == [3]
        with pytest.raises(TypeError):
            cls(1, [], 7)
    assert str(inspect.signature(quick)) == str(inspect.signature(usual))
    assert repr(quick(1)).replace(quick.__qualname__, "") == repr(usual(1)).replace(
        usual.__qualname__, ""
    )
    assert (
        quick.__doc__
        == usual.__doc__
        == ("Made(a: 'int', items: 'list[int]' = <factory>) -> None".replace(" -> None", ""))
    )
    assert quick.__init__.__annotations__ == usual.__init__.__annotations__
    assert pickle.loads(pickle.dumps(_Plain(a=5))) == _Plain(a=5)


def test_what_dataclasses_refuses_it_refuses() -> None:
    with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):

        @frozen_value(kw_only=False)
        class Misordered:
            a: int = 0
            b: int  # type: ignore[misc]  # (the point)

    with pytest.raises(TypeError, match="Cannot overwrite attribute __setattr__"):

        @frozen_value
        class OwnSetattr:
            a: int

            def __setattr__(self, name: str, value: Any) -> None:
                pass


def test_a_field_cannot_be_set_or_deleted() -> None:
    made = _Plain(a=1)
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'a'"):
        made.a = 2  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'a'"):
        del made.a
    assert made.a == 1


@dataclasses.dataclass(frozen=True, kw_only=True)  # (no slots: its fields in a __dict__)
class _Sub(_Plain):
    c: int = 0


@frozen_value
class _OwnPickling:
    a: int

    def __getstate__(self) -> list[int]:
        return [self.a * 10]

    def __setstate__(self, state: list[int]) -> None:
        object.__setattr__(self, "a", state[0] + 1)


def test_a_subclass_pickles_and_copies_with_its_own_fields() -> None:
    made = _Sub(a=1, c=5)
    assert pickle.loads(pickle.dumps(made)) == made
    assert copy.copy(made).c == copy.deepcopy(made).c == 5


def test_its_own_pickling_is_kept() -> None:
    assert pickle.loads(pickle.dumps(_OwnPickling(a=1))).a == 11


def test_an_abstract_base_is_satisfied_as_with_dataclasses() -> None:
    class Shown(abc.ABC):
        @abc.abstractmethod
        def __repr__(self) -> str: ...

    @frozen_value
    class Made(Shown):
        a: int

    assert repr(Made(a=1)) == f"{Made.__qualname__}(a=1)"  # type: ignore[abstract]  # (dataclasses satisfies it)


def test_a_field_named_self_and_annotations_of_its_module() -> None:
    @frozen_value(kw_only=False)
    class Odd:
        self: int
        when: _Plain

    assert Odd(1, _Plain(a=2)).self == 1
    assert typing.get_type_hints(Odd.__init__)["when"] is _Plain


def test_the_classes_it_leaves_to_dataclasses_are_built_as_dataclasses_builds_them() -> None:
    seen: list[tuple[bool, bool]] = []

    class Watching:
        def __init_subclass__(cls, **kwargs: Any) -> None:
            super().__init_subclass__(**kwargs)
            seen.append(("__setattr__" in cls.__dict__, "__init__" in cls.__dict__))

    class Meta(type):
        def __init__(cls, name: str, bases: Any, namespace: dict[str, Any]) -> None:
            super().__init__(name, bases, namespace)
            seen.append(("__setattr__" in namespace, "__init__" in namespace))

    @frozen_value
    class Watched(Watching):
        a: int

    @frozen_value
    class Made(metaclass=Meta):
        a: int

    @frozen_value(kw_only=False)
    class Passed:
        a: int
        b: dataclasses.InitVar[int] = 0

        def __post_init__(self, b: int) -> None:
            object.__setattr__(self, "a", self.a + b)

    assert seen == [(False, False), (True, True)] * 2  # (as written, then rebuilt frozen)
    assert Watched(a=1).a == Made(a=1).a == 1
    assert Passed(1, 2).a == 3
    assert Passed.__init__ not in QUICK_INITS


def test_its_own_init_is_kept_and_the_fields_order_still_checked() -> None:
    @frozen_value
    class Own:
        a: int

        def __init__(self, text: str) -> None:
            object.__setattr__(self, "a", int(text))

    assert Own("4").a == 4
    with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):

        @frozen_value(kw_only=False)
        class Misordered:
            a: int = 0
            b: int  # type: ignore[misc]  # (the point)

            def __init__(self) -> None:
                pass


def test_annotations_in_parameter_order_and_a_signature_that_fails() -> None:
    def build(decorate: Any) -> Any:
        @decorate
        class Mixed:
            late: int = dataclasses.field(default=0, kw_only=True)
            early: str = ""
            __signature__ = 1  # (inspect.signature fails: no signature in the docstring)

        return Mixed

    quick = build(frozen_value(kw_only=False))
    usual = build(dataclasses.dataclass(frozen=True, slots=True))
    assert list(quick.__init__.__annotations__) == list(usual.__init__.__annotations__)
    assert list(quick.__init__.__annotations__) == ["early", "late", "return"]
    assert quick.__doc__ == usual.__doc__ == "Mixed"


def test_a_class_of_no_module_known() -> None:
    made = frozen_value(type("Far", (), {"__annotations__": {"a": int}, "__module__": "nowhere"}))
    assert made(a=1).a == 1


def test_a_subclass_of_one_is_built_quickly_and_still_frozen() -> None:
    @frozen_value
    class Child(_Plain):
        c: list[int] = dataclasses.field(default_factory=list)

    @dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
    class Grandchild(Child):
        d: int = 0

    assert Child.__init__ in QUICK_INITS
    assert _Plain.__dataclass_params__.frozen and Child.__dataclass_params__.frozen  # type: ignore[attr-defined]
    made = Child(a=1, c=[2])
    assert (made.a, made.b, made.c) == (1, "x", [2])
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'a'"):
        made.a = 2  # type: ignore[misc]
    assert Grandchild(a=1, d=3) == Grandchild(a=1, d=3) != Grandchild(a=1)
    with pytest.raises(TypeError, match="cannot inherit non-frozen dataclass from a frozen one"):

        @dataclasses.dataclass(slots=True)
        class Thawed(Child):  # type: ignore[misc]
            pass


def test_a_subclass_that_fails_leaves_its_bases_frozen() -> None:
    with pytest.raises(ValueError, match="mutable default"):

        @frozen_value
        class Shared(_Plain):
            items: list[int] = []  # noqa: RUF012

    with pytest.raises(TypeError, match="non-default argument"):

        @frozen_value(kw_only=False)
        class Misordered(_One):
            y: float = 0.0
            z: float  # type: ignore[misc]  # (the point)

    assert _Plain.__dataclass_params__.frozen and _One.__dataclass_params__.frozen  # type: ignore[attr-defined]


def test_subclasses_as_dataclasses_builds_them() -> None:
    def build(decorate: Any) -> tuple[Any, Any, Any]:
        @decorate
        class Base:
            a: str

            def __post_init__(self) -> None:
                object.__setattr__(self, "a", self.a + "!")

        @decorate
        class Sub(Base):
            b: int = 0

        @decorate  # (an InitVar: dataclasses builds it, frozen)
        class Passing:
            a: int
            b: dataclasses.InitVar[int] = 0  # type: ignore[assignment]  # (a decorator mypy cannot see)

            def __post_init__(self, b: int) -> None:
                object.__setattr__(self, "a", self.a + b)

        @decorate
        class OnPassing(Passing):
            c: int = 0

        return Base, Sub, OnPassing

    _, q_sub, q_passing = build(frozen_value(kw_only=False))
    _, u_sub, u_passing = build(dataclasses.dataclass(frozen=True, slots=True))
    assert q_sub(a="x").a == u_sub(a="x").a == "x!"  # (the base's __post_init__)
    assert q_sub.__doc__ == u_sub.__doc__ == "Sub(a: 'str', b: 'int' = 0)"  # (it has none)
    assert q_passing(a=1, b=2, c=3).a == u_passing(a=1, b=2, c=3).a == 3
    assert q_sub.__init__ in QUICK_INITS and q_passing.__init__ not in QUICK_INITS


def test_a_build_that_runs_another_build_does_not_wait_on_itself() -> None:
    built: list[type] = []

    class Naming:
        def __set_name__(self, owner: type, name: str) -> None:
            @frozen_value
            class Other(_Plain):
                c: int = 0

            built.append(Other)

    def define() -> None:
        @frozen_value
        class Named(_Plain):
            naming: typing.ClassVar[Naming] = Naming()

        built.append(Named)

    worker = threading.Thread(target=define, daemon=True)
    worker.start()
    worker.join(timeout=20)
    assert not worker.is_alive() and len(built) >= 2
