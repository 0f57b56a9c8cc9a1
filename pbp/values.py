"""Frozen values built quickly: the few the tag reader and the engine build by the thousand
(``fast_init``), and every frozen value class built quickly at a process's start
(``frozen_value``).

A frozen dataclass's ``__init__`` sets each field with ``object.__setattr__(self, name,
value)``, which looks the field up by name on every call; for a class with slots, each field
is a slot whose descriptor can set it directly, two to three times quicker. ``fast_init``
gives a frozen, slotted dataclass that ``__init__``: the same parameters (positional and
keyword-only, in the same order, with the same defaults), the same fields set, nothing else
changed (still frozen, ``dataclasses.replace`` goes through it too). It takes only the classes
it can build exactly so: no ``__post_init__``, no default factory, no field left out of
``__init__``; any other class is refused when it is defined.
"""

from __future__ import annotations

import _thread
import dataclasses
import operator
import types
import typing
from typing import Any, TypeVar

T = TypeVar("T")

# each class given a quick __init__, with the one dataclasses wrote (tests compare them)
WRITTEN: dict[type, Any] = {}


def fast_init(cls: type[T]) -> type[T]:
    """``cls`` (a frozen dataclass with slots) with an ``__init__`` that sets its slots
    through their descriptors."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__}: fast_init takes a frozen dataclass with slots")
    code = getattr(cls.__init__, "__code__", None)
    if not params.init or code is None or code.co_filename != "<string>":  # (one of its own)
        raise TypeError(f"{cls.__name__}: fast_init takes the __init__ dataclasses writes")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: fast_init cannot run __post_init__")
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    names: dict[str, Any] = {}
    positional: list[str] = []
    keyword: list[str] = []
    body: list[str] = []
    for number, field in enumerate(fields):
        if not field.init or field.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{field.name}: fast_init takes plain fields only")
        parameter = field.name
        if field.default is not dataclasses.MISSING:
            names[f"_default_{number}"] = field.default
            parameter += f"=_default_{number}"
        (keyword if field.kw_only else positional).append(parameter)
        names[f"_set_{number}"] = _slot(cls, field.name).__set__
        body.append(f"    _set_{number}(self, {field.name})")
    parameters = ", ".join([*positional, *(["*", *keyword] if keyword else [])])
    source = f"def __init__(self, {parameters}):\n" + "\n".join(body or ["    pass"])
    exec(source, names)
    written = names["__init__"]
    written.__qualname__ = f"{cls.__qualname__}.__init__"
    written.__module__ = cls.__module__
    written.__annotations__ = dict(cls.__init__.__annotations__)
    WRITTEN[cls] = cls.__init__
    cls.__init__ = written  # type: ignore[method-assign]
    return cls


def _slot(cls: type, name: str) -> types.MemberDescriptorType:
    """The descriptor of the slot ``name`` (of ``cls`` or of the class it inherits it from)."""
    for klass in cls.__mro__:
        found = klass.__dict__.get(name)
        if isinstance(found, types.MemberDescriptorType):
            return found
    raise TypeError(f"{cls.__name__}.{name}: fast_init finds no slot of that name")


# each class ``frozen_value`` built (tests hold their methods to those dataclasses writes)
FROZEN_VALUES: list[type] = []
_FROZEN_VALUE = dataclasses.dataclass(frozen=True, slots=True, kw_only=True, repr=False, eq=False)
_FROZEN_POSITIONAL = dataclasses.dataclass(frozen=True, slots=True, repr=False, eq=False)


@typing.dataclass_transform(
    frozen_default=True,
    kw_only_default=True,
    field_specifiers=(dataclasses.field, dataclasses.Field),
)
def frozen_value(cls: type[T] | None = None, /, *, kw_only: bool = True) -> Any:
    """``@dataclass(frozen=True, slots=True, kw_only=True)`` (``kw_only=False``: fields may be
    given by position too), with the same ``__repr__``, ``__eq__`` and ``__hash__`` that
    dataclasses writes, made without compiling code: dataclasses writes each as source text
    and compiles it, the greater part of building a class (about 1.2 million instructions a
    class of four fields, where a pbp process builds some 350 at its start). A method the
    class defines itself is kept, as dataclasses keeps it."""

    def wrap(cls: type[T]) -> type[T]:
        built: type[T] = (_FROZEN_VALUE if kw_only else _FROZEN_POSITIONAL)(cls)
        _add_methods(built)
        params = built.__dataclass_params__  # type: ignore[attr-defined]
        params.repr = params.eq = True  # (what it has, as dataclasses would say it)
        FROZEN_VALUES.append(built)
        return built

    return wrap if cls is None else wrap(cls)


def _add_methods(cls: type) -> None:
    """The ``__repr__``, ``__eq__`` and ``__hash__`` of a frozen dataclass with ``eq`` and
    ``repr``, as dataclasses decides and writes them, on ``cls`` (built without them)."""
    own = dict(cls.__dict__)  # (as written: the methods added below are not its own)
    fields = dataclasses.fields(cls)
    if "__repr__" not in own:
        _put(cls, _repr_of(tuple(f.name for f in fields if f.repr)))
    compared = _tuple_of(tuple(f.name for f in fields if f.compare))
    if "__eq__" not in own:

        def __eq__(self: Any, other: Any) -> Any:
            if other.__class__ is self.__class__:
                return compared(self) == compared(other)
            return NotImplemented

        _put(cls, __eq__)
    # dataclasses' rule: a class that defines no __hash__ of its own (Python sets it to None
    # for a class that defines __eq__) hashes its fields, as a frozen class that compares
    explicit = own.get("__hash__", dataclasses.MISSING)
    if explicit is dataclasses.MISSING or (explicit is None and "__eq__" in own):
        hashed = _tuple_of(
            tuple(f.name for f in fields if (f.compare if f.hash is None else f.hash))
        )

        def __hash__(self: Any) -> int:
            return hash(hashed(self))

        _put(cls, __hash__)


def _put(cls: type, method: Any) -> None:
    """``method`` on ``cls`` under its name, named as a method of the class written there."""
    method.__qualname__ = f"{cls.__qualname__}.{method.__name__}"
    method.__module__ = cls.__module__
    setattr(cls, method.__name__, method)


def _tuple_of(names: tuple[str, ...]) -> Any:
    """The values of the fields ``names`` of an object, as a tuple (for one field too)."""
    if len(names) >= 2:
        return operator.attrgetter(*names)
    if len(names) == 1:
        get = operator.attrgetter(names[0])
        return lambda obj: (get(obj),)
    return lambda obj: ()


def _repr_of(names: tuple[str, ...]) -> Any:
    """dataclasses' ``__repr__``: ``Name(a=1, b='x')``, and ``...`` for an object within its
    own repr (in the same thread)."""
    running: set[tuple[int, int]] = set()
    getters = tuple((f"{name}=", operator.attrgetter(name)) for name in names)

    def __repr__(self: Any) -> str:
        key = id(self), _thread.get_ident()
        if key in running:
            return "..."
        running.add(key)
        try:
            inside = ", ".join(label + repr(get(self)) for label, get in getters)
        finally:
            running.discard(key)
        return f"{self.__class__.__qualname__}({inside})"

    return __repr__
